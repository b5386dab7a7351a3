// The experiment tool with the real simulator (the default runner), on worker threads.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExperimentSpec } from '../../src/experiment/spec.js';
import { runExperiment } from '../../src/experiment/run-experiment.js';
import type { ResultRow } from '../../src/experiment/results.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';
import { twoClusterSpec } from './fixtures/two-cluster-spec.js';

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-real-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = { ...twoClusterSpec('tiny', { chunks: 2, tasksPerChunk: 4, sharedFileSizeBytes: '${sharedKB}' }), sweep: { variable: 'sharedKB', values: [10000, 200000] } };

function rows(path: string): Omit<ResultRow, 'wallMs' | 'planCpuMs'>[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { rows: ResultRow[] }).rows.map(({ wallMs: _w, planCpuMs: _p, ...rest }) => rest);
}

describe('experiments with the simulator', () => {
  it('runs on worker threads, respects the lower bound, and is reproducible', async () => {
    const path = join(dir, 'tiny.json');
    writeFileSync(path, JSON.stringify(spec));
    const loaded = parseExperimentSpec(readFileSync(path, 'utf8'), path, listHeuristics());
    expect(loaded.heuristics).toEqual(['workqueue', 'minmin', 'xsufferage']);
    const a = await runExperiment(loaded, { outDir: join(dir, 'a'), jobs: 2 });
    expect(a.failures).toEqual([]);
    expect(a.simulated).toBe(12);
    const got = rows(a.jsonPath);
    for (const r of got) {
      expect(r.finished).toBe(true);
      expect(r.worksDone).toBe(8);
      expect(r.makespanS).toBeGreaterThanOrEqual(r.lowerBoundS - 1e-6);
      expect(r.utilization).toBeGreaterThan(0);
      expect(r.utilization).toBeLessThanOrEqual(1);
      // Every input and output crosses a link at least once.
      expect(r.bytesMoved).toBeGreaterThanOrEqual(2 * 10000 + 8 * (8192 + 8192));
    }
    // A bigger shared file cannot make the run shorter for the file-blind workqueue.
    const wq = (kb: number) => got.filter((r) => r.heuristic === 'workqueue' && r.sweep === kb).map((r) => r.makespanS);
    expect(Math.min(...wq(200000))).toBeGreaterThan(Math.max(...wq(10000)));
    const b = await runExperiment(loaded, { outDir: join(dir, 'b'), jobs: 1 });
    expect(rows(b.jsonPath)).toEqual(got);
  });
});
