// Completion estimates of running sub-tasks (Berman et al. 1999, §5.2.1): trust, overdue, progress.
import { describe, expect, it } from 'vitest';
import { LastValueForecaster } from '../../../src/forecast/last-value.js';
import type { Sample } from '../../../src/interfaces/information.js';
import { Estimator } from '../../../src/scheduler/estimates.js';
import { getHeuristic } from '../../../src/scheduler/heuristics/registry.js';
import { makePlan } from '../../../src/scheduler/planner.js';
import { LinkQueue, WaitingHead, type HostState, type WorkState } from '../../../src/scheduler/state.js';
import { expectedEndS, integrateSamples, type RunningEstimate } from '../../../src/scheduler/strategies/running-estimate.js';
import { Rng } from '../../../src/util/rng.js';
import { FakeGrid } from '../support/fake-grid.js';
import { file, work } from '../support/harness.js';

describe('integrateSamples', () => {
  const s: Sample[] = [
    { timeS: 0, value: 0.5 },
    { timeS: 10, value: 1 },
    { timeS: 20, value: 0.25 },
  ];
  it('is the area under the step function', () => {
    expect(integrateSamples(s, 0, 30)).toBe(5 + 10 + 2.5);
    expect(integrateSamples(s, 5, 15)).toBe(2.5 + 5);
    // Before the first sample the first value holds; after the last, the last.
    expect(integrateSamples(s, -10, 0)).toBe(5);
    expect(integrateSamples(s, 20, 40)).toBe(5);
    expect(integrateSamples(s, 7, 7)).toBe(0);
  });
});

describe('expectedEndS', () => {
  const running = { startS: 0, estEndS: 100, estAmount: 100 };
  const rule = (mode: RunningEstimate) => ({ mode, overdueGraceS: 5 });
  const progress = { doneAmount: 30, rate: 0.5 };
  it('trust keeps the estimate, even when past', () => {
    expect(expectedEndS(rule('trust'), running, 40, () => progress)).toBe(100);
    expect(expectedEndS(rule('trust'), running, 150, () => progress)).toBe(100);
  });
  it('overdue: the estimate, then now + grace', () => {
    expect(expectedEndS(rule('overdue'), running, 40, () => progress)).toBe(100);
    expect(expectedEndS(rule('overdue'), running, 150, () => progress)).toBe(155);
  });
  it('progress: remaining work over the predicted rate; overdue rule once the estimated work is used up', () => {
    expect(expectedEndS(rule('progress'), running, 40, () => progress)).toBe(40 + 70 / 0.5);
    expect(expectedEndS(rule('progress'), running, 40, () => ({ doneAmount: 120, rate: 1 }))).toBe(45);
    // No measurement: the overdue rule.
    expect(expectedEndS(rule('progress'), running, 40, () => undefined)).toBe(100);
  });
});

/** Availability 1 until t = 20, then 0.5; sampled every 5 s (a long history, so the window must grow). */
class DippingGrid extends FakeGrid {
  now = 0;
  override hostAvailability(_h: string, maxSamples: number): readonly Sample[] {
    const all: Sample[] = [];
    for (let t = -1000; t <= this.now; t += 5) all.push({ timeS: t, value: t < 20 ? 1 : 0.5 });
    return all.slice(Math.max(0, all.length - maxSamples));
  }
}

describe('progress measured from port (3)', () => {
  it('hostProgress integrates the availability since the start, reading back far enough', () => {
    const grid = new DippingGrid();
    grid.now = 40;
    const p = new Estimator(grid, new LastValueForecaster()).hostProgress('h', -500, 40)!;
    expect(p.doneAmount).toBe(520 + 10);
    expect(p.rate).toBe(0.5);
  });

  for (const [mode, endS] of [['trust', 100], ['overdue', 100], ['progress', 40 + (100 - 30) / 0.5]] as const) {
    it(`${mode}: the running computation holds its host until ${endS} in the plan`, () => {
      const grid = new DippingGrid();
      grid.now = 40;
      const app = { files: [file(0, 10), file(1, 10)], works: [work(0, [], [0], [100]), work(1, [], [1], [10])] };
      const works = new Map<number, WorkState>([
        [0, { spec: app.works[0]!, status: 'running', host: 'c1.a', executions: 1, exitFailures: 0 }],
        [1, { spec: app.works[1]!, status: 'todo', host: null, executions: 0, exitFailures: 0 }],
      ]);
      const host: HostState = {
        info: { id: 'c1.a', clusterId: 'c1', arch: 0 },
        up: true,
        fifo: [],
        running: { workId: 0, startS: 0, estEndS: 100, estAmount: 100 },
        starved: false,
        awaitingPlan: false,
        waiting: new WaitingHead(),
      };
      const estimator = new Estimator(grid, new LastValueForecaster());
      const plan = makePlan({
        nowS: 40,
        horizonS: 1000,
        files: app.files,
        works,
        hosts: [host],
        clusters: [{ id: 'c1', up: true, queue: new LinkQueue(), busy: null, worksVersion: 0, nothingToSend: { queue: -1, works: -1 }, stored: new Set() }],
        clusterOfHost: () => 'c1',
        estimator,
        heuristic: getHeuristic('minmin'),
        rng: new Rng(1),
        randomTolerance: 0,
        runningEndS: (r, on) =>
          expectedEndS({ mode, overdueGraceS: 5 }, r, 40, () => (on.kind === 'host' ? estimator.hostProgress(on.hostId, r.startS, 40) : undefined)),
      });
      // Work 1 waits for the running Work: it starts when the running estimate says the host is free.
      expect(plan.chart.assignments.find((a) => a.workId === 1)!.startS).toBe(endS);
      expect(plan.slots.get('c1.a')![0]).toEqual({ workId: 0, startS: 0, endS });
    });
  }
});
