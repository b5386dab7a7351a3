// A sweep beside a gang-scheduled batch cluster (ADD_BATCH_CLUSTER … gang:MPL): its pilots share their
// cores with another user's job, and their hosts run at that share, as the information service reports.
// Makespans by hand, against the same cluster space-shared (0-byte files on an instant link: transfers
// take no time). The numbers are those of the two-pass model (test/experiment/timeshare-pilots.test.ts),
// which the fluid gang core reproduces: over whole slices both give each row half the cores.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSimulation } from '../../backends/sim/run-simulation.js';
import { simulate } from '../../backends/sim/simulate.js';
import { formatBatchSites } from '../../src/trace/format-trace.js';
import { GangCluster } from '../../src/batch/gang-cluster.js';
import { checkBatchRecord } from '../../src/batch/record-check.js';
import { checkRunRecord } from '../support/invariants.js';
import type { StartedJob } from '../../src/batch/job.js';
import { loadGrid } from '../../src/formats/index.js';
import type { Application } from '../../src/model/application.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const FIXTURES = join(PACKAGE_ROOT, 'test/fixtures/batch-grid');

/** `n` Works of `runS` seconds, each writing one empty output. */
function works(n: number, runS: number): Application {
  return {
    files: Array.from({ length: n }, (_, i) => ({ id: i, name: `out${i}`, sizeBytes: 0, estSizeBytes: 0 })),
    works: Array.from({ length: n }, (_, i) => ({ id: i, inputs: [], outputs: [i], runTimeS: [runS], estRunTimeS: [runS] })),
  } as unknown as Application;
}

/** Four one-core pilots of 400 s beside the other user's 4-core, 100 s job. */
function run(gridFile: string, n: number, heuristic = 'workqueue', strategy: 'pilots' | 'per-work' = 'pilots') {
  const { grid } = loadGrid(join(FIXTURES, gridFile));
  const events: RunRecordEvent[] = [];
  const result = simulate({
    app: works(n, 25),
    grid,
    scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic },
    seed: 1,
    submission: { strategy, pilots: 4, pilotCores: 1, pilotWalltimeS: 400 },
    record: (e) => events.push(e),
  });
  expect(result.finished).toBe(true);
  expect(checkRunRecord(events, works(n, 25))).toEqual([]);
  expect(checkBatchRecord(events)).toEqual([]);
  return { result, events };
}

describe('a sweep beside a gang-scheduled batch cluster', () => {
  it('8 Works: 100 s gang-scheduled against 150 s space-shared', () => {
    // Space: the job holds the 4 cores 0–100; the pilots start at 100 at full speed; 2 Works of 25 s per
    // core: 150. Gang (MPL 2): the job takes row 0, the four pilots row 1, all at 0; two rows in use, so
    // each pilot host runs at half speed: a Work of 25 s takes 50 s, two per core: 100.
    expect(run('wide-space.grid', 8).result.makespanS).toBe(150);
    const gang = run('wide-gang.grid', 8);
    expect(gang.result.makespanS).toBe(100);
    const added = gang.events.filter((e) => e.type === 'grid' && e.event.kind === 'ADD_HOST').map((e) => e.t);
    expect(added).toEqual([0, 0, 0, 0]);
    expect(gang.result.batch[0]).toMatchObject({ gangMpl: 2, pilotsStarted: 4, pilotMeanWaitS: 0 });
    expect(formatBatchSites(gang.result.batch)[2]).toContain('b: 1 nodes × 4 cores, fcfs, gang MPL 2, first-fit; pilots 4 started');
  });

  it('the same with heuristics that plan from the information service (xsufferage, minmin)', () => {
    for (const heuristic of ['xsufferage', 'minmin']) {
      expect(run('wide-space.grid', 8, heuristic).result.makespanS, heuristic).toBe(150);
      expect(run('wide-gang.grid', 8, heuristic).result.makespanS, heuristic).toBe(100);
    }
  });

  it("the information service reports a pilot host's share as its availability: 50 % beside the job, 100 % after", () => {
    // 24 Works under xsufferage, so that the scheduler plans on until 250; every time it reads pilot 1's
    // host, note the newest sample. Before 200 the job shares the cores: 0.5; from 200 on: 1.
    const { grid } = loadGrid(join(FIXTURES, 'wide-gang.grid'));
    const app = works(24, 25);
    const input = { app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'xsufferage' }, seed: 1, submission: { strategy: 'pilots' as const, pilots: 4, pilotCores: 1, pilotWalltimeS: 400 } };
    const seen: [number, number][] = [];
    const result = runSimulation(input, (deps) => {
      const info = deps.info;
      const spy = Object.create(info) as typeof info;
      spy.hostAvailability = (host, n) => {
        const samples = info.hostAvailability(host, n);
        if (host === 'b.pilot1.1' && samples.length > 0) seen.push([deps.clock.nowS(), samples.at(-1)!.value]);
        return samples;
      };
      return new Scheduler(app, input.scheduler, { ...deps, info: spy });
    });
    expect(result.makespanS).toBe(250);
    const before = seen.filter(([t]) => t < 200);
    const after = seen.filter(([t]) => t > 200);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(new Set(before.map(([, v]) => v))).toEqual(new Set([0.5]));
    expect(new Set(after.map(([, v]) => v))).toEqual(new Set([1]));
  });

  it('per-Work jobs: the same makespans; each job leaves its row when its Work is done', () => {
    // Gang: four one-core jobs join row 1 at 0 and compute at half speed: their Works end at 50, the jobs
    // end, four more start at once in row 1 (the job still holds row 0): 100. Space: 100 + 2 × 25 = 150.
    expect(run('wide-space.grid', 8, 'workqueue', 'per-work').result.makespanS).toBe(150);
    const gang = run('wide-gang.grid', 8, 'workqueue', 'per-work');
    expect(gang.result.makespanS).toBe(100);
    expect(gang.result.batch[0]).toMatchObject({ pilotsStarted: 8 });
  });

  it('24 Works: 250 s either way (time sharing moves capacity, it does not create it)', () => {
    // Space: 100 + 6 × 25 = 250. Gang: half speed until the job has had its 100 s of CPU, at 200; by then
    // each pilot core has done 100 s of Works (4 of them); the pilots alone in the rows, the last 2 Works
    // per core run at full speed: 250.
    expect(run('wide-space.grid', 24).result.makespanS).toBe(250);
    expect(run('wide-gang.grid', 24).result.makespanS).toBe(250);
  });
});

