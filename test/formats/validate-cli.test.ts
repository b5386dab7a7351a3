// `gridsweep validate` end to end: the built CLI (dist/) run as a user would, exit codes and output.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const built = join(PACKAGE_ROOT, 'dist/src/cli/commands/validate.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const f of readdirSync(join(PACKAGE_ROOT, dir), { recursive: true, encoding: 'utf8' })) {
    if (f.endsWith('.ts') || f.endsWith('.ne')) newest = Math.max(newest, statSync(join(PACKAGE_ROOT, dir, f)).mtimeMs);
  }
  return newest;
}

/** Builds (npm run build) when dist/ is missing or older than the sources this test exercises. */
function ensureBuilt(): void {
  const sources = Math.max(newestSource('src/formats'), newestSource('grammars'), statSync(join(PACKAGE_ROOT, 'src/cli/commands/validate.ts')).mtimeMs);
  if (existsSync(built) && statSync(built).mtimeMs >= sources && existsSync(join(PACKAGE_ROOT, 'dist/src/formats/generated/grid.js'))) return;
  // tsc still emits when other, unrelated files have type errors; what matters is that our output is fresh.
  spawnSync('npm', ['run', 'build'], { cwd: PACKAGE_ROOT, encoding: 'utf8', shell: process.platform === 'win32' });
  if (!existsSync(built) || statSync(built).mtimeMs < sources) throw new Error('npm run build did not produce dist/src/cli/commands/validate.js');
}

function gridsweep(...args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: PACKAGE_ROOT });
}

let tmp = '';
beforeAll(() => {
  ensureBuilt();
  tmp = mkdtempSync(join(tmpdir(), 'gridsweep-validate-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('gridsweep validate', () => {
  it('summarises the paper examples and exits 0, printing the warning', () => {
    const r = gridsweep('validate', 'apps/appendix-b.app', 'griddescs/appendix-a/appendix-a.grid');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      'apps/appendix-b.app: application, 22 files, 12 works, 3 architectures\n' +
        'griddescs/appendix-a/appendix-a.grid: grid, 6 clusters, 12 hosts, 22 events, 8 behaviour files\n',
    );
    expect(r.stderr).toContain("griddescs/appendix-a/appendix-a.grid:24:31: warning: cluster 'cluster3' is not in the grid at time 1550");
  });

  it('prints every error of every file and exits 1', () => {
    const bad = join(tmp, 'bad.app');
    writeFileSync(bad, 'WorkDescription 1 2 1\nFile: 0 a -1 1\nFile: 0 b 1 1\nWork: 0 <1: 5> <0:> <1: 5> <1: 5>\n');
    const r = gridsweep('validate', bad, 'test/fixtures/formats/bad-behavior/bad.grid', 'apps/appendix-b.app');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('apps/appendix-b.app: application, 22 files, 12 works, 3 architectures\n');
    expect(r.stderr).toContain(`${bad}:2:11: error: negative file size (bytes)\n  found: '-1'\n  expected: a number, 0 or more`);
    expect(r.stderr).toContain(`${bad}:3:7: error: duplicate file id 0 (first declared at line 2)`);
    expect(r.stderr).toContain(`${bad}:4:13: error: file 5 is not declared`);
    expect(r.stderr).toContain('test/fixtures/formats/bad-behavior/link_bad:4:4: error: bandwidth (bytes/s) must be greater than 0');
    expect(r.stderr).toContain('test/fixtures/formats/bad-behavior/cpu_bad:3:1: error: CPU availability (%) is above 100');
  });

  it('refuses files that are neither kind, naming the headers it expects', () => {
    const r = gridsweep('validate', 'griddescs/appendix-a/loaded_2', join(tmp, 'missing.grid'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('griddescs/appendix-a/loaded_2:2:1: error: not a grid or application description');
    expect(r.stderr).toContain("expected: a first line 'GridDescription <version>' (grid) or 'WorkDescription <version> <files> <tasks>' (application)");
    expect(r.stderr).toContain('fix: this looks like a behaviour file; validate the grid description that names it');
    expect(r.stderr).toContain(`${join(tmp, 'missing.grid')}:1:1: error: cannot read the description (no such file)`);
  });

  it('--app checks each grid host has run times for its architecture', () => {
    const oneArch = join(tmp, 'one-arch.app');
    writeFileSync(oneArch, 'WorkDescription 1 1 1\nFile: 0 in 10 10\nWork: 0 <1 : 0> <0 :> <1 : 60> <1 : 60>\n');
    const ok = gridsweep('validate', '--app', 'apps/appendix-b.app', 'griddescs/appendix-a/appendix-a.grid');
    expect(ok.status).toBe(0);
    const r = gridsweep('validate', 'griddescs/appendix-a/appendix-a.grid', '--app', oneArch);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `griddescs/appendix-a/appendix-a.grid:5:1: error: host 'host3.2' has architecture 1 but ${oneArch} gives run times for 1 architecture(s) (0 to 0)`,
    );
  });

  it('an unknown option is a usage error (exit 2)', () => {
    const r = gridsweep('validate', '--bogus', 'apps/appendix-b.app');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Usage: gridsweep validate FILE... [--app APPLICATION]');
  });

  it('no file at all is a usage error (exit 2)', () => {
    expect(gridsweep('validate').status).toBe(2);
  });
});
