// Options that cannot apply to a run, through the real CLI: a warning on stderr naming the option and why,
// and the same result as without it. `trace --check` says what it checked when it finds nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { PARAMETER_USED_BY, PARAMETERS_ALWAYS_USED } from '../../src/cli/inapplicable-options.js';
import { listStrategyFamilies } from '../../src/scheduler/strategies/registry.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'gs-inapplicable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gridsweep = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });

// fig11.grid has three ordinary clusters and no batch cluster.
const grid = join(PACKAGE_ROOT, 'griddescs/fig11/fig11.grid');
const app = join(PACKAGE_ROOT, 'apps/fig11/fig11-100kb.app');
const base = ['simulate', '--app', app, '--grid', grid, '--json'];
/** The simulated figures, without the wall-clock times that differ between two runs. */
const figures = (stdout: string) => {
  const { wallMs: _w, planCpuMs: _p, ...rest } = JSON.parse(stdout) as Record<string, unknown>;
  return rest;
};

describe('options that cannot apply', () => {
  const plain = gridsweep(...base);

  it('the plain run gives no warning', () => {
    expect(plain.status).toBe(0);
    expect(plain.stderr).toBe('');
  });

  it('--noise-bound without --quality noisy: a warning, the same simulation', () => {
    const r = gridsweep(...base, '--noise-bound', '0.3');
    expect(r.stderr.trim()).toBe('gridsweep simulate: warning: --noise-bound has no effect without --quality noisy (this run uses --quality estimates); it is ignored');
    expect(r.status).toBe(0);
    expect(figures(r.stdout)).toEqual(figures(plain.stdout));
  });

  it('--noise-bound with --quality noisy: no warning', () => {
    const r = gridsweep(...base, '--noise-bound', '0.3', '--quality', 'noisy');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('a default value is not a given option: --quality noisy alone warns about nothing', () => {
    // --noise-bound has a default that parseArgs fills in; only what the user wrote counts.
    expect(gridsweep(...base, '--quality', 'noisy').stderr).toBe('');
  });

  it('--pilots, --pilot-walltime on a grid without a batch cluster: one warning naming both', () => {
    const r = gridsweep(...base, '--pilots', '3', '--pilot-walltime', '600');
    expect(r.stderr.trim()).toBe('gridsweep simulate: warning: --pilots, --pilot-walltime: no effect, the grid has no batch cluster (ADD_BATCH_CLUSTER); ignored');
    expect(r.status).toBe(0);
    expect(figures(r.stdout)).toEqual(figures(plain.stdout));
  });

  it('--pilots on a grid with a batch cluster: no warning', () => {
    const r = gridsweep('simulate', '--app', app, '--grid', join(PACKAGE_ROOT, 'test/fixtures/batch-grid/idle.grid'), '--pilots', '1', '--json');
    expect(r.stderr).not.toContain('warning');
  });

  it('--pilot-cores with --submission per-work (single-core jobs): a warning', () => {
    const r = gridsweep('simulate', '--app', app, '--grid', join(PACKAGE_ROOT, 'test/fixtures/batch-grid/idle.grid'), '--submission', 'per-work', '--pilot-cores', '2', '--json');
    expect(r.stderr.trim()).toBe('gridsweep simulate: warning: --pilot-cores has no effect with --submission per-work (each job asks for one core); it is ignored');
  });

  it('--random-tolerance with a heuristic that draws nothing; none with a randomized one', () => {
    expect(gridsweep(...base, '--heuristic', 'minmin', '--random-tolerance', '0.1').stderr).toContain('warning: --random-tolerance has no effect on minmin');
    expect(gridsweep(...base, '--heuristic', 'randomized-minmin', '--random-tolerance', '0.1').stderr).toBe('');
  });

  it('--hybrid-wait without --link-order hybrid, in run too (before it reads any file)', () => {
    const r = gridsweep('run', 'none.json', '--grid', 'none-real.json', '--hybrid-wait', '5');
    expect(r.stderr).toContain('gridsweep run: warning: --hybrid-wait has no effect without --link-order hybrid (this run uses --link-order greedy); it is ignored');
  });

  it('--jobs on a batch experiment (its trace runs go one after another): a warning', () => {
    const spec = join(dir, 'batch.json');
    writeFileSync(spec, JSON.stringify({ batch: 1, workloads: { s: { generator: { jobs: 20, nodes: 2, coresPerNode: 2 }, seed: 1 } }, policies: ['fcfs'], allocators: ['first-fit'] }));
    const r = gridsweep('experiment', spec, '--out', join(dir, 'batch-out'), '--jobs', '2');
    expect(r.stderr).toContain('gridsweep experiment: warning: --jobs has no effect on a batch experiment');
    expect(r.status).toBe(0);
  });

  it('every strategy parameter of the registry is known to be read always or by some choices', () => {
    const all = listStrategyFamilies().flatMap((f) => f.parameters.map((p) => p.name));
    expect([...Object.keys(PARAMETER_USED_BY), ...PARAMETERS_ALWAYS_USED].sort()).toEqual([...all].sort());
    for (const [option, choices] of Object.values(PARAMETER_USED_BY)) {
      const family = listStrategyFamilies().find((f) => f.option === option)!;
      for (const c of choices) expect(family.choices.map((x) => x.name)).toContain(c);
    }
  });
});

describe('trace --check', () => {
  it('says how many jobs it checked when it finds no violation', () => {
    // Two jobs on a 4-core bag: 2 cores for 10 s from t=0, then 2 cores for 5 s from t=1 (both fit at once).
    const swf = join(dir, 'two.swf');
    writeFileSync(swf, ['; MaxNodes: 1', '; MaxProcs: 4', '1 0 -1 10 2 -1 -1 2 20 -1 1 1 -1 -1 -1 -1 -1 -1', '2 1 -1 5 2 -1 -1 2 20 -1 1 1 -1 -1 -1 -1 -1 -1', ''].join('\n'));
    const r = gridsweep('trace', swf, '--check');
    expect(r.stderr.trim()).toBe('checked 2 jobs: no violation (cores, order, reservations)');
    expect(r.status).toBe(0);
    expect(gridsweep('trace', swf).stderr).toBe('');
  });
});
