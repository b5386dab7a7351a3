// Which of an experiment's runs get a chart: lanes taken in turn, kept while a run runs, held a moment after
// it ends; and the server's side of it (a chart replaced in place, the matrix progress coalesced).
import { afterEach, describe, expect, it } from 'vitest';
import { ExperimentLanes } from '../../src/dashboard/experiment-lanes.js';
import { startDashboard, type Dashboard } from '../../src/dashboard/server.js';
import { LiveRecordSource, type DashboardSource } from '../../src/dashboard/source.js';
import type { ServerMessage, SourceUpdate } from '../../src/dashboard/protocol.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { syntheticRun } from '../fixtures/records/synthetic-run.js';
import { TestClient } from './ws-client.js';

const record = syntheticRun({ seed: 2 });
const batch = (events: readonly RunRecordEvent[]) => JSON.stringify(events);
const run = (id: number) => ({ id, name: `run ${id}` });

class FakeDashboard {
  readonly charts: DashboardSource[] = [];
  readonly calls: number[] = [];
  setSource(index: number, source: DashboardSource): void {
    this.charts[index] = source;
    this.calls.push(index);
  }
}

describe('ExperimentLanes', () => {
  it('gives free lanes to starting runs, skips runs when all are taken, and reuses the lane that ended first after the dwell', () => {
    let nowMs = 0;
    const board = new FakeDashboard();
    const lanes = new ExperimentLanes(board, { lanes: 2, dwellMs: 1000, nowMs: () => nowMs });
    lanes.runRecords(run(0), batch(record.slice(0, 10)));
    lanes.runRecords(run(1), batch(record.slice(0, 5)));
    lanes.runRecords(run(2), batch(record.slice(0, 5)));
    expect(board.calls).toEqual([0, 1]);
    expect(board.charts.map((s) => s.name)).toEqual(['run 0', 'run 1']);
    lanes.runRecords(run(0), batch(record.slice(10)));
    expect(board.charts[0]!.events).toEqual(record);
    // Run 2 started while no lane was free: it is never drawn, even once a lane frees.
    lanes.runEnded(run(1));
    nowMs = 100;
    lanes.runEnded(run(0));
    nowMs = 1050;
    lanes.runRecords(run(2), batch(record.slice(5, 8)));
    expect(board.calls).toEqual([0, 1]);
    // Run 1 ended first and has been shown for its dwell; run 0 has not yet.
    lanes.runRecords(run(3), batch(record.slice(0, 3)));
    lanes.runRecords(run(4), batch(record.slice(0, 3)));
    expect(board.calls).toEqual([0, 1, 1]);
    expect(board.charts[1]!.name).toBe('run 3');
    expect((board.charts[0] as LiveRecordSource).isEnded).toBe(true);
    expect((board.charts[1] as LiveRecordSource).isEnded).toBe(false);
    nowMs = 1100;
    lanes.runRecords(run(5), batch(record.slice(0, 3)));
    expect(board.calls).toEqual([0, 1, 1, 0]);
    expect(board.charts.map((s) => s.name)).toEqual(['run 5', 'run 3']);
  });
});

describe('dashboard server: charts replaced in place and matrix progress', () => {
  let dashboard: Dashboard | null = null;
  let client: TestClient | null = null;
  afterEach(async () => {
    client?.close();
    await dashboard?.close();
    dashboard = null;
  });

  const startsOf = (ms: readonly ServerMessage[], source: number) =>
    ms.flatMap((m) => (m.type === 'batch' ? m.updates : [])).filter((u: SourceUpdate) => u.source === source).reduce((n, u) => n + u.starts.length, 0);

  it('adds and replaces charts without a new generation, and sends only the latest matrix progress', async () => {
    dashboard = await startDashboard({ sources: [], batchIntervalMs: 20 });
    client = await TestClient.open(dashboard.url);
    await client.until((ms) => ms.some((m) => m.type === 'hello'));
    const first = new LiveRecordSource('first');
    for (const e of record) first.sink(e);
    first.end();
    dashboard.setSource(0, first);
    const starts = record.filter((e) => e.type === 'start').length;
    await client.until((ms) => startsOf(ms, 0) === starts);
    const second = new LiveRecordSource('second');
    for (const e of record.slice(0, 40)) second.sink(e);
    const before = client.messages.length;
    dashboard.setSource(0, second);
    for (let done = 1; done <= 5; done++) dashboard.showMatrix({ total: 5, done, running: 0, cached: 1, failed: 0, finished: done === 5 });
    await client.until((ms) => ms.slice(before).some((m) => m.type === 'matrix'));
    await client.until((ms) => startsOf(ms.slice(before), 0) === record.slice(0, 40).filter((e) => e.type === 'start').length);
    const after = client.messages.slice(before);
    expect(after[0]).toMatchObject({ type: 'source', source: 0, generation: 1, info: { name: 'second', live: true } });
    expect(after.filter((m) => m.type === 'matrix')).toEqual([{ type: 'matrix', matrix: { total: 5, done: 5, running: 0, cached: 1, failed: 0, finished: true } }]);
    expect(() => dashboard!.setSource(2, second)).toThrow(/chart 2 does not exist/);
    // A page that joins now gets the chart as it is and the progress.
    const late = await TestClient.open(dashboard.url);
    try {
      await late.until((ms) => ms.some((m) => m.type === 'matrix'));
      const hello = late.messages.find((m) => m.type === 'hello');
      expect(hello && hello.type === 'hello' && hello.sources.map((s) => s.name)).toEqual(['second']);
    } finally {
      late.close();
    }
  });
});