describe('GangCluster', () => {
  it('admits first come first served into the first row that fits; ends move as rows fill and empty', () => {
    // 4 cores, MPL 2. t0: A (4 cores, 100 s) takes row 0, P (1 core, 400 s) row 1; B (4 cores, 50 s) fits
    // no row and waits, and so does C (1 core, 10 s) behind it although row 1 has room (FCFS). Two rows in
    // use: half speed. A ends at 200 (100 s of CPU); P has had 100 s. At 200 B takes row 0, then C the first
    // row with a free core, row 1: two rows again. C ends at 220 (10 s at half speed), B at 300 (50 s); P has
    // 150 s by 300, then runs alone: 250 s more, it ends at 550. Time limits count the time a job runs: P,
    // asking for 400 s, is not killed at 400. Shares: 0.5 at 0; 1 then 0.5 at 200 (A ends, B comes in); 1
    // at 300. Utilization: 400 + 400 + 200 + 10 core-seconds over 4 cores × 550 s.
    const ended: StartedJob[] = [];
    const shares: number[] = [];
    const g = new GangCluster({ nodes: 1, coresPerNode: 4 }, 2, { ended: (s) => ended.push(s), shareChanged: (s) => shares.push(s) });
    const job = (id: number, cores: number, runS: number) => ({ id, submitS: 0, runS, requestedS: runS, cores, userId: 1 });
    g.advanceTo(0);
    g.submit(job(1, 4, 100));
    g.submit(job(-1, 1, 400));
    g.submit(job(2, 4, 50));
    g.submit(job(3, 1, 10));
    g.dispatch();
    expect([g.runningJobs, g.waitingJobs, g.share]).toEqual([2, 2, 0.5]);
    for (let t = g.nextEndS(); t < Infinity; t = g.nextEndS()) {
      g.advanceTo(t);
      g.endDueJobs();
      g.dispatch();
    }
    expect(ended.map((s) => [s.job.id, s.startS, s.endS, s.killed])).toEqual([
      [1, 0, 200, false],
      [3, 200, 220, false],
      [2, 200, 300, false],
      [-1, 0, 550, false],
    ]);
    expect(g.summary().utilization).toBeCloseTo((400 + 400 + 200 + 10) / (4 * 550), 12);
    expect(shares).toEqual([0.5, 1, 0.5, 1]);
  });
});


describe('GangCluster far from time 0', () => {
  it('ends every job although end times there are coarse (no sliver of progress left for ever)', () => {
    // Three rows from t = 1e8 (floating-point times 1.5e-8 s apart): jobs of 100, 7 and 1/3 s. Whatever the
    // rounding, each ends, in order, and the loop stops.
    const ended: number[] = [];
    const g = new GangCluster({ nodes: 1, coresPerNode: 1 }, 3, { ended: (s) => ended.push(s.job.id) });
    g.advanceTo(1e8);
    for (const [id, runS] of [[1, 100], [2, 7], [3, 1 / 3]] as const) g.submit({ id, submitS: 1e8, runS, requestedS: runS, cores: 1, userId: 1 });
    g.dispatch();
    let steps = 0;
    for (let t = g.nextEndS(); t < Infinity && steps < 100; t = g.nextEndS(), steps++) {
      g.advanceTo(t);
      g.endDueJobs();
      g.dispatch();
    }
    expect(ended).toEqual([3, 2, 1]);
    expect(steps).toBe(3);
  });
});
