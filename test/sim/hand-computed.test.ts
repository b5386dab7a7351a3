// The simulator against schedules computed by hand, to the microsecond. A scripted scheduler issues the
// transfers and computations in a fixed order, so each time below follows from the arithmetic beside it.
// Rules used (backends/sim/engine.ts): transfer = latency at its start, then size / bandwidth integrated;
// computation = runTimeS[arch] work-seconds at the availability integrated; samples every 5 s.
import { describe, expect, it } from 'vitest';
import { checkRunRecord } from '../support/invariants.js';
import { addCluster, addHost, changeCluster, changeHost, makeApp, makeGrid, removeCluster, removeHost } from './support/build.js';
import { runScripted, type Span } from './support/harness.js';

type Expected = [kind: Span['kind'], resource: string, subject: number, startS: number, endS: number, ok?: boolean];

function expectSpans(actual: readonly Span[], expected: readonly Expected[]): void {
  const shown = actual.map((s) => `${s.kind} ${s.resource} #${s.subject} ${s.startS}→${s.endS}${s.ok ? '' : ' FAILED'}`);
  expect(actual.length, shown.join('\n')).toBe(expected.length);
  expected.forEach(([kind, resource, subject, startS, endS, ok = true], i) => {
    const s = actual[i]!;
    const label = `span ${i}: ${shown[i]}`;
    expect({ kind: s.kind, resource: s.resource, subject: s.subject, ok: s.ok }, label).toEqual({ kind, resource, subject, ok });
    expect(Math.abs(s.startS - startS), `${label}: start ${startS}`).toBeLessThan(1e-6);
    expect(Math.abs(s.endS - endS), `${label}: end ${endS}`).toBeLessThan(1e-6);
  });
}

