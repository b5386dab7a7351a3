// The engine's parts and rules: queue order, exact integration, tie order, FIFO violations, the
// information service's view of the past only, and grid validation.
import { describe, expect, it } from 'vitest';
import { EventKind, EventQueue } from '../../backends/sim/event-queue.js';
import { Attachment, RateSeries } from '../../backends/sim/rate-series.js';
import { SimEngine } from '../../backends/sim/engine.js';
import { SimInformation } from '../../backends/sim/sim-information.js';
import type { SchedulerEvents } from '../../src/interfaces/scheduler-events.js';
import type { Sample } from '../../src/interfaces/information.js';
import { InputError } from '../../src/util/diagnostics.js';
import { Rng } from '../../src/util/rng.js';
import { addCluster, addHost, changeHost, makeApp, makeGrid, removeHost } from './support/build.js';
import { runScripted } from './support/harness.js';

const quietScheduler = (overrides: Partial<SchedulerEvents> = {}): SchedulerEvents => ({
  sched_new_host: () => {},
  sched_new_work: () => {},
  sched_work_done: () => {},
  sched_host_failed: () => {},
  sched_work_failed: () => {},
  sched_disk_failed: () => {},
  sched_fileTransfer_done: () => {},
  ...overrides,
});

describe('EventQueue', () => {
  it('pops by time, then kind, then insertion order', () => {
    const rng = new Rng(7);
    const q = new EventQueue<number>();
    const pushed: { t: number; k: number; seq: number }[] = [];
    for (let i = 0; i < 5000; i++) {
      const t = rng.int(50); // many ties
      const k = rng.int(5) as EventKind;
      pushed.push({ t, k, seq: q.push(t, k, i) });
    }
    const expected = [...pushed].sort((a, b) => a.t - b.t || a.k - b.k || a.seq - b.seq).map((e) => e.seq);
    const popped: number[] = [];
    while (q.size > 0) {
      popped.push(q.peekSeq());
      q.pop();
    }
    expect(popped).toEqual(expected);
  });

  it('interleaving pushes and pops, pops what a sorted list of the pending events says is first', () => {
    // The reference: the pending events in an array, the least (time, kind, seq) taken by a scan.
    const rng = new Rng(11);
    const q = new EventQueue<number>();
    const pending: { t: number; k: number; seq: number; item: number }[] = [];
    let nowS = 0;
    let pops = 0;
    for (let step = 0; step < 24000; step++) {
      if (pending.length === 0 || rng.next() < 0.52) {
        // Times at or after the last pop, with many ties; runs of pushes grow the heap to hundreds.
        const t = nowS + (rng.next() < 0.3 ? 0 : rng.int(40) * 0.5);
        const k = rng.int(5) as EventKind;
        pending.push({ t, k, seq: q.push(t, k, step), item: step });
      } else {
        let m = 0;
        for (let j = 1; j < pending.length; j++) {
          const a = pending[j]!;
          const b = pending[m]!;
          if (a.t - b.t || a.k - b.k || a.seq - b.seq ? (a.t - b.t || a.k - b.k || a.seq - b.seq) < 0 : false) m = j;
        }
        const want = pending.splice(m, 1)[0]!;
        expect([q.peekTime(), q.peekKind(), q.peekSeq(), q.peekItem()]).toEqual([want.t, want.k, want.seq, want.item]);
        q.pop();
        nowS = want.t;
        pops++;
      }
      expect(q.size).toBe(pending.length);
    }
    expect(pops).toBeGreaterThan(9000);
  });
});

