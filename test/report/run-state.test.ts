import { describe, expect, it } from 'vitest';
import type { RunRecordEvent } from '../../src/record/events.js';
import { RunState } from '../../src/report/run-state.js';
import { countSubtasks, syntheticRun } from '../fixtures/records/synthetic-run.js';

// A hand-made run: cluster A (link, hosts a1, a2), 3 works. a2 fails at 40 while computing work 1,
// which is re-executed on a1; a2 rejoins at 60. Work 2 fails for good.
const link = { type: 'link', cluster: 'A' } as const;
const a1 = { type: 'host', host: 'a1', cluster: 'A' } as const;
const a2 = { type: 'host', host: 'a2', cluster: 'A' } as const;
const hand: RunRecordEvent[] = [
  { type: 'header', t: 0, gridsweepVersion: '0.1.0', mode: 'sim', heuristic: 'hand', seed: 0, inputs: {}, options: {}, taskCount: 3 },
  { type: 'grid', t: 0, event: { kind: 'ADD_CLUSTER', timeS: 0, cluster: 'A', behavior: 'l', offset: 0 } },
  { type: 'grid', t: 0, event: { kind: 'ADD_HOST', timeS: 0, cluster: 'A', host: 'a1', behavior: 'h', offset: 0, arch: 0 } },
  { type: 'grid', t: 0, event: { kind: 'ADD_HOST', timeS: 0, cluster: 'A', host: 'a2', behavior: 'h', offset: 0, arch: 0 } },
  { type: 'start', t: 0, id: 0, kind: 'input', resource: link, file: 10, sizeBytes: 1000 },
  { type: 'end', t: 10, id: 0, ok: true },
  { type: 'start', t: 10, id: 1, kind: 'compute', resource: a1, work: 0 },
  { type: 'start', t: 10, id: 2, kind: 'compute', resource: a2, work: 1 },
  { type: 'end', t: 30, id: 1, ok: true },
  { type: 'start', t: 30, id: 3, kind: 'output', resource: link, work: 0, file: 20, sizeBytes: 500 },
  { type: 'end', t: 35, id: 3, ok: true },
  { type: 'work-done', t: 35, work: 0, host: 'a1' },
  { type: 'grid', t: 40, event: { kind: 'REMOVE_HOST', timeS: 40, host: 'a2' } },
  { type: 'end', t: 40, id: 2, ok: false },
  { type: 'work-failed', t: 40, work: 1, host: 'a2', reason: 'host failed', final: false },
  { type: 'start', t: 40, id: 4, kind: 'compute', resource: a1, work: 1 },
  { type: 'grid', t: 60, event: { kind: 'ADD_HOST', timeS: 60, cluster: 'A', host: 'a2', behavior: 'h', offset: 0, arch: 0 } },
  { type: 'start', t: 60, id: 5, kind: 'compute', resource: a2, work: 2 },
  { type: 'end', t: 70, id: 5, ok: false },
  { type: 'work-failed', t: 70, work: 2, host: 'a2', reason: 'exit 1', final: true },
  { type: 'end', t: 80, id: 4, ok: true },
  { type: 'start', t: 80, id: 6, kind: 'output', resource: link, work: 1, file: 21, sizeBytes: 250 },
  { type: 'end', t: 100, id: 6, ok: true },
  { type: 'work-done', t: 100, work: 1, host: 'a1' },
  { type: 'run-end', t: 100, makespanS: 100, worksDone: 2, worksFailed: 1 },
];

function stateAt(t: number): RunState {
  return RunState.from(hand.filter((e) => e.t <= t));
}

describe('run state reducer', () => {
  it('groups rows by cluster, link first, and counts bars per resource', () => {
    const s = RunState.from(hand);
    expect(s.resources.map((r) => r.label)).toEqual(['A link', 'a1', 'a2']);
    expect(s.resources.map((r) => r.bars.length)).toEqual([3, 2, 2]);
    expect(s.bars.find((b) => b.id === 4)!.attempt).toBe(2);
    expect(s.bars.find((b) => b.id === 6)!.attempt).toBe(2);
    expect(s.bars.find((b) => b.id === 2)!.ok).toBe(false);
  });

  it('counts tasks done, running, pending and failed as the run goes', () => {
    expect(stateAt(5).summary()).toMatchObject({ total: 3, done: 0, running: 0, pending: 3, failed: 0 });
    expect(stateAt(20).summary()).toMatchObject({ done: 0, running: 2, pending: 1 });
    expect(stateAt(35).summary()).toMatchObject({ done: 1, running: 1, pending: 1 });
    // Work 1 failed at 40 and was restarted at once: still running, one failure, one re-execution.
    expect(stateAt(40).summary()).toMatchObject({ done: 1, running: 1, pending: 1, failures: 1, reexecutions: 1 });
    expect(stateAt(70).summary()).toMatchObject({ done: 1, running: 1, pending: 0, failed: 1, failures: 2 });
    const end = RunState.from(hand).summary();
    expect(end).toMatchObject({ done: 2, running: 0, pending: 0, failed: 1, makespanS: 100, projectedFinishS: 100 });
  });

  it('projects the finish from the completion rate before the end', () => {
    // At t=50 one of three works has finished: 50 * 3 / 1.
    expect(stateAt(50).summary(50).projectedFinishS).toBe(150);
    expect(stateAt(20).summary().projectedFinishS).toBeNull();
  });

  it('sums bytes per link and utilization per cluster', () => {
    const c = RunState.from(hand).summary().clusters[0]!;
    expect(c.linkBytes).toBe(1750);
    // Link busy 10 + 5 + 20 = 35 of 100 s.
    expect(c.linkUtilization).toBeCloseTo(0.35, 10);
    // Hosts busy: a1 20 + 40 = 60, a2 30 + 10 = 40 → 100; up: a1 100, a2 40 + 40 = 80 → 180.
    expect(c.computeUtilization).toBeCloseTo(100 / 180, 10);
  });

  it('tracks host states: up, busy, failed, rejoined', () => {
    expect(stateAt(5).hostState('a1')).toBe('up');
    expect(stateAt(20).hostState('a2')).toBe('busy');
    expect(stateAt(45).hostState('a2')).toBe('failed');
    expect(stateAt(75).hostState('a2')).toBe('rejoined');
    expect(RunState.from(hand).hostDownSpans('a2')).toEqual([{ fromS: 40, toS: 60 }]);
  });

  it('counts a generated run consistently with its record', () => {
    const events = syntheticRun({ seed: 11, works: 300 });
    const s = RunState.from(events);
    const counts = countSubtasks(events);
    expect(s.bars.length).toBe(counts.all);
    expect(s.resources.reduce((n, r) => n + r.bars.length, 0)).toBe(counts.all);
    const sum = s.summary();
    expect(sum.done + sum.failed).toBe(300);
    expect(sum.hosts.find((h) => h.host === 'c1-h2')!.state).toBe('rejoined');
    expect(sum.reexecutions).toBeGreaterThan(0);
  });
});