describe('hand-computed schedules', () => {
  it('one link, two tasks sharing a file: the file crosses the link once', () => {
    // files: f0 shared 2000 B, f1 1000 B, f2 500 B; outputs f3 300 B (w0), f4 700 B (w1)
    const app = makeApp([2000, 1000, 500, 300, 700], [
      { inputs: [0, 1], outputs: [3], runTimeS: [10] },
      { inputs: [0, 2], outputs: [4], runTimeS: [20] },
    ]);
    const grid = makeGrid(
      [addCluster(0, 'c', 'L'), addHost(0, 'c', 'h1', 'full'), addHost(0, 'c', 'h2', 'full')],
      { L: [{ latencyMs: 100, bandwidthBps: 1000 }] },
      { full: [100] },
    );
    const run = runScripted(app, grid, [
      { op: 'store', file: 0, cluster: 'c' },
      { op: 'store', file: 1, cluster: 'c' },
      { op: 'store', file: 2, cluster: 'c' },
      { op: 'retrieve', work: 0, host: 'h1', cluster: 'c' },
      { op: 'retrieve', work: 1, host: 'h2', cluster: 'c' },
      { op: 'compute', work: 0, host: 'h1' },
      { op: 'compute', work: 1, host: 'h2' },
    ]);
    expectSpans(run.spans, [
      ['input', 'link:c', 0, 0, 2.1], //             0.1 latency + 2000/1000
      ['input', 'link:c', 1, 2.1, 3.2], //           2.1 + 0.1 + 1000/1000
      ['input', 'link:c', 2, 3.2, 3.8], //           3.2 + 0.1 + 500/1000
      ['compute', 'host:h1', 0, 3.2, 13.2], //       inputs f0, f1 stored at 3.2; 10 s at 100 %
      ['compute', 'host:h2', 1, 3.8, 23.8], //       20 s at 100 %
      ['output', 'link:c', 0, 13.2, 13.6], //        13.2 + 0.1 + 300/1000
      ['output', 'link:c', 1, 23.8, 24.6], //        23.8 + 0.1 + 700/1000
    ]);
    const r = run.result;
    expect(r.finished).toBe(true);
    expect(r.makespanS).toBeCloseTo(24.6, 9);
    expect(r.fileSends).toEqual([1, 1, 1, 0, 0]);
    expect(r.links[0]!.busyS).toBeCloseTo(2.1 + 1.1 + 0.6 + 0.4 + 0.8, 9);
    expect(r.links[0]!.bytesIn).toBe(3500);
    expect(r.links[0]!.bytesOut).toBe(1000);
    expect(r.hosts.map((h) => h.busyS)).toEqual([10, 20]);
    expect(r.hosts[1]!.utilization).toBeCloseTo(20 / 24.6, 12);
    expect(checkRunRecord(run.events, app)).toEqual([]);
  });

  it('two clusters: each gets its own copy of the shared file; architecture picks the run time', () => {
    // f0 1000 B shared; outputs f1, f2 100 B each. w1 runs on an arch-1 host: 8 work-seconds.
    const app = makeApp([1000, 100, 100], [
      { inputs: [0], outputs: [1], runTimeS: [10, 12] },
      { inputs: [0], outputs: [2], runTimeS: [10, 8] },
    ]);
    const grid = makeGrid(
      [addCluster(0, 'A', 'fast'), addHost(0, 'A', 'hA', 'full'), addCluster(0, 'B', 'slow'), addHost(0, 'B', 'hB', 'half', 0, 1)],
      { fast: [{ latencyMs: 0, bandwidthBps: 1000 }], slow: [{ latencyMs: 50, bandwidthBps: 500 }] },
      { full: [100], half: [50] },
    );
    const run = runScripted(app, grid, [
      { op: 'store', file: 0, cluster: 'A' },
      { op: 'store', file: 0, cluster: 'B' },
      { op: 'compute', work: 0, host: 'hA' },
      { op: 'compute', work: 1, host: 'hB' },
      { op: 'retrieve', work: 0, host: 'hA', cluster: 'A' },
      { op: 'retrieve', work: 1, host: 'hB', cluster: 'B' },
    ]);
    expectSpans(run.spans, [
      ['input', 'link:A', 0, 0, 1], //               1000/1000
      ['input', 'link:B', 0, 0, 2.05], //            0.05 + 1000/500
      ['compute', 'host:hA', 0, 1, 11], //           10 s at 100 %
      ['compute', 'host:hB', 1, 2.05, 18.05], //     8 work-s at 50 % = 16 s
      ['output', 'link:A', 0, 11, 11.1], //          100/1000
      ['output', 'link:B', 1, 18.05, 18.3], //       0.05 + 100/500
    ]);
    expect(run.result.makespanS).toBeCloseTo(18.3, 9);
    expect(run.result.fileSends[0]).toBe(2);
    expect(checkRunRecord(run.events, app)).toEqual([]);
  });

  it('a host whose availability series drops mid-task (integrated, circular)', () => {
    // f0 1000 B in 1 s; w0 needs 12 work-s; availability series 100,100,25,25 % (5 s each, circular).
    const app = makeApp([1000, 500], [{ inputs: [0], outputs: [1], runTimeS: [12] }]);
    const grid = makeGrid(
      [addCluster(0, 'c', 'L'), addHost(0, 'c', 'h', 'drop')],
      { L: [{ latencyMs: 0, bandwidthBps: 1000 }] },
      { drop: [100, 100, 25, 25] },
    );
    const run = runScripted(app, grid, [
      { op: 'store', file: 0, cluster: 'c' },
      { op: 'compute', work: 0, host: 'h' },
      { op: 'retrieve', work: 0, host: 'h', cluster: 'c' },
    ]);
    expectSpans(run.spans, [
      ['input', 'link:c', 0, 0, 1],
      // [1,10) at 100 % → 9; [10,20) at 25 % → 2.5 (11.5); cycle restarts at 20: 0.5 more at 100 % → 20.5
      ['compute', 'host:h', 0, 1, 20.5],
      ['output', 'link:c', 0, 20.5, 21], //         500/1000
    ]);
    expect(checkRunRecord(run.events, app)).toEqual([]);
  });

  it('an offset starts the series part-way, and the sample period is configurable', () => {
    // Period 2 s, offset 2: samples in force 25 % [0,2), 25 % [2,4), 100 % [4,6), 100 % [6,8), 25 % ...
    // w0 (no inputs) needs 3 work-s from 0: 0.5 + 0.5 by t=4, then 2 more at 100 % → t=6.
    const app = makeApp([], [{ inputs: [], outputs: [], runTimeS: [3] }]);
    const grid = makeGrid(
      [addCluster(0, 'c', 'L'), addHost(0, 'c', 'h', 'drop', 2)],
      { L: [{ latencyMs: 0, bandwidthBps: 1000 }] },
      { drop: [100, 100, 25, 25] },
    );
    const run = runScripted(app, grid, [{ op: 'compute', work: 0, host: 'h' }, { op: 'retrieve', work: 0, host: 'h', cluster: 'c' }], {}, 2);
    expectSpans(run.spans, [
      ['compute', 'host:h', 0, 0, 6],
      ['output', 'link:c', 0, 6, 6], // no outputs, no latency: an empty transfer
    ]);
  });

  it('CHANGE_HOST_BEHAVIOR mid-task, including a spell at 0 % availability', () => {
    // w0 10 work-s from t=0. At 3 → 0 % (3 done); at 10 → 50 % (no progress meanwhile): 7 left at 50 % → 24.
    const app = makeApp([], [{ inputs: [], outputs: [], runTimeS: [10] }]);
    const grid = makeGrid(
      [addCluster(0, 'c', 'L'), addHost(0, 'c', 'h', 'full'), changeHost(3, 'h', 'zero'), changeHost(10, 'h', 'half')],
      { L: [{ latencyMs: 0, bandwidthBps: 1000 }] },
      { full: [100], zero: [0, 0, 0], half: [50] },
    );
    const run = runScripted(app, grid, [{ op: 'compute', work: 0, host: 'h' }, { op: 'retrieve', work: 0, host: 'h', cluster: 'c' }]);
    expectSpans(run.spans, [
      ['compute', 'host:h', 0, 0, 24],
      ['output', 'link:c', 0, 24, 24],
    ]);
  });

  it('a host stuck at 0 % for good: the run ends unfinished instead of looping', () => {
    const app = makeApp([], [{ inputs: [], outputs: [], runTimeS: [10] }]);
    const grid = makeGrid([addCluster(0, 'c', 'L'), addHost(0, 'c', 'h', 'zero')], { L: [{ latencyMs: 0, bandwidthBps: 1 }] }, { zero: [0, 0] });
    const run = runScripted(app, grid, [{ op: 'compute', work: 0, host: 'h' }]);
    expect(run.result.finished).toBe(false);
    expect(run.result.worksDone).toBe(0);
    // The computation is cut off when the run stops (t=0: nothing else could ever happen).
    expectSpans(run.spans, [['compute', 'host:h', 0, 0, 0, false]]);
    expect(run.events.at(-1)).toMatchObject({ type: 'run-end', worksDone: 0, worksFailed: 1 });
  });

  it('a link whose bandwidth changes mid-transfer, and during the latency', () => {
    // f0 5000 B over 'slow' (200 ms, 1000 B/s) from 0: bytes flow from 0.2; at 2.2 the link switches to
    // 'fast' (1000 ms, 4000 B/s) with 2000 B sent: 3000 B left at 4000 B/s → 2.95 (latency not paid again).
    // f1 5000 B starts at 2.95 on 'fast': latency 1 s until 3.95; at 3.5 it switches back to 'slow':
    // the committed latency stands, then 5000 B at 1000 B/s → 8.95.
    const app = makeApp([5000, 5000], [{ inputs: [0, 1], outputs: [], runTimeS: [1] }]);
    const grid = makeGrid(
      [addCluster(0, 'c', 'slow'), addHost(0, 'c', 'h', 'full'), changeCluster(2.2, 'c', 'fast'), changeCluster(3.5, 'c', 'slow')],
      { slow: [{ latencyMs: 200, bandwidthBps: 1000 }], fast: [{ latencyMs: 1000, bandwidthBps: 4000 }] },
      { full: [100] },
    );
    const run = runScripted(app, grid, [
      { op: 'store', file: 0, cluster: 'c' },
      { op: 'store', file: 1, cluster: 'c' },
      { op: 'compute', work: 0, host: 'h' },
      { op: 'retrieve', work: 0, host: 'h', cluster: 'c' },
    ]);
    expectSpans(run.spans, [
      ['input', 'link:c', 0, 0, 2.95],
      ['input', 'link:c', 1, 2.95, 8.95],
      ['compute', 'host:h', 0, 8.95, 9.95],
      ['output', 'link:c', 0, 9.95, 10.15], // latency 0.2 of 'slow', no bytes
    ]);
  });

  it('a link series with periodic bandwidth: bytes integrated across samples', () => {
    // Samples (10 ms, 1000 B/s), (10 ms, 3000 B/s), 5 s each. f0 7990 B from 0: latency to 0.01,
    // [0.01, 5) carries 4990 B, then 3000 B at 3000 B/s → 6.0.
    const app = makeApp([7990], [{ inputs: [0], outputs: [], runTimeS: [1] }]);
    const grid = makeGrid(
      [addCluster(0, 'c', 'wave'), addHost(0, 'c', 'h', 'full')],
      {
        wave: [
          { latencyMs: 10, bandwidthBps: 1000 },
          { latencyMs: 10, bandwidthBps: 3000 },
        ],
      },
      { full: [100] },
    );
    const run = runScripted(app, grid, [
      { op: 'store', file: 0, cluster: 'c' },
      { op: 'compute', work: 0, host: 'h' },
    ]);
    expect(run.spans[0]!.endS).toBeCloseTo(6, 9);
  });

  it('REMOVE_HOST mid-compute: the work fails there and is redone elsewhere', () => {
    // f0 1000 B → 1 s. w0 (10 s) on h1 from 1; h1 removed at 5 (4 s lost); redone on h2 5 → 15;
    // output 500 B → 15.5.
    const app = makeApp([1000, 500], [{ inputs: [0], outputs: [1], runTimeS: [10] }]);
    const grid = makeGrid(
      [addCluster(0, 'c', 'L'), addHost(0, 'c', 'h1', 'full'), addHost(0, 'c', 'h2', 'full'), removeHost(5, 'h1')],
      { L: [{ latencyMs: 0, bandwidthBps: 1000 }] },
      { full: [100] },
    );
    const run = runScripted(
      app,
      grid,
      [
        { op: 'store', file: 0, cluster: 'c' },
        { op: 'compute', work: 0, host: 'h1' },
      ],
      {
        onHostFailed: (s, host) => {
          expect(host).toBe('h1');
          s.add({ op: 'compute', work: 0, host: 'h2' });
          s.add({ op: 'retrieve', work: 0, host: 'h2', cluster: 'c' });
        },
      },
    );
    expectSpans(run.spans, [
      ['input', 'link:c', 0, 0, 1],
      ['compute', 'host:h1', 0, 1, 5, false],
      ['compute', 'host:h2', 0, 5, 15],
      ['output', 'link:c', 0, 15, 15.5],
    ]);
    const r = run.result;
    expect(r.failures).toBe(1);
    expect(r.reexecutions).toBe(1);
    expect(r.hosts.find((h) => h.id === 'h1')!.busyS).toBe(4);
    expect(run.events).toContainEqual({ type: 'work-failed', t: 5, work: 0, host: 'h1', reason: 'host-failed', final: false });
    expect(run.scheduler.calls).toContain('5 sched_host_failed ["h1"]');
    expect(run.scheduler.calls.filter((c) => c.includes('sched_work_done'))).toEqual(['15 sched_work_done {"works":[0],"hostId":"h2"}']);
    expect(checkRunRecord(run.events, app)).toEqual([]);
  });

  it('REMOVE_CLUSTER then ADD_CLUSTER: stored files come back, the transfer in flight is lost', () => {
    // f0 2000 B: 0 → 2. w0 (10 s) on h1: 2 → 12, but the cluster goes at 7 (also cutting f1, 10000 B,
    // in flight since 2). Cluster and host are back at 20: f0 is still stored, so w0 reruns 20 → 30 at
    // once while f1 is sent again 20 → 30; w1 (5 s) 30 → 35; outputs 1000 B each: w0 30 → 31, w1 35 → 36.
    const app = makeApp([2000, 10000, 1000, 1000], [
      { inputs: [0], outputs: [2], runTimeS: [10] },
      { inputs: [0, 1], outputs: [3], runTimeS: [5] },
    ]);
    const grid = makeGrid(
      [addCluster(0, 'c', 'L'), addHost(0, 'c', 'h1', 'full'), removeCluster(7, 'c'), addCluster(20, 'c', 'L'), addHost(20, 'c', 'h1', 'full')],
      { L: [{ latencyMs: 0, bandwidthBps: 1000 }] },
      { full: [100] },
    );
    const seen: { t: number; stored: number[] }[] = [];
    const run = runScripted(
      app,
      grid,
      [
        { op: 'store', file: 0, cluster: 'c' },
        { op: 'store', file: 1, cluster: 'c' },
        { op: 'compute', work: 0, host: 'h1' },
      ],
      {
        onDiskFailed: (s) => {
          seen.push({ t: s.deps.clock.nowS(), stored: [...s.deps.info.storedFiles('c')] });
          s.deps.clock.at(10, () => seen.push({ t: 10, stored: [...s.deps.info.storedFiles('c')] }));
        },
        onNewHost: (s) => {
          seen.push({ t: s.deps.clock.nowS(), stored: [...s.deps.info.storedFiles('c')] });
          if (s.deps.clock.nowS() === 20) {
            s.add({ op: 'store', file: 1, cluster: 'c' });
            s.add({ op: 'retrieve', work: 0, host: 'h1', cluster: 'c' });
            s.add({ op: 'retrieve', work: 1, host: 'h1', cluster: 'c' });
            s.add({ op: 'compute', work: 0, host: 'h1' });
            s.add({ op: 'compute', work: 1, host: 'h1' });
          }
        },
      },
    );
    expectSpans(run.spans, [
      ['input', 'link:c', 0, 0, 2],
      ['input', 'link:c', 1, 2, 7, false],
      ['compute', 'host:h1', 0, 2, 7, false],
      ['input', 'link:c', 1, 20, 30],
      ['compute', 'host:h1', 0, 20, 30],
      ['output', 'link:c', 0, 30, 31],
      ['compute', 'host:h1', 1, 30, 35],
      ['output', 'link:c', 1, 35, 36],
    ]);
    expect(seen).toEqual([
      { t: 0, stored: [] },
      { t: 7, stored: [] },
      { t: 10, stored: [] },
      { t: 20, stored: [0] },
    ]);
    expect(run.result.fileSends.slice(0, 2)).toEqual([1, 1]);
    expect(run.result.failures).toBe(1);
    expect(run.scheduler.calls).toContain('7 sched_disk_failed ["c"]');
    expect(run.result.makespanS).toBe(36);
    expect(checkRunRecord(run.events, app)).toEqual([]);
  });
});
