// The run records of an experiment's simulations, as a dashboard receives them: posted in batches by the
// worker threads (real ones, with the real simulator), only when watched, and without changing any result.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RecordBatcher } from '../../src/experiment/record-batcher.js';
import { parseExperimentSpec } from '../../src/experiment/spec.js';
import { runExperiment, type ExperimentProgress, type ExperimentWatcher } from '../../src/experiment/run-experiment.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';
import { twoClusterSpec } from './fixtures/two-cluster-spec.js';

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('RecordBatcher', () => {
  it('posts JSON arrays of at most maxEvents events, when maxIntervalMs have passed, and on flush', () => {
    let nowMs = 0;
    const posted: string[] = [];
    const b = new RecordBatcher((json) => posted.push(json), { maxEvents: 3, maxIntervalMs: 100, nowMs: () => nowMs });
    const ev = (t: number): RunRecordEvent => ({ type: 'end', t, id: t, ok: true });
    for (let t = 0; t < 7; t++) b.sink(ev(t));
    expect(posted.map((j) => (JSON.parse(j) as RunRecordEvent[]).map((e) => e.t))).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    nowMs = 150;
    b.sink(ev(7));
    expect(JSON.parse(posted[2]!)).toEqual([ev(6), ev(7)]);
    b.flush();
    expect(posted).toHaveLength(3);
    b.sink(ev(8));
    b.flush();
    expect(JSON.parse(posted[3]!)).toEqual([ev(8)]);
  });
});

const spec = twoClusterSpec('watched', { chunks: 3, tasksPerChunk: 20, sharedFileSizeBytes: 50000 });

/** Every run's batches and how it ended, as the watcher saw them. */
class CollectingWatcher implements ExperimentWatcher {
  readonly batches = new Map<string, string[]>();
  readonly ended: string[] = [];
  readonly endedBeforeBatch: string[] = [];

  runRecords(run: { name: string }, json: string): void {
    if (this.ended.includes(run.name)) this.endedBeforeBatch.push(run.name);
    const list = this.batches.get(run.name) ?? [];
    list.push(json);
    this.batches.set(run.name, list);
  }

  runEnded(run: { name: string }, failure?: string): void {
    expect(failure).toBeUndefined();
    this.ended.push(run.name);
  }
}

/** The stored results without the two wall-clock measures, which differ between any two runs. */
function storedResults(outDir: string): string[] {
  const runs = join(outDir, 'runs');
  return readdirSync(runs, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const r = JSON.parse(readFileSync(join(runs, f), 'utf8')) as { wallMs: number; outcome: { planCpuMs: number } };
      return JSON.stringify({ ...r, wallMs: 0, outcome: { ...r.outcome, planCpuMs: 0 } });
    });
}

function csvWithoutTimes(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const header = lines.find((l) => !l.startsWith('#'))!.split(',');
  const drop = new Set(['wallMs', 'planCpuMs'].map((c) => header.indexOf(c)));
  expect(drop.has(-1)).toBe(false);
  return lines.map((l) => (l.startsWith('#') ? l : l.split(',').filter((_, i) => !drop.has(i)).join(',')));
}

describe('experiment run records through the worker threads', () => {
  const path = join(dir, 'watched.json');
  writeFileSync(path, JSON.stringify(spec));
  const loaded = parseExperimentSpec(readFileSync(path, 'utf8'), path, listHeuristics());

  it('sends each simulated run its whole record, in batches, before it ends; results are unchanged', async () => {
    const watcher = new CollectingWatcher();
    const progress: ExperimentProgress[] = [];
    const watched = await runExperiment(loaded, { outDir: join(dir, 'watched'), jobs: 2, watcher, onProgress: (p) => progress.push(p) });
    expect(watched.failures).toEqual([]);
    expect(watched.simulated).toBe(6);
    expect(watcher.batches.size).toBe(6);
    expect([...watcher.ended].sort()).toEqual([...watcher.batches.keys()].sort());
    expect(watcher.endedBeforeBatch).toEqual([]);
    let events = 0;
    for (const [name, batches] of watcher.batches) {
      const record = batches.flatMap((b) => JSON.parse(b) as RunRecordEvent[]);
      events += record.length;
      expect(record[0]!.type, name).toBe('header');
      expect(record[record.length - 1]!.type, name).toBe('run-end');
      expect(record.filter((e) => e.type === 'work-done')).toHaveLength(60);
      for (const b of batches) expect((JSON.parse(b) as unknown[]).length).toBeLessThanOrEqual(1000);
    }
    // Batched: far fewer messages than events.
    const messages = [...watcher.batches.values()].reduce((n, b) => n + b.length, 0);
    expect(events).toBeGreaterThan(6 * 500);
    expect(messages).toBeLessThan(events / 50);
    expect(Math.max(...progress.map((p) => p.running))).toBeGreaterThanOrEqual(1);
    expect(Math.max(...progress.map((p) => p.running))).toBeLessThanOrEqual(2);
    expect(progress[progress.length - 1]).toEqual({ done: 6, running: 0, total: 6, cached: 0, failed: 0 });

    const plain = await runExperiment(loaded, { outDir: join(dir, 'plain'), jobs: 2 });
    expect(storedResults(join(dir, 'watched'))).toEqual(storedResults(join(dir, 'plain')));
    expect(csvWithoutTimes(watched.csvPath)).toEqual(csvWithoutTimes(plain.csvPath));

    // Run again: everything comes from the cache, which has no records to send.
    const again = new CollectingWatcher();
    const cached = await runExperiment(loaded, { outDir: join(dir, 'watched'), jobs: 2, watcher: again });
    expect(cached.cached).toBe(6);
    expect(again.batches.size).toBe(0);
    expect(again.ended).toEqual([]);
  });
});
