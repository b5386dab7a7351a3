// Scheduling events (Berman et al. 1999, §5.6.1): S1/S2/S3 intervals, Δ, and re-planning on resource changes.
import { describe, expect, it } from 'vitest';
import type { Application } from '../../../src/model/application.js';
import { DeltaController } from '../../../src/scheduler/strategies/delta.js';
import { IntervalController, type PlanEventsStrategy } from '../../../src/scheduler/strategies/plan-events.js';
import type { ReplanOn } from '../../../src/scheduler/options.js';
import { Harness, file, work } from '../support/harness.js';

const settings = (mode: PlanEventsStrategy) => ({ mode, initialS: 100, minS: 10, maxS: 400, threshold: 0.25 });

describe('IntervalController', () => {
  it('S1 keeps the interval whatever happens', () => {
    const c = new IntervalController(settings('constant'));
    c.predict(new Map([['a', [{ workId: 1, startS: 0, endS: 100 }]]]));
    expect(c.update(50, new Map())).toBe(100);
    expect(c.lastDeviation).toBeNull();
  });

  it('S2 grows slowly on a good prediction, shrinks fast on a bad one, within bounds', () => {
    const c = new IntervalController(settings('deviation'));
    expect(c.update(0, new Map())).toBe(100); // nothing predicted yet
    const plan = new Map([['a', [{ workId: 1, startS: 0, endS: 100 }, { workId: 2, startS: 100, endS: 200 }]]]);
    c.predict(plan);
    expect(c.update(150, new Map([['a', 2]]))).toBe(125);
    expect(c.lastDeviation).toBe(0);
    c.predict(plan);
    expect(c.update(150, new Map([['a', 1]]))).toBe(62.5);
    expect(c.lastDeviation).toBe(1);
    for (let k = 0; k < 5; k++) {
      c.predict(plan);
      c.update(150, new Map());
    }
    expect(c.currentS).toBe(10);
    // Hosts predicted idle do not count.
    c.predict(new Map([['a', []]]));
    expect(c.update(150, new Map())).toBe(10);
    expect(c.lastDeviation).toBeNull();
  });

  it('S3 weighs an always-wrong host less, so a stable majority lets the interval grow; S2 does not', () => {
    const run = (mode: PlanEventsStrategy) => {
      const c = new IntervalController(settings(mode));
      for (let k = 0; k < 8; k++) {
        c.predict(new Map(['a', 'b', 'c', 'd'].map((h) => [h, [{ workId: h.charCodeAt(0), startS: 0, endS: 100 }]])));
        // Hosts a, b, c compute what was planned; d never does.
        c.update(50, new Map(['a', 'b', 'c'].map((h) => [h, h.charCodeAt(0)])));
      }
      return c;
    };
    const s2 = run('deviation');
    const s3 = run('weighted-deviation');
    expect(s2.lastDeviation).toBe(0.25);
    expect(s3.lastDeviation!).toBeLessThan(0.05);
    expect(s3.reliabilityOf('d')).toBeLessThan(0.1);
    expect(s3.reliabilityOf('a')).toBe(1);
    expect(s3.currentS).toBeGreaterThan(100);
  });
});

describe('DeltaController', () => {
  it('constant, proportional, adaptive', () => {
    expect(new DeltaController({ mode: 'constant', deltaS: 70, fraction: 0.5 }).deltaS(200)).toBe(70);
    expect(new DeltaController({ mode: 'proportional', deltaS: 70, fraction: 0.5 }).deltaS(200)).toBe(100);
    const a = new DeltaController({ mode: 'adaptive', deltaS: 70, fraction: 0.5 });
    expect(a.deltaS(200)).toBe(70);
    a.observe(100, 110);
    a.observe(100, 70);
    expect(a.meanError()).toBeCloseTo(0.2);
    expect(a.deltaS(200)).toBeCloseTo(40);
    a.observe(10, 1000); // capped at 1
    expect(a.meanError()).toBeCloseTo((0.1 + 0.3 + 1) / 3);
  });
});

/** Ten Works of 10 s on one host, no inputs, empty outputs. */
function tenWorks(): Application {
  return {
    version: '1',
    files: Array.from({ length: 10 }, (_, k) => file(k, 0)),
    works: Array.from({ length: 10 }, (_, k) => work(k, [], [k], [10])),
  };
}
const hostA = { id: 'c1.a', clusterId: 'c1', arch: 0 };
const hostB = { id: 'c1.b', clusterId: 'c1', arch: 0 };

