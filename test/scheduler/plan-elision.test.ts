// A periodic scheduling event with no Work to do and none queued runs no plan (scheduler.ts, header): the
// timer is set again one interval later, S2/S3 still observe and predict as an empty plan would, and a host
// that joined without a re-plan stops waiting at that event.
import { describe, expect, it } from 'vitest';
import type { Application } from '../../src/model/application.js';
import { Harness, file, work } from './support/harness.js';

/** Works of the given estimated run times on arch 0, no inputs, one empty output each. */
function works(...runTimesS: number[]): Application {
  return { version: '1', files: runTimesS.map((_, k) => file(k, 0)), works: runTimesS.map((s, k) => work(k, [], [k], [s])) };
}
const hostA = { id: 'c1.a', clusterId: 'c1', arch: 0 };
const hostB = { id: 'c1.b', clusterId: 'c1', arch: 0 };

describe('periodic plans with nothing to plan', () => {
  it('S1: one long Work running, nothing else to do: one plan, and the timer still ticks every interval', () => {
    const h = new Harness(works(1000), { planIntervalS: 100, heuristic: 'minmin' });
    h.start([hostA]);
    expect(h.ofType('plan').map((p) => p.t)).toEqual([0]);
    // Events at 100, 200, …, 900 find Work 0 running and nothing todo or queued: skipped, each re-arming.
    h.clock.advanceTo(950);
    expect(h.ofType('plan')).toHaveLength(1);
    expect(h.clock.pendingTimes()).toEqual([1000]);
    h.complete(h.find((op) => op.kind === 'compute'), 1000);
    h.complete(h.find((op) => op.kind === 'retrieve'), 1000);
    expect(h.scheduler.isFinished()).toBe(true);
    expect(h.scheduler.stats.planCalls).toBe(1);
  });

  it('a Work still to do: the event plans', () => {
    // One host, Works of 1000 s: the plan at 0 fills the chart to 0 + 100 + Δ (300) = 400, so Work 1
    // (which would start at 1000) stays todo, and the event at 100 must plan.
    const h = new Harness(works(1000, 1000), { planIntervalS: 100, heuristic: 'minmin' });
    h.start([hostA]);
    h.clock.advanceTo(100);
    expect(h.ofType('plan').map((p) => p.t)).toEqual([0, 100]);
  });

  it('S2: a skipped event adapts the interval as the empty plan did', () => {
    // The plan at 0 predicts Work 0 on host a over [0, 1000); every later event sees it running (a hit,
    // deviation 0), so the interval grows by 1.25 each time: 100 → 125 → 156.25 → 195.3125 → 244.140625,
    // the events falling at 100, 225, 381.25, 576.5625 and the next at 820.703125 (all exact in binary).
    const h = new Harness(works(1000), { planIntervalS: 100, planEvents: 'deviation', minPlanIntervalS: 10, maxPlanIntervalS: 400, heuristic: 'minmin' });
    h.start([hostA]);
    h.clock.advanceTo(800);
    expect(h.ofType('plan')).toHaveLength(1);
    expect(h.clock.pendingTimes()).toEqual([820.703125]);
    expect(h.scheduler.planningState().intervalS).toBe(244.140625);
    expect(h.scheduler.planningState().lastDeviation).toBe(0);
  });

  it('replan-on never: a host that joined waits for the next event, even a skipped one', () => {
    // Works 1 (10 s) and 0 (1000 s) on host a: minmin runs 1 then 0. At 10 Work 1 is computed, its output
    // goes on the link (held until 260 here) and Work 0 starts: nothing todo or queued from then on.
    // Host b joins at 150 while the timer is set, so it waits for the event at 200, which is skipped.
    // At 250 a fails (no re-plan: Work 0 is todo again) and do_schedule finds b idle and no longer waiting:
    // it asks for a plan at once, and Work 0 starts on b at 250, not at 300 (nor at 260, the next event,
    // as it did when a failure ran no do_schedule).
    const h = new Harness(works(1000, 10), { planIntervalS: 100, replanOn: 'never', heuristic: 'minmin' });
    h.start([hostA]);
    h.complete(h.find((op) => op.kind === 'compute' && op.workId === 1), 10);
    const output = h.find((op) => op.kind === 'retrieve');
    h.clock.advanceTo(150);
    h.grid.addHost(hostB);
    h.scheduler.sched_new_host([hostB]);
    h.clock.advanceTo(250);
    h.grid.removeHost(hostA.id);
    h.scheduler.sched_host_failed([hostA.id]);
    h.complete(output, 260);
    expect(h.grid.active.filter((op) => op.kind === 'compute')).toEqual([expect.objectContaining({ workId: 0, hostId: hostB.id })]);
    expect(h.ofType('plan').map((p) => p.t)).toEqual([0, 250]);
  });
});
