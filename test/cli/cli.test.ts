// The `gridsweep` command as a user meets it: help, versions, unknown commands and options, and the
// generated documentation (README.md's tables, docs/cli.md's CLI reference) kept true to the code.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/commands-list.js';
import { loadAllCommands } from '../../src/cli/registry.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { applySections, generatedDocs } from '../../src/cli/readme-sections.js';
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

  it('lists the commands with their summaries without loading any command\'s module', async () => {
    // A loader hook that reports every module of the package loaded on stderr.
    const hook = `export async function load(url, context, next) { if (url.includes('/cli/commands/')) process.stderr.write('loaded ' + url + '\\n'); return next(url, context); }`;
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
    const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, cli, '--help'], { encoding: 'utf8', cwd: PACKAGE_ROOT });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('loaded ');
    const width = Math.max(...COMMAND_NAMES.map((n) => n.length));
    for (const c of await loadAllCommands()) expect(r.stdout).toContain(`  ${c.name.padEnd(width)}  ${c.summary}\n`);
    // The hook does report a command's module when one is loaded.
    expect(spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, cli, 'validate', '--help'], { encoding: 'utf8', cwd: PACKAGE_ROOT }).stderr).toContain('loaded ');
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

  it('refuses a load probe period of more than a day (a timer that long would fire at once)', () => {
    const r = gridsweep('run', 'sweep.json', '--grid', 'grid.json', '--sample-period', '3000000');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--sample-period takes a number from 0\.1 to 86400, got '3000000'/);
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

  it('has README.md and docs/cli.md sections identical to what the code generates (run `npm run docs` after a change)', async () => {
    const docs = await generatedDocs();
    expect(docs.map((d) => d.path)).toEqual(['README.md', 'docs/cli.md']);
    for (const { path, sections } of docs) {
      const text = readFileSync(join(PACKAGE_ROOT, path), 'utf8');
      expect(applySections(text, sections, path), `${path}: run \`npm run docs\``).toBe(text);
    }
  });

  it('lists every command in the README, linked to its reference in docs/cli.md', () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const reference = readFileSync(join(PACKAGE_ROOT, 'docs/cli.md'), 'utf8');
    for (const name of COMMAND_NAMES) {
      expect(readme, name).toContain(`| [\`${name}\`](docs/cli.md#gridsweep-${name}) |`);
      expect(reference, name).toContain(`### \`gridsweep ${name}\``);
    }
    // The long reference lives in docs/cli.md only.
    expect(readme).not.toContain('<!-- generated:cli-reference -->');
  });

  it('has no relative link in README.md or docs/*.md to a file that does not exist', () => {
    const files = ['README.md', ...readdirSync(join(PACKAGE_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (target === '' || /^[a-z]+:/.test(target)) continue; // an anchor in the same file, or a URL
        if (!existsSync(join(PACKAGE_ROOT, dirname(file), target))) broken.push(`${file}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
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
