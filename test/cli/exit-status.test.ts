// Exit statuses through the real CLI: a simulation that does not finish exits 3 (not 0, not 1), in
// `simulate` and in `experiment`; the list is printed by `gridsweep --help`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'gs-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gridsweep = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });

// A batch cluster of one node × 2 cores with no other users (test/fixtures/batch-grid/idle.grid), and two
// Works of 100 s. A pilot holds its cores for --pilot-walltime seconds: 40 s is too short for any Work,
// so nothing is ever done and the submission stops after a few idle pilots: the run cannot finish.
// 200 s fits both Works (they run side by side on the 2 cores), so the run finishes.
const grid = join(PACKAGE_ROOT, 'test/fixtures/batch-grid/idle.grid');
const app = join(dir, 'two.app');
writeFileSync(
  app,
  ['WorkDescription 1 2 2', 'File: <0> <out0> <0> <0>', 'File: <1> <out1> <0> <0>', 'Work: <0> < 0 : > < 1 : 0 > < 1 : 100 > < 1 : 100 >', 'Work: <1> < 0 : > < 1 : 1 > < 1 : 100 > < 1 : 100 >', ''].join('\n'),
);

describe('exit status of unfinished runs', () => {
  it('simulate: 3 when the simulation does not finish, with the reason on stderr', () => {
    const r = gridsweep('simulate', '--app', app, '--grid', grid, '--pilots', '1', '--pilot-walltime', '40');
    expect(r.stdout).toContain('NOT FINISHED');
    expect(r.stdout).toContain('works done: 0/2');
    expect(r.stderr).toContain('gridsweep simulate: not finished: 0 of 2 Works done');
    expect(r.status).toBe(3);
  });

  it('simulate --json: 3 as well (the JSON says finished: false)', () => {
    const r = gridsweep('simulate', '--app', app, '--grid', grid, '--pilots', '1', '--pilot-walltime', '40', '--json');
    expect((JSON.parse(r.stdout) as { finished: boolean }).finished).toBe(false);
    expect(r.status).toBe(3);
  });

  it('simulate: 0 when the same run finishes', () => {
    const r = gridsweep('simulate', '--app', app, '--grid', grid, '--pilots', '1', '--pilot-walltime', '200');
    expect(r.stdout).toContain('works done: 2/2');
    expect(r.stdout).not.toContain('NOT FINISHED');
    expect(r.status).toBe(0);
  });

  it('experiment: 3 when a run of the matrix does not finish, and says how many', () => {
    // Experiments use the default submission (pilots of 3600 s): Works of 4000 s never fit in one.
    const longApp = join(dir, 'long.app');
    writeFileSync(longApp, ['WorkDescription 1 1 1', 'File: <0> <out0> <0> <0>', 'Work: <0> < 0 : > < 1 : 0 > < 1 : 4000 > < 1 : 4000 >', ''].join('\n'));
    const spec = join(dir, 'unfinished.json');
    writeFileSync(spec, JSON.stringify({ name: 'unfinished', heuristics: ['minmin'], grids: { idle: { file: grid } }, applications: { long: { file: longApp } }, seeds: [1] }));
    const r = gridsweep('experiment', spec, '--out', join(dir, 'out'), '--jobs', '1');
    expect(r.stdout).toContain('1 run(s) NOT FINISHED');
    expect(r.status).toBe(3);
    // Run again: from the cache, the same status.
    expect(gridsweep('experiment', spec, '--out', join(dir, 'out'), '--jobs', '1').status).toBe(3);
  });

  it('gridsweep --help lists the exit statuses', () => {
    const r = gridsweep('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Exit status:\n {2}0 +success\n {2}1 +failure/m);
    expect(r.stdout).toMatch(/^ {2}3 +not finished/m);
    expect(r.stdout).toMatch(/^ {2}130 +interrupted/m);
  });
});
