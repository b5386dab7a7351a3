// Self-scheduling without a chart (strategies/self-scheduling.ts) and plans that cost what they place:
// the work queue hands a freed host the next Work without do_plan() ('direct'), or asks for a plan ('plan',
// the original behaviour); the plan's placement bound gives the same chart as the full list of Works.
import { describe, expect, it } from 'vitest';
import { LastValueForecaster } from '../../src/forecast/last-value.js';
import type { Application } from '../../src/model/application.js';
import { Estimator } from '../../src/scheduler/estimates.js';
import { getHeuristic } from '../../src/scheduler/heuristics/registry.js';
import { makePlan, PLACEMENT_BOUNDS } from '../../src/scheduler/planner.js';
import { LinkQueue, WaitingHead, type HostState, type WorkState } from '../../src/scheduler/state.js';
import { Rng } from '../../src/util/rng.js';
import { FakeGrid } from './support/fake-grid.js';
import { Harness, file, work } from './support/harness.js';

const host = (id: string, clusterId: string) => ({ id, clusterId, arch: 0 });

/** Five Works; Works 2–4 share file 0 (usage 3), each has a private input; outputs 10–14. */
function sweep(): Application {
  const files = Array.from({ length: 15 }, (_, k) => file(k, 100));
  const works = [work(0, [5], [10], [50]), work(1, [6], [11], [50]), work(2, [7, 0], [12], [50]), work(3, [0, 8], [13], [50]), work(4, [0, 9], [14], [50])];
  return { version: '1', files, works };
}

function runFirstTwo(h: Harness): void {
  h.start([host('c1.a', 'c1'), host('c1.b', 'c1')]);
  h.complete(h.find((op) => op.kind === 'store'), 1);
  h.complete(h.find((op) => op.kind === 'store'), 2);
  expect(h.grid.log.filter((l) => l.startsWith('compute'))).toEqual(['compute 0 c1.a', 'compute 1 c1.b']);
}

describe('work queue, direct self-scheduling (the default)', () => {
  it('gives a freed host the next Work by id without a plan, its shared file first', () => {
    const h = new Harness(sweep(), { heuristic: 'workqueue', planIntervalS: 1000 });
    runFirstTwo(h);
    expect(h.ofType('plan')).toHaveLength(1);
    h.complete(h.find((op) => op.kind === 'compute' && op.workId === 0), 60);
    // No new plan: Work 2 goes to c1.a. The output of Work 0 was queued first (when it was computed); then
    // file 0 (usage 3) goes before Work 2's private file 7.
    expect(h.ofType('plan')).toHaveLength(1);
    expect(h.scheduler.hostFifo('c1.a')).toEqual([2]);
    expect(h.grid.log.at(-1)).toBe('retrieve 0 c1.a');
    h.complete(h.find((op) => op.kind === 'retrieve'), 61);
    expect(h.grid.log.at(-1)).toBe('store 0 c1');
    h.complete(h.find((op) => op.kind === 'store'), 62);
    expect(h.grid.log.at(-1)).toBe('store 7 c1');
    h.complete(h.find((op) => op.kind === 'store'), 63);
    expect(h.grid.log.at(-1)).toBe('compute 2 c1.a');
    h.runToEnd();
    expect(h.scheduler.stats.worksDone).toBe(5);
    expect(h.grid.log.filter((l) => l === 'store 0 c1')).toHaveLength(1);
    expect(h.ofType('plan').length).toBeLessThan(3);
  });

  it("'plan' keeps the original behaviour: a freed host asks do_plan() for work", () => {
    const h = new Harness(sweep(), { heuristic: 'workqueue', planIntervalS: 1000, selfScheduling: 'plan' });
    runFirstTwo(h);
    h.complete(h.find((op) => op.kind === 'compute' && op.workId === 0), 60);
    expect(h.ofType('plan')).toHaveLength(2);
    expect(h.scheduler.hostFifo('c1.a')).toEqual([2]);
    h.runToEnd();
    expect(h.scheduler.stats.worksDone).toBe(5);
  });

  it('leaves hosts to the plan due at this instant, and to plans under a reduced task space', () => {
    const direct = new Harness(sweep(), { heuristic: 'workqueue' });
    direct.start([host('c1.a', 'c1')]);
    expect(direct.ofType('plan')).toHaveLength(1); // the host addition's plan placed Work 0, not do_schedule()
    expect(direct.ofType('plan')[0]!.plannedWorks).toBe(1);
    direct.runToEnd();
    expect(direct.ofType('plan')).toHaveLength(1);
    const reduced = new Harness(sweep(), { heuristic: 'workqueue', taskSpace: 'random', taskSpaceSize: 2 });
    reduced.start([host('c1.a', 'c1')]);
    reduced.runToEnd();
    expect(reduced.ofType('plan')).toHaveLength(5); // one per Work: the freed host asks for a plan each time
  });

  it('refuses an unknown mode', () => {
    expect(() => new Harness(sweep(), { heuristic: 'workqueue', selfScheduling: 'eager' as 'plan' })).toThrow(/selfScheduling "eager"/);
  });
});

describe("the work queue's placement bound", () => {
  it('gives exactly the chart the full list of Works gives', () => {
    const app: Application = {
      version: '1',
      files: Array.from({ length: 40 }, (_, k) => file(k, 1000 + 10 * k)),
      works: Array.from({ length: 20 }, (_, k) => work(k, [k % 3, 3 + k], [23 + (k % 17)], [100 + k])),
    };
    const grid = new FakeGrid();
    const hostStates: HostState[] = ['c1.a', 'c1.b', 'c1.c', 'c2.a', 'c2.b'].map((id) => {
      const info = grid.addHost(host(id, id.slice(0, 2)));
      return { info, up: true, fifo: [], running: null, starved: false, awaitingPlan: false, waiting: new WaitingHead() };
    });
    // c1.b computes Work 0; c2.a keeps Work 1 queued: three hosts are idle.
    hostStates[1]!.running = { workId: 0, startS: 0, estEndS: 100 };
    hostStates[3]!.fifo = [1];
    const works = new Map<number, WorkState>(
      app.works.map((spec) => [spec.id, { spec, status: spec.id === 0 ? 'running' : spec.id === 1 ? 'queued' : 'todo', host: null, executions: 0, exitFailures: 0 }]),
    );
    const plan = (heuristic = getHeuristic('workqueue')) =>
      makePlan({
        nowS: 0,
        horizonS: 300,
        files: app.files,
        works,
        hosts: hostStates,
        clusters: ['c1', 'c2'].map((id) => ({ id, up: true, queue: new LinkQueue(), busy: null, worksVersion: 0, nothingToSend: { queue: -1, works: -1 }, stored: new Set([0]) })),
        clusterOfHost: (id) => id.slice(0, 2),
        estimator: new Estimator(grid, new LastValueForecaster()),
        heuristic,
        rng: new Rng(1),
        randomTolerance: 0,
      });
    const bounded = plan();
    const unbounded = plan({ ...getHeuristic('workqueue'), name: 'workqueue-without-bound' });
    expect(PLACEMENT_BOUNDS['workqueue-without-bound']).toBeUndefined();
    expect(bounded.chart.assignments).toEqual(unbounded.chart.assignments);
    expect([...bounded.added.links]).toEqual([...unbounded.added.links]);
    expect(bounded.plannedWorks).toBe(3);
    expect(bounded.consideredWorks).toBe(18); // the record still counts every todo Work
  });
});
