// `gridsweep experiment SPEC --grid` on local slots: the cells run as tasks of a real sweep (the bundled
// cell program, the cell table and the input files shipped once to the cluster's storage, each result
// fetched back verified) and the experiment's files are those of the worker-thread run of the same spec;
// the cache is used both ways: cells already cached are not sent, cells computed on the grid fill it.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedKeys, expectSameResults, gridsweep, localGridFile, makeScratch } from './support/grid-experiment.js';

describe('experiment --grid on local slots', () => {
  // 3 heuristics × 2 applications × 4 seeds = 24 cells.
  const scratch = makeScratch(['H0', 'H4', 'xsufferage'], 4);
  const grid = localGridFile(scratch, 2);
  afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));
  const local = join(scratch.dir, 'local');
  const remote = join(scratch.dir, 'remote');

  it('gives the worker-thread results, and fills and respects the cache', async () => {
    const l = await gridsweep(['experiment', scratch.specPath, '--out', local, '--jobs', '2']);
    expect(l.code, l.stderr).toBe(0);
    const all = cachedKeys(local);
    expect(all).toHaveLength(24);

    // Half the cells already in the cache (computed locally): only the other half goes to the grid.
    const seeded = all.filter((_, i) => i % 2 === 0);
    for (const k of seeded) cpSync(join(local, 'runs', k.slice(0, 2), `${k}.json`), join(remote, 'runs', k.slice(0, 2), `${k}.json`), { recursive: true });
    const g = await gridsweep(['experiment', scratch.specPath, '--out', remote, '--grid', grid]);
    expect(g.code, g.stderr).toBe(0);
    expect(g.stderr).toContain('12 run(s) to compute on the real grid (12 from the cache)');
    expect(g.stderr).toContain('real grid: 12 run(s) computed in 4 task(s), 0 failed');
    // The bundle, the cell table, the grid file with its 4 behaviour files and the application file: each
    // sent once to the one cluster (8 inputs, 8 transfers), however many cells read it.
    expect(g.stderr).toMatch(/in [\d.]+ s; 8 input transfer\(s\)/);
    expect(g.stdout).toContain('24 runs: 12 simulated, 12 from the cache, 0 failed');
    expect(cachedKeys(remote)).toEqual(all);
    // Everything came back into the cache: what was staged is gone, the journal renamed aside.
    expect(readdirSync(join(remote, 'grid-run'))).toEqual(['.gridsweep']);
    expect(readdirSync(join(remote, 'grid-run', '.gridsweep', 'cells')).filter((f) => /^journal\..*\.jsonl$/.test(f))).toHaveLength(1);
    expectSameResults(local, remote);

    // The cells computed on the grid serve a local run of the same folder: nothing is simulated.
    const again = await gridsweep(['experiment', scratch.specPath, '--out', remote]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('24 runs: 0 simulated, 24 from the cache, 0 failed');
    expectSameResults(local, remote);
  }, 300_000);
});