describe('RateSeries integration', () => {
  /** Brute force: walk the series segment by segment. */
  function slowFinish(rates: number[], periodS: number, startS: number, offset: number, fromS: number, amount: number): number {
    let t = fromS;
    let k = Math.floor((t - startS) / periodS);
    for (let guard = 0; guard < 1e6; guard++) {
      const rate = rates[(offset + k) % rates.length]!;
      const segEnd = startS + (k + 1) * periodS;
      const can = rate * (segEnd - t);
      if (rate > 0 && can >= amount) return t + amount / rate;
      amount -= can;
      t = segEnd;
      k++;
    }
    return Infinity;
  }

  it('finds the same end time as walking every segment, on random series', () => {
    const rng = new Rng(3);
    for (let trial = 0; trial < 500; trial++) {
      const n = 1 + rng.int(8);
      const rates = Array.from({ length: n }, () => (rng.next() < 0.3 ? 0 : rng.uniform(0.1, 3)));
      if (!rates.some((r) => r !== 0)) rates[0] = 1;
      const periodS = [1, 2.5, 5][rng.int(3)]!;
      const startS = rng.uniform(0, 50);
      const offset = rng.int(20);
      const fromS = startS + rng.uniform(0, 40);
      const amount = rng.uniform(0, 200);
      const att = new Attachment(new RateSeries(Float64Array.from(rates), periodS), startS, offset);
      const fast = att.finishTime(fromS, amount);
      expect(fast).toBeCloseTo(slowFinish(rates, periodS, startS, offset, fromS, amount), 6);
      expect(att.integral(fromS, fast)).toBeCloseTo(amount, 6);
    }
  });

  it('ends inside a cycle, not at its boundary, when the last samples are zero', () => {
    // Rates 1, 0 (period 5): 10 units from 0 → 5 in [0,5), none in [5,10), 5 in [10,15) → t = 15, not 20.
    const att = new Attachment(new RateSeries(Float64Array.from([1, 0]), 5), 0, 0);
    expect(att.finishTime(0, 10)).toBe(15);
  });

  it('never finishes on an all-zero series, and costs no time walking it', () => {
    const att = new Attachment(new RateSeries(new Float64Array(100000), 5), 0, 0);
    expect(att.finishTime(0, 1)).toBe(Infinity);
    expect(att.finishTime(0, 0)).toBe(0);
  });

  it('skips whole cycles in closed form (a million-second task on a 3-sample series)', () => {
    const att = new Attachment(new RateSeries(Float64Array.from([1, 0.5, 0.5]), 5), 0, 0);
    // One cycle (15 s) does 10 work-s: 1e6 work-s = 1e5 cycles, ending at the end of the last busy sample.
    expect(att.finishTime(0, 1e6)).toBeCloseTo(1.5e6, 6);
  });
});

