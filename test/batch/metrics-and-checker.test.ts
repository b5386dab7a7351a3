// Job metrics against hand-computed values, and every policy × allocator under the schedule checker on
// generated workloads.
import { describe, expect, it } from 'vitest';
import { BatchCluster } from '../../src/batch/batch-cluster.js';
import type { BatchJob } from '../../src/batch/job.js';
import { getAllocator, listAllocators } from '../../src/batch/allocators/registry.js';
import { getBatchPolicy, listBatchPolicies } from '../../src/batch/policies/registry.js';
import { ScheduleChecker } from '../../src/batch/schedule-checker.js';
import { simulateTrace } from '../../src/batch/trace-simulation.js';
import { generateWorkload } from '../../src/batch/workload-generator.js';

const job = (id: number, submitS: number, cores: number, runS: number): BatchJob => ({ id, submitS, cores, runS, requestedS: runS, userId: -1 });

describe('job metrics, computed by hand', () => {
  it('counts a job still running when the summary is taken (a sweep ends before its batch cluster empties)', () => {
    // One 4-core node: job 1 (4 cores) runs 0–100; job 2 (2 cores, 1000 s) starts at 100. At 200:
    // 4 × 100 + 2 × 100 = 600 core-seconds of 4 × 200: 75 %. Counting only ended jobs over their span
    // would say 400 of 4 × 100: 100 %.
    const cluster = new BatchCluster({ nodes: 1, coresPerNode: 4 }, getBatchPolicy('fcfs'), getAllocator('first-fit'));
    for (const [t, j] of [[0, job(1, 0, 4, 100)], [0, job(2, 0, 2, 1000)]] as const) {
      cluster.advanceTo(t);
      cluster.submit(j);
    }
    cluster.dispatch();
    cluster.advanceTo(100);
    cluster.endDueJobs();
    cluster.dispatch();
    cluster.advanceTo(200);
    const m = cluster.summary();
    expect(m.jobs).toBe(1);
    expect(m.spanS).toBe(200);
    expect(m.utilization).toBeCloseTo(0.75, 12);
  });

  it('five jobs under FCFS on one 4-core node', () => {
    // Starts 0, 10, 15, 15, 18; ends 10, 15, 18, 35, 20 (see hand-schedules.test.ts).
    const jobs = [job(1, 0, 2, 10), job(2, 0, 4, 5), job(3, 1, 2, 3), job(4, 2, 2, 20), job(5, 3, 1, 2)];
    let i = 0;
    const { metrics: m } = simulateTrace({ next: () => jobs[i++] }, { nodes: 1, coresPerNode: 4, policy: getBatchPolicy('fcfs'), allocator: getAllocator('first-fit') });
    expect(m.spanS).toBe(35);
    // waits 0, 10, 14, 13, 15
    expect(m.waitS).toMatchObject({ count: 5, mean: 10.4, median: 13, min: 0, max: 15 });
    // responses 10, 15, 17, 33, 17
    expect(m.responseS.mean).toBeCloseTo(18.4, 12);
    // slowdowns 1, 3, 17/3, 1.65, 8.5
    expect(m.slowdown.mean).toBeCloseTo((1 + 3 + 17 / 3 + 1.65 + 8.5) / 5, 12);
    // bounded (10 s): 1, 1.5, 1.7, 1.65, 1.7
    expect(m.boundedSlowdown.mean).toBeCloseTo(1.51, 12);
    // 88 core-seconds of 4 × 35
    expect(m.utilization).toBeCloseTo(88 / 140, 12);
    // 2 free cores while jobs waited during [0, 10): 20 core-seconds
    expect(m.lossOfCapacity).toBeCloseTo(20 / 140, 12);
    // Σ waiting jobs × time = Σ waits = 52 (Little's law)
    expect(m.queueLength.timeMean).toBeCloseTo(52 / 35, 12);
    expect(m.queueLength.max).toBe(4);
    expect(m.throughputJobsPerHour).toBeCloseTo((5 * 3600) / 35, 9);
  });
});

describe('every policy and allocator keeps the invariants on generated workloads', () => {
  for (const policy of listBatchPolicies()) {
    for (const allocator of listAllocators()) {
      it(`${policy.name} with ${allocator.name}: 3 seeds × 1,500 jobs, no violation`, () => {
        for (const seed of [1, 2, 3]) {
          const shape = { nodes: 6, coresPerNode: 4 };
          const checker = new ScheduleChecker(shape, policy.name);
          const jobs = generateWorkload({ jobs: 1500, ...shape, load: 0.9, maxJobCores: 16, exactEstimateFraction: 0.3 }, seed);
          const { metrics } = simulateTrace({ next: () => jobs.next().value ?? undefined }, { ...shape, policy, allocator, observer: checker });
          expect(metrics.jobs).toBe(1500);
          expect(checker.violations()).toEqual([]);
        }
      });
    }
  }

  it('backfilling beats FCFS on a loaded cluster (mean bounded slowdown), as AccaSim reports', () => {
    const run = (name: string): number => {
      const jobs = generateWorkload({ jobs: 3000, nodes: 8, coresPerNode: 4, load: 0.9 }, 11);
      return simulateTrace({ next: () => jobs.next().value ?? undefined }, { nodes: 8, coresPerNode: 4, policy: getBatchPolicy(name), allocator: getAllocator('first-fit') }).metrics.boundedSlowdown.mean;
    };
    const fcfs = run('fcfs');
    expect(run('easy')).toBeLessThan(fcfs);
    expect(run('conservative')).toBeLessThan(fcfs);
  });
});
