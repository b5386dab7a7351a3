// The `gridsweep` command as a user meets it: help, versions, unknown commands and options, and the
// README's CLI reference kept true to every command's real options.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/commands-list.js';
import { loadAllCommands } from '../../src/cli/registry.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { applySections, generatedSections } from '../../src/cli/readme-sections.js';
import { listStrategyFamilies } from '../../src/scheduler/strategies/registry.js';
import { YOUNG_GENERATION_FLAG } from '../../src/util/young-generation.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
function gridsweep(...args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: PACKAGE_ROOT });
}


describe('gridsweep CLI', () => {
  it('lists every command in --help', () => {
    const r = gridsweep('--help');
    expect(r.status).toBe(0);
    for (const name of COMMAND_NAMES) expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('runs as an installed command does, through its first line, which gives node the larger young generation', () => {
    // Executed as a file (the kernel reads the first line); a module loaded first reports node's options.
    const r = spawnSync(cli, ['--version'], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '--import=data:text/javascript,process.stderr.write(String(process.execArgv))' },
    });
    expect(r.status).toBe(0);
    expect(r.stderr.split(',')).toContain(YOUNG_GENERATION_FLAG);
  });

  it('prints its version from package.json', () => {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(gridsweep('--version').stdout.trim()).toBe(pkg.version);
  });

  it('refuses an unknown command with exit 2', () => {
    const r = gridsweep('frobnicate');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it('refuses an unknown option of every command with exit 2 and the usage line', async () => {
    for (const c of await loadAllCommands()) {
      const r = gridsweep(c.name, '--no-such-option');
      expect(r.status, c.name).toBe(2);
      expect(r.stderr, c.name).toContain(`Usage: ${c.usage}`);
    }
  });

  it('gives per-command help naming every option', async () => {
    for (const c of await loadAllCommands()) {
      const r = gridsweep(c.name, '--help');
      expect(r.status, c.name).toBe(0);
      for (const opt of Object.keys(c.options)) expect(r.stdout, `${c.name} --${opt}`).toContain(`--${opt}`);
    }
  });

  it('has README sections identical to what the code generates (run `npm run docs` after a change)', async () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    expect(applySections(readme, await generatedSections())).toBe(readme);
  });

  it('prints every strategy choice and every strategy parameter with its one-line help (simulate and run)', () => {
    for (const name of ['simulate', 'run']) {
      const help = gridsweep(name, '--help').stdout;
      for (const family of listStrategyFamilies()) {
        for (const c of family.choices) expect(help, `${name}: ${family.option} ${c.name}`).toMatch(new RegExp(`^ +${c.name} +${escapeRegExp(c.help)}$`, 'm'));
        for (const p of family.parameters) {
          expect(p.help.length, p.name).toBeGreaterThan(10);
          expect(help, `${name}: ${p.name}`).toContain(p.help);
        }
      }
      expect(help).not.toContain('strategy parameter');
    }
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