describe('SimEngine rules', () => {
  const oneHost = (extra: Parameters<typeof makeGrid>[0] = []) =>
    makeGrid([addCluster(0, 'c', 'L'), addHost(0, 'c', 'h', 'full'), ...extra], { L: [{ latencyMs: 0, bandwidthBps: 1000 }] }, { full: [100], half: [50] });

  it('a completion and a failure at the same time: the completion counts (completions before failures)', () => {
    const app = makeApp([1000], [{ inputs: [], outputs: [0], runTimeS: [10] }]);
    const run = runScripted(app, oneHost([removeHost(10, 'h')]), [
      { op: 'compute', work: 0, host: 'h' },
      { op: 'retrieve', work: 0, host: 'h', cluster: 'c' },
    ]);
    expect(run.result.finished).toBe(true);
    expect(run.result.failures).toBe(0);
    const order = run.scheduler.calls.filter((c) => c.startsWith('10 '));
    expect(order[0]).toContain('sched_work_done');
    expect(order[1]).toContain('sched_host_failed');
  });

  it('a host added at t is in the topology a timer set for t sees (additions before timers)', () => {
    const app = makeApp([], [{ inputs: [], outputs: [], runTimeS: [1] }]);
    const grid = makeGrid([addCluster(0, 'c', 'L'), addHost(5, 'c', 'late', 'full')], { L: [{ latencyMs: 0, bandwidthBps: 1 }] }, { full: [100] });
    const engine = new SimEngine({ app, grid });
    const seen: string[][] = [];
    engine.clock.at(5, () => seen.push(engine.info.topology().hosts.map((h) => h.id)));
    engine.run(quietScheduler());
    expect(seen).toEqual([['late']]);
  });

  it('announces hosts added at the same time in one sched_new_host call', () => {
    const app = makeApp([], [{ inputs: [], outputs: [], runTimeS: [1] }]);
    const grid = makeGrid(
      [addCluster(0, 'a', 'L'), addHost(0, 'a', 'h1', 'full'), addCluster(0, 'b', 'L'), addHost(0, 'b', 'h2', 'full'), addHost(3, 'b', 'h3', 'full')],
      { L: [{ latencyMs: 0, bandwidthBps: 1 }] },
      { full: [100] },
    );
    const calls: string[][] = [];
    new SimEngine({ app, grid }).run(quietScheduler({ sched_new_host: (hs) => calls.push(hs.map((h) => `${h.id}@${h.clusterId}/${h.arch}`)) }));
    expect(calls).toEqual([['h1@a/0', 'h2@b/0'], ['h3@b/0']]);
  });

  it('throws naming the violation when the scheduler breaks the FIFO discipline', () => {
    const app = makeApp([1000, 1000], [{ inputs: [0, 1], outputs: [], runTimeS: [1] }]);
    const twoStores = new SimEngine({ app, grid: oneHost() });
    expect(() =>
      twoStores.run(
        quietScheduler({
          sched_new_host: () => {
            twoStores.gridOS.store(0, 'c');
            twoStores.gridOS.store(1, 'c');
          },
        }),
      ),
    ).toThrow(/FIFO violation: the link of cluster 'c' is busy at t=0 with the input transfer of file 0/);

    const early = new SimEngine({ app, grid: oneHost() });
    expect(() => early.run(quietScheduler({ sched_new_host: () => early.gridOS.compute(0, 'h') }))).toThrow(
      /work 0 on host 'h' needs file 0, which is not in cluster 'c' storage/,
    );

    const free = makeApp([], [{ inputs: [], outputs: [], runTimeS: [1] }, { inputs: [], outputs: [], runTimeS: [1] }]);
    const twoComputes = new SimEngine({ app: free, grid: oneHost() });
    expect(() =>
      twoComputes.run(
        quietScheduler({
          sched_new_host: () => {
            twoComputes.gridOS.compute(0, 'h');
            twoComputes.gridOS.compute(1, 'h');
          },
        }),
      ),
    ).toThrow(/FIFO violation: host 'h' is busy at t=0 with the computation of work 0/);

    const noOutputs = new SimEngine({ app: free, grid: oneHost() });
    expect(() => noOutputs.run(quietScheduler({ sched_new_host: () => noOutputs.gridOS.retrieve(0, 'h') }))).toThrow(
      /outputs of work 0 are not in cluster 'c' storage/,
    );
  });

  it('remove deletes a stored copy, or stops a copy still on its way', () => {
    const app = makeApp([1000, 1000], [{ inputs: [0], outputs: [], runTimeS: [1] }]);
    const engine = new SimEngine({ app, grid: oneHost() });
    const seen: string[] = [];
    let cap0 = '';
    engine.clock.at(0.5, () => engine.gridOS.remove(cap0)); // f0 is half sent: stopped, never stored
    engine.clock.at(1, () => {
      seen.push(`t=1 stored [${[...engine.info.storedFiles('c')]}]`);
      const cap1 = engine.gridOS.store(1, 'c');
      engine.clock.at(3, () => {
        seen.push(`t=3 stored [${[...engine.info.storedFiles('c')]}]`);
        engine.gridOS.remove(cap1);
        seen.push(`after remove [${[...engine.info.storedFiles('c')]}]`);
      });
    });
    const outcome = engine.run(quietScheduler({ sched_new_host: () => void (cap0 = engine.gridOS.store(0, 'c')) }));
    expect(seen).toEqual(['t=1 stored []', 't=3 stored [1]', 'after remove []']);
    expect(outcome.fileSends).toEqual([0, 1]);
    expect(() => engine.gridOS.remove('7@c')).toThrow(/unknown capability '7@c'/);
  });

  it('cancel stops a computation without a completion', () => {
    const app = makeApp([], [{ inputs: [], outputs: [], runTimeS: [10] }]);
    const engine = new SimEngine({ app, grid: oneHost() });
    const done: number[] = [];
    engine.clock.at(4, () => engine.gridOS.cancel(0, 'h'));
    const outcome = engine.run(
      quietScheduler({ sched_new_host: () => engine.gridOS.compute(0, 'h'), sched_work_done: (ws) => done.push(...ws) }),
    );
    expect(done).toEqual([]);
    expect(outcome.finished).toBe(false);
    expect(outcome.hosts[0]!.busyS).toBe(4);
  });
});

