// One option scheme for every command (src/cli/option-scheme.ts): -o/--out for the main output, -j only
// for --jobs, no unit in a duration's name; and the old spellings still working, with a note.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAllCommands } from '../../src/cli/registry.js';
import { RENAMED_OPTIONS } from '../../src/cli/option-scheme.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'gs-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gridsweep = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });

describe('the option scheme', () => {
  it('holds for every command: no --output, -j only for --jobs, no seconds suffix in a name', async () => {
    for (const command of await loadAllCommands()) {
      for (const [name, spec] of Object.entries(command.options)) {
        expect(name, command.name).not.toBe('output');
        if (spec.short === 'j') expect(`${command.name} --${name}`).toBe(`${command.name} --jobs`);
        if (spec.short === 'o') expect(`${command.name} --${name}`).toBe(`${command.name} --out`);
        expect(name.endsWith('-s'), `${command.name} --${name}`).toBe(false);
      }
    }
  });

  it('every renamed option names an option that exists under its new name', async () => {
    const commands = await loadAllCommands();
    for (const r of RENAMED_OPTIONS) {
      const owners = commands.filter((c) => (r.command === undefined || c.name === r.command) && r.now.slice(2) in c.options);
      expect(owners.length, `${r.old} → ${r.now}`).toBeGreaterThan(0);
    }
  });
});

describe('old spellings still work, with a note', () => {
  const spec = join(PACKAGE_ROOT, 'griddescs/batch/small.json');

  it('generate --output, as -o and --out do, byte for byte', () => {
    const old = gridsweep('generate', 'swf', spec, '--output', 'old.swf');
    expect(old.status, old.stderr).toBe(0);
    expect(old.stderr).toContain('gridsweep generate: note: --output is now --out (the old spelling still works, for now)');
    const now = gridsweep('generate', 'swf', spec, '--out', 'new.swf');
    expect(now.status).toBe(0);
    expect(now.stderr).not.toContain('note:');
    expect(readFileSync(join(dir, 'old.swf'), 'utf8')).toBe(readFileSync(join(dir, 'new.swf'), 'utf8'));
  });

  it('trace --schedule-out=FILE, as --schedule FILE', () => {
    const r = gridsweep('trace', 'new.swf', '--schedule-out=s.swf');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('note: --schedule-out is now --schedule');
    expect(readFileSync(join(dir, 's.swf'), 'utf8')).toContain('; MaxProcs: 64');
  });

  it('a duration with the old seconds suffix: simulate --overdue-grace-s gives what --overdue-grace gives', () => {
    const app = join(PACKAGE_ROOT, 'apps/appendix-b.app');
    const grid = join(PACKAGE_ROOT, 'griddescs/appendix-a/appendix-a.grid');
    const old = gridsweep('simulate', '--app', app, '--grid', grid, '--running-estimate', 'overdue', '--overdue-grace-s', '17', '--json');
    expect(old.status, old.stderr).toBe(0);
    expect(old.stderr).toContain('note: --overdue-grace-s is now --overdue-grace');
    const now = gridsweep('simulate', '--app', app, '--grid', grid, '--running-estimate', 'overdue', '--overdue-grace', '17', '--json');
    // The same run: everything but the timings of this process.
    const figures = (out: string) => {
      const { wallMs: _w, planCpuMs: _p, ...rest } = JSON.parse(out) as Record<string, unknown>;
      return rest;
    };
    expect(figures(now.stdout)).toEqual(figures(old.stdout));
  });

  it('run -j is --journal (and -j means --jobs everywhere else)', () => {
    const r = gridsweep('run', 'none.json', '--grid', 'none.json', '-j', 'j.jsonl');
    expect(r.stderr).toContain('gridsweep run: note: -j is now --journal');
    expect(r.stderr).not.toMatch(/unknown option/);
  });
});