describe('S2 in the scheduler', () => {
  /** Runs to t = 25, finishing each computation on time (or never), and returns the second plan's interval. */
  function secondInterval(planEvents: PlanEventsStrategy, onTime: boolean): number {
    const h = new Harness(tenWorks(), { planEvents, planIntervalS: 25, minPlanIntervalS: 5, heuristic: 'minmin' });
    h.start([hostA]);
    if (onTime) {
      for (const t of [10, 20]) {
        h.complete(h.find((op) => op.kind === 'compute'), t);
        h.complete(h.find((op) => op.kind === 'retrieve'), t);
      }
    }
    h.clock.advanceTo(25);
    const plans = h.ofType('plan');
    expect(plans).toHaveLength(2);
    return plans[1]!.nextPlanS! - plans[1]!.t;
  }

  it('on schedule: the interval grows; behind schedule: it shrinks; S1: it stays', () => {
    expect(secondInterval('deviation', true)).toBe(31.25);
    expect(secondInterval('deviation', false)).toBe(12.5);
    expect(secondInterval('constant', false)).toBe(25);
  });

  it('the planning state reports the deviation and Δ', () => {
    const h = new Harness(tenWorks(), { planEvents: 'deviation', planIntervalS: 25, minPlanIntervalS: 5, deltaStrategy: 'proportional', deltaFraction: 0.4 });
    h.start([hostA]);
    h.clock.advanceTo(25);
    expect(h.scheduler.planningState()).toEqual({ intervalS: 12.5, deltaS: 5, lastDeviation: 1, meanEstimateError: undefined });
  });
});

describe('Δ in the scheduler', () => {
  it('a smaller Δ plans fewer Works ahead', () => {
    const planned = (deltaStrategy: 'constant' | 'proportional') => {
      const h = new Harness(tenWorks(), { deltaStrategy, deltaS: 300, deltaFraction: 0, planIntervalS: 25 });
      h.start([hostA]);
      return h.ofType('plan')[0]!.plannedWorks;
    };
    expect(planned('constant')).toBe(10);
    expect(planned('proportional')).toBe(4); // until a Work starts after t = 25: at 0, 10, 20, 30
  });

  it('adaptive: Δ follows the errors of finished computations', () => {
    const h = new Harness(tenWorks(), { deltaStrategy: 'adaptive', deltaS: 300, planIntervalS: 40 });
    h.start([hostA]);
    expect(h.scheduler.planningState().deltaS).toBe(300);
    h.complete(h.find((op) => op.kind === 'compute'), 15); // estimated 10 s, took 15 s: 50 % off
    h.complete(h.find((op) => op.kind === 'retrieve'), 15);
    h.clock.advanceTo(40);
    expect(h.scheduler.planningState().meanEstimateError).toBeCloseTo(0.5);
    expect(h.scheduler.planningState().deltaS).toBeCloseTo(20);
  });
});

describe('replanOn', () => {
  const all: ReplanOn[] = ['add', 'fail', 'both', 'never'];

  for (const replanOn of all) {
    const onAdd = replanOn === 'add' || replanOn === 'both';
    const onFail = replanOn === 'fail' || replanOn === 'both';

    it(`${replanOn}: a host joining at t = 10 is ${onAdd ? 'planned for at once' : 'left idle until the next event (t = 300)'}`, () => {
      const h = new Harness(tenWorks(), { replanOn, planIntervalS: 300, deltaS: 1000 });
      h.start([hostA]);
      h.clock.advanceTo(10);
      h.grid.addHost(hostB);
      h.scheduler.sched_new_host([hostB]);
      h.clock.advanceTo(10);
      expect(h.ofType('plan').map((p) => p.t)).toEqual(onAdd ? [0, 10] : [0]);
      expect(h.grid.log.some((l) => l.endsWith('c1.b'))).toBe(onAdd);
      h.clock.advanceTo(300);
      expect(h.grid.log.some((l) => l.endsWith('c1.b'))).toBe(true);
    });

    it(`${replanOn}: a host failing at t = 10 ${onFail ? 'triggers' : 'does not trigger'} a plan`, () => {
      const h = new Harness(tenWorks(), { replanOn, planIntervalS: 300, deltaS: 1000 });
      h.start([hostA, hostB]);
      h.clock.advanceTo(10);
      expect(h.scheduler.hostFifo('c1.a').length).toBeGreaterThan(0);
      h.grid.removeHost('c1.b');
      h.scheduler.sched_host_failed(['c1.b']);
      h.clock.advanceTo(10);
      expect(h.ofType('plan').map((p) => p.t)).toEqual(onFail ? [0, 10] : [0]);
      h.runToEnd();
    });
  }

  it('never: the first hosts of a run are still planned for (there is no scheduling event yet)', () => {
    const h = new Harness(tenWorks(), { replanOn: 'never' });
    h.start([hostA]);
    expect(h.ofType('plan')).toHaveLength(1);
    h.runToEnd();
  });
});