describe('information service', () => {
  it('reports measurements at sample times up to now, never later', () => {
    const app = makeApp([], [{ inputs: [], outputs: [], runTimeS: [1000] }]);
    const grid = makeGrid(
      [addCluster(0, 'c', 'wave', 1), addHost(0, 'c', 'h', 'steps'), changeHost(20, 'h', 'flat'), removeHost(31, 'h')],
      {
        wave: [
          { latencyMs: 10, bandwidthBps: 100 },
          { latencyMs: 20, bandwidthBps: 200 },
        ],
      },
      { steps: [10, 20, 30, 40], flat: [70] },
    );
    const engine = new SimEngine({ app, grid });
    const at: Record<number, { avail: readonly Sample[]; bw: readonly Sample[]; lat: readonly Sample[] }> = {};
    for (const t of [0, 12, 15, 27.5, 40])
      engine.clock.at(t, () => {
        at[t] = { avail: engine.info.hostAvailability('h', 100), bw: engine.info.linkBandwidthBps('c', 3), lat: engine.info.linkLatencyMs('c', 100) };
      });
    engine.run(quietScheduler({ sched_new_host: () => engine.gridOS.compute(0, 'h') }));
    const pairs = (s: readonly Sample[]) => s.map((x) => [x.timeS, x.value]);
    expect(pairs(at[0]!.avail)).toEqual([[0, 0.1]]);
    expect(pairs(at[12]!.avail)).toEqual([[0, 0.1], [5, 0.2], [10, 0.3]]);
    expect(pairs(at[15]!.avail)).toEqual([[0, 0.1], [5, 0.2], [10, 0.3], [15, 0.4]]);
    // Changed at 20 to a flat 70 %: samples of the new series from 20 on.
    expect(pairs(at[27.5]!.avail)).toEqual([[0, 0.1], [5, 0.2], [10, 0.3], [15, 0.4], [20, 0.7], [25, 0.7]]);
    // Removed at 31: no measurements after that.
    expect(pairs(at[40]!.avail)).toEqual([[0, 0.1], [5, 0.2], [10, 0.3], [15, 0.4], [20, 0.7], [25, 0.7], [30, 0.7]]);
    // Link offset 1: sample 1 (200 B/s, 20 ms) in force from 0; at most 3 samples, the latest.
    expect(pairs(at[12]!.bw)).toEqual([[0, 200], [5, 100], [10, 200]]);
    expect(pairs(at[12]!.lat)).toEqual([[0, 20], [5, 10], [10, 20]]);
    for (const t of [0, 12, 15, 27.5, 40]) for (const s of [...at[t]!.avail, ...at[t]!.bw]) expect(s.timeS).toBeLessThanOrEqual(t);
  });

  it('answers the same when asked often, for hosts attached alike, as when asked once', () => {
    const app = makeApp([], [{ inputs: [], outputs: [], runTimeS: [1000] }]);
    const grid = makeGrid(
      [
        addCluster(0, 'c', 'wave', 1),
        addHost(0, 'c', 'h', 'steps', 2),
        addHost(0, 'c', 'twin', 'steps', 2),
        changeHost(61, 'h', 'steps', 1),
        removeHost(140, 'h'),
      ],
      { wave: [{ latencyMs: 10, bandwidthBps: 100 }, { latencyMs: 20, bandwidthBps: 200 }, { latencyMs: 30, bandwidthBps: 300 }] },
      { steps: [10, 20, 30, 40, 50, 60, 70] },
    );
    const pairs = (s: readonly Sample[]) => JSON.stringify(s.map((x) => [x.timeS, x.value]));
    for (const n of [1, 4, 9, 40]) {
      const engine = new SimEngine({ app, grid });
      const mismatches: string[] = [];
      for (let t = 0; t <= 160; t += 2.5)
        engine.clock.at(t, () => {
          const once = new SimInformation(engine);
          for (const host of ['h', 'twin'])
            if (pairs(engine.info.hostAvailability(host, n)) !== pairs(once.hostAvailability(host, n))) mismatches.push(`availability of ${host} at ${t}`);
          if (pairs(engine.info.linkBandwidthBps('c', n)) !== pairs(once.linkBandwidthBps('c', n))) mismatches.push(`bandwidth at ${t}`);
          if (pairs(engine.info.linkLatencyMs('c', n)) !== pairs(once.linkLatencyMs('c', n))) mismatches.push(`latency at ${t}`);
          expect(engine.info.hostAvailability('h', n)).toBe(engine.info.hostAvailability('h', n)); // asked again: the same answer
        });
      engine.run(quietScheduler({ sched_new_host: () => engine.gridOS.compute(0, 'h') }));
      expect(mismatches, `at most ${n} samples`).toEqual([]);
    }
  });
});

describe('grid validation', () => {
  const app = makeApp([], [{ inputs: [], outputs: [], runTimeS: [1, 2] }]);
  it('rejects a host added to a cluster that is not up, naming the line', () => {
    const bad = { ...addHost(0, 'nowhere', 'h', 'full'), pos: { file: 'g.grid', line: 3, column: 1 } };
    const grid = makeGrid([addCluster(0, 'c', 'L'), bad], { L: [{ latencyMs: 0, bandwidthBps: 1 }] }, { full: [100] });
    expect(() => new SimEngine({ app, grid })).toThrow(InputError);
    expect(() => new SimEngine({ app, grid })).toThrow(/g\.grid:3:1: error: host 'h' is added to cluster 'nowhere', which is not up/);
  });

  it('rejects an architecture the application has no run time for, and unknown behaviours', () => {
    const grid = makeGrid([addCluster(0, 'c', 'nope'), addHost(0, 'c', 'h', 'full', 0, 2)], { L: [{ latencyMs: 0, bandwidthBps: 1 }] }, { full: [100] });
    expect(() => new SimEngine({ app, grid })).toThrow(/no link behaviour named 'nope'[\s\S]*architecture 2, but the application gives run times for 2/);
  });
});
