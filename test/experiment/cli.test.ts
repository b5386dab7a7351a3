// `gridsweep experiment` end to end with the simulator, on a tiny generated matrix.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import experiment from '../../src/cli/commands/experiment.js';
import { RESULTS_FOLDER_LOCK } from '../../backends/real/journal-lock.js';
import { gridsweep, makeScratch, startGridsweep } from './support/grid-experiment.js';
import { until } from '../real/unit/support/grid-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-expcli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gridsweep experiment', () => {
  it('prints the median table, writes the files, and resumes from the cache', async () => {
    const spec = {
      name: 'cli',
      heuristics: ['workqueue', 'xsufferage'],
      grids: { g: { generator: 'grid', spec: { clusters: [{ hosts: [{ count: 2, availabilityPct: 100 }], bandwidthBps: 10240, latencyMs: 1 }] } } },
      applications: {
        a: {
          generator: 'ins2d',
          spec: { tasks: 4, unsharedInputsPerTask: 1, unsharedInputSizeBytes: { kind: 'constant', value: '${inKB}' }, outputSizeBytes: { kind: 'constant', value: 1024 }, runTimeS: { kind: 'constant', value: 60 } },
        },
      },
      sweep: { variable: 'inKB', values: [1024, 4096] },
      seeds: [1, 2],
    };
    const path = join(dir, 'cli.json');
    writeFileSync(path, JSON.stringify(spec));
    const out = join(dir, 'out');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await experiment.run({ values: { out, jobs: '1' }, positionals: [path] })).toBe(0);
      const printed = log.mock.calls.map((c) => String(c[0])).join('\n');
      expect(printed).toMatch(/median makespan \(s\) by inKB/);
      expect(printed).toMatch(/^workqueue\s+\d+ \(\d+ ± \d+\)\s+\d+ \(\d+ ± \d+\)$/m);
      expect(printed).toMatch(/8 runs: 8 simulated, 0 from the cache, 0 failed/);
      expect(readFileSync(join(out, 'results.csv'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'))).toHaveLength(9);
      log.mockClear();
      expect(await experiment.run({ values: { out, jobs: '1' }, positionals: [path] })).toBe(0);
      expect(log.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/8 runs: 0 simulated, 8 from the cache/);
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
  });

  it('a bad specification is an InputError naming the place', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"heuristics": ["H42"], "grids": {}, "applications": {}, "seeds": [1]}');
    await expect(experiment.run({ values: {}, positionals: [path] })).rejects.toThrow(new RegExp(`${path}:1:\\d+`));
  });
});

describe('gridsweep experiment started twice on one results folder', () => {
  // 3 heuristics × 2 applications × 4 seeds = 24 runs, in worker threads.
  const scratch = makeScratch(['H0', 'H4', 'xsufferage'], 4);
  afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

  // Before, the second computed every run again beside the first, and both wrote the results files.
  it('refuses the second while the first runs, writing nothing; the first ends as if alone', async () => {
    const out = join(scratch.dir, 'out');
    const first = startGridsweep(['experiment', scratch.specPath, '--out', out, '--jobs', '1']);
    await until(() => first.stderr().includes(' → '), 'the first experiment to start', 60_000);
    // Held still, so that it cannot end before the second starts.
    first.kill('SIGSTOP');
    const second = await gridsweep(['experiment', scratch.specPath, '--out', out, '--jobs', '1']);
    first.kill('SIGCONT');
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toMatch(/^gridsweep experiment: the results folder \S+out is in use by another gridsweep experiment \(pid \d+, since \S+\); wait for it to end, or give this experiment another --out\n$/);
    expect(second.stdout).toBe('');
    const done = await first.result;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('24 runs: 24 simulated, 0 from the cache, 0 failed');
    expect(existsSync(join(out, RESULTS_FOLDER_LOCK))).toBe(false);
  }, 300_000);

  it('a refused experiment leaves no folder it made for its lock', async () => {
    const out = join(scratch.dir, 'never');
    const bad = join(scratch.dir, 'bad.json');
    writeFileSync(bad, '{"heuristics": ["H42"], "grids": {}, "applications": {}, "seeds": [1]}');
    const r = await gridsweep(['experiment', bad, '--out', out]);
    expect(r.code).toBe(1);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
