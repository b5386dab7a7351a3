import { describe, expect, it } from 'vitest';
import { Playback, DEFAULT_PLAYBACK_WALL_S } from '../../src/dashboard/playback.js';
import { LiveRecordSource, teeSinks } from '../../src/dashboard/source.js';
import type { SourceUpdate } from '../../src/dashboard/protocol.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { RunState } from '../../src/report/run-state.js';
import { batchRunRecord } from '../fixtures/records/batch-run.js';
import { countSubtasks, syntheticRun } from '../fixtures/records/synthetic-run.js';

const fast = syntheticRun({ seed: 2, policy: 'min-completion' });
const slow = syntheticRun({ seed: 2, policy: 'round-robin' });
const endOf = (events: readonly RunRecordEvent[]) => events[events.length - 1]!.t;

function collect(updates: SourceUpdate[], into: { starts: number; ends: number }[]): void {
  for (const u of updates) {
    into[u.source]!.starts += u.starts.length;
    into[u.source]!.ends += u.ends.length;
  }
}

describe('playback on a shared virtual clock', () => {
  it('advances every run to the same simulated time and streams each event once', () => {
    const p = new Playback([{ name: 'a', events: fast }, { name: 'b', events: slow }], { speed: 100 });
    const seen = [{ starts: 0, ends: 0 }, { starts: 0, ends: 0 }];
    const r = p.tick(2)!;
    expect(p.timeS).toBe(200);
    collect(r.updates, seen);
    // After 2 wall seconds at 100 sim s/s, each run shows exactly its events up to t = 200.
    const upTo = (events: readonly RunRecordEvent[], t: number) => events.filter((e) => e.t <= t);
    expect(seen[0]!.starts).toBe(countSubtasks(upTo(fast, 200)).all);
    expect(seen[1]!.starts).toBe(countSubtasks(upTo(slow, 200)).all);
    while (!p.finished) {
      const u = p.tick(60);
      if (u) collect(u.updates, seen);
    }
    expect(p.timeS).toBe(Math.max(endOf(fast), endOf(slow)));
    expect(seen[0]!.starts).toBe(countSubtasks(fast).all);
    expect(seen[0]!.ends).toBe(countSubtasks(fast).all);
    expect(seen[1]!.starts).toBe(countSubtasks(slow).all);
    expect(p.tick(1)).toBeNull();
  });

  it('caps each run\'s figures at its own end while the clock goes on', () => {
    const p = new Playback([{ name: 'a', events: fast }, { name: 'b', events: slow }], { speed: 1e6 });
    const r = p.tick(1)!;
    expect(endOf(fast)).toBeLessThan(endOf(slow));
    expect(r.updates[0]!.summary.timeS).toBe(endOf(fast));
    expect(r.updates[0]!.summary.done + r.updates[0]!.summary.failed).toBe(200);
    expect(r.updates[1]!.summary.timeS).toBe(endOf(slow));
  });

  it('plays the longest run in about 20 wall seconds by default', () => {
    const p = new Playback([{ name: 'a', events: fast }, { name: 'b', events: slow }]);
    expect(p.speed).toBeCloseTo(Math.max(endOf(fast), endOf(slow)) / DEFAULT_PLAYBACK_WALL_S, 9);
  });

  it('does not move while paused; step moves to the next event time of any run', () => {
    const p = new Playback([{ name: 'a', events: fast }, { name: 'b', events: slow }], { speed: 100, paused: true });
    // Paused at 0, a tick shows the state at time 0 and then nothing moves.
    const first = p.tick(5)!;
    expect(first.events).toBe([fast, slow].reduce((n, ev) => n + ev.filter((e) => e.t === 0).length, 0));
    expect(p.tick(5)).toBeNull();
    expect(p.timeS).toBe(0);
    const s2 = p.step();
    const next = Math.min(...[fast, slow].map((ev) => ev.find((e) => e.t > 0)!.t));
    expect(p.timeS).toBe(next);
    expect(s2.events).toBe([fast, slow].reduce((n, ev) => n + ev.filter((e) => e.t === next).length, 0));
    expect(p.paused).toBe(true);
  });

  it('restart replays from time 0 with a new generation', () => {
    const p = new Playback([{ name: 'a', events: fast }], { speed: 1e6 });
    p.tick(1);
    const g = p.generation;
    p.restart();
    expect(p.generation).toBe(g + 1);
    expect(p.timeS).toBe(0);
    expect(p.snapshots()[0]!.starts).toHaveLength(0);
  });

  it('shows a live run as its events arrive, whatever the clock', () => {
    const live = new LiveRecordSource('real run');
    const file: RunRecordEvent[] = [];
    const sink = teeSinks(live.sink, (e) => file.push(e));
    const p = new Playback([live], { paused: true });
    for (const e of fast.slice(0, 100)) sink(e);
    const r = p.tick(0.05)!;
    expect(r.events).toBe(100);
    expect(file).toHaveLength(100);
    expect(r.updates[0]!.starts.length).toBe(countSubtasks(fast.slice(0, 100)).all);
    expect(p.finished).toBe(false);
    for (const e of fast.slice(100)) sink(e);
    live.end();
    p.tick(0.05);
    expect(p.finished).toBe(true);
    expect(p.snapshots()[0]!.summary.makespanS).toBe(endOf(fast));
  });
});

describe('a batch cluster on the dashboard', () => {
  const events = batchRunRecord();

  it('streams each batch cluster once and its levels as they change, ending where the record ends', () => {
    const p = new Playback([{ name: 'batch', events }], { speed: 200 });
    const clusters: string[] = [];
    /** The levels as a page keeps them: one at the same time as the last replaces it. */
    const levels: number[][] = [];
    let ticks = 0;
    while (!p.finished) {
      const r = p.tick(1);
      ticks++;
      for (const u of r?.updates ?? []) {
        clusters.push(...u.batchClusters.map((c) => `${c.cluster}:${c.cores}`));
        for (const l of u.batchLevels) {
          if (levels.at(-1)?.[1] === l[1]) levels.pop();
          levels.push(l);
        }
      }
    }
    expect(ticks).toBeGreaterThan(5);
    expect(clusters).toEqual(['b:16']);
    // The same as a page joining at the end gets, and as the report's timeline.
    const snapshot = p.snapshots()[0]!;
    expect(snapshot.batchClusters).toEqual([{ cluster: 'b', cores: 16 }]);
    expect(levels).toEqual(snapshot.batchLevels);
    const timeline = RunState.from(events).batch.clusters[0]!.timeline;
    expect(levels.map((l) => [l[1], l[2] + l[3], l[4] + l[5], l[3], l[5]])).toEqual(timeline.map((q) => [q.t, q.busyCores, q.waiting, q.pilotBusyCores, q.pilotsWaiting]));
    // Other users' jobs and the sweep's pilots both held cores and both waited.
    expect(Math.max(...levels.map((l) => l[2]))).toBeGreaterThan(0);
    expect(Math.max(...levels.map((l) => l[3]))).toBe(8);
    expect(Math.max(...levels.map((l) => l[5]))).toBe(2);
    expect(Math.max(...levels.map((l) => l[4]))).toBeGreaterThan(0);
    for (const l of levels) expect(l[2] + l[3]).toBeLessThanOrEqual(16);
  });
});
