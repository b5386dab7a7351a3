// The batch policies against schedules computed by hand (the working is in the comments), each run under
// the schedule checker.
import { describe, expect, it } from 'vitest';
import { allObservers, type ScheduleObserver } from '../../src/batch/batch-cluster.js';
import type { BatchJob, StartedJob } from '../../src/batch/job.js';
import { getAllocator } from '../../src/batch/allocators/registry.js';
import { getBatchPolicy } from '../../src/batch/policies/registry.js';
import { ScheduleChecker } from '../../src/batch/schedule-checker.js';
import { simulateTrace } from '../../src/batch/trace-simulation.js';

function job(id: number, submitS: number, cores: number, runS: number, requestedS = runS): BatchJob {
  return { id, submitS, cores, runS, requestedS, userId: -1 };
}

function schedule(jobs: readonly BatchJob[], policy: string, nodes: number, coresPerNode: number): { starts: Record<number, number>; checker: ScheduleChecker; started: StartedJob[] } {
  const starts: Record<number, number> = {};
  const started: StartedJob[] = [];
  const recorder: ScheduleObserver = {
    started: (s) => {
      starts[s.job.id] = s.startS;
      started.push(s);
    },
  };
  const checker = new ScheduleChecker({ nodes, coresPerNode }, policy);
  let i = 0;
  simulateTrace({ next: () => jobs[i++] }, { nodes, coresPerNode, policy: getBatchPolicy(policy), allocator: getAllocator('first-fit'), observer: allObservers(recorder, checker) });
  return { starts, checker, started };
}

// One node of 4 cores.
//   1: t0, 2 cores, 10 s      2: t0, 4 cores, 5 s      3: t1, 2 cores, 3 s
//   4: t2, 2 cores, 20 s      5: t3, 1 core, 2 s       (requested = run)
const FIVE = [job(1, 0, 2, 10), job(2, 0, 4, 5), job(3, 1, 2, 3), job(4, 2, 2, 20), job(5, 3, 1, 2)];

describe('batch policies on five jobs, computed by hand', () => {
  it('fcfs: job 2 blocks everything behind it until job 1 ends', () => {
    // t0 1 starts, 2 needs 4 of 2 free; t10 2 starts; t15 3 and 4 start (0 free); t18 3 ends, 5 starts.
    const { starts, checker } = schedule(FIVE, 'fcfs', 1, 4);
    expect(starts).toEqual({ 1: 0, 2: 10, 3: 15, 4: 15, 5: 18 });
    expect(checker.violations()).toEqual([]);
  });

  it('sjf: shortest requested time first, the first job blocks', () => {
    // t0 order 2 (5 s), 1 (10 s): 2 takes all 4 cores. t5 queue 5 (2 s), 3 (3 s), 1 (10 s), 4 (20 s):
    // 5 and 3 start (1 free), 1 blocks. t7 5 ends: 1 starts. t8 3 ends: 4 starts.
    const { starts, checker } = schedule(FIVE, 'sjf', 1, 4);
    expect(starts).toEqual({ 2: 0, 5: 5, 3: 5, 1: 7, 4: 8 });
    expect(checker.violations()).toEqual([]);
  });

  it('ljf: longest requested time first', () => {
    // t0 1 starts, 2 blocks; t2 4 (20 s) jumps ahead and starts; t22 4 ends: 2 starts; t27 3 and 5.
    const { starts, checker } = schedule(FIVE, 'ljf', 1, 4);
    expect(starts).toEqual({ 1: 0, 4: 2, 2: 22, 3: 27, 5: 27 });
    expect(checker.violations()).toEqual([]);
  });

  it('easy: backfills job 3 and job 5 (they end before the head job\'s reservation), not job 4', () => {
    // Head job 2's reservation: t10 (job 1's limit), no spare cores then. t1 3 ends at 4 <= 10: starts.
    // t4 4 would end at 24 > 10 and no core is spare at 10: must wait; 5 ends at 6 <= 10: starts.
    // t10 2 starts; t15 4 starts.
    const { starts, checker } = schedule(FIVE, 'easy', 1, 4);
    expect(starts).toEqual({ 1: 0, 3: 1, 5: 4, 2: 10, 4: 15 });
    expect(checker.violations()).toEqual([]);
  });

  it('conservative: the same five jobs, each with a reservation', () => {
    // t1 3 fits [1,4) before 2's [10,15). t2 4 cannot fit anywhere before 15 (2 holds 10..15): reserved 15.
    // t3 5 fits [4,6): reserved 4, starts at 4.
    const { starts, checker } = schedule(FIVE, 'conservative', 1, 4);
    expect(starts).toEqual({ 1: 0, 3: 1, 5: 4, 2: 10, 4: 15 });
    expect(checker.violations()).toEqual([]);
  });
});

// Six cores. 1: t0, 4 cores, 10 s. 2: t0, 4 cores, 10 s (head: reserved at 10, 2 cores spare then).
// 3: t0, 5 cores, 10 s. 4: t1, 2 cores, 100 s.
const BACKFILL_DELAYS_SECOND = [job(1, 0, 4, 10), job(2, 0, 4, 10), job(3, 0, 5, 10), job(4, 1, 2, 100)];

describe('EASY protects only the head job; conservative protects every job', () => {
  it('easy backfills job 4 on the spare cores, which delays job 3 from 20 s to 101 s', () => {
    const { starts, checker } = schedule(BACKFILL_DELAYS_SECOND, 'easy', 1, 6);
    expect(starts).toEqual({ 1: 0, 4: 1, 2: 10, 3: 101 });
    expect(checker.violations()).toEqual([]);
  });

  it('conservative keeps job 3 at 20 s: job 4 waits until 30 s', () => {
    // At t1: 2 holds [10,20) (2 free), 3 holds [20,30) (1 free): 4 (2 cores, 100 s) fits only from 30.
    const { starts, checker } = schedule(BACKFILL_DELAYS_SECOND, 'conservative', 1, 6);
    expect(starts).toEqual({ 1: 0, 2: 10, 3: 20, 4: 30 });
    expect(checker.violations()).toEqual([]);
  });

  it('fcfs gives the same as conservative here', () => {
    expect(schedule(BACKFILL_DELAYS_SECOND, 'fcfs', 1, 6).starts).toEqual({ 1: 0, 2: 10, 3: 20, 4: 30 });
  });
});

// Ten cores. 1 and 2: t0, 3 cores, 100 s each (both expected to end at 100). 3: t0, 6 cores, 10 s — the
// head job: 4 free < 6. 4: t1, 2 cores, 1000 s.
const ENDS_TOGETHER = [job(1, 0, 3, 100), job(2, 0, 3, 100), job(3, 0, 6, 10), job(4, 1, 2, 1000)];

describe('EASY: every job expected to end at the shadow time frees its cores then', () => {
  it('counts both jobs ending at 100 s as freeing cores, so job 4 backfills at 1 s', () => {
    // Shadow time 100: job 1's 3 cores already make 7 >= 6, but job 2 ends then too, so 10 cores are
    // free at 100 and 4 are spare beyond job 3's 6. Job 4 (2 cores, ends at 1001 > 100) fits in the spare
    // 4 and starts at 1 s; job 3 still starts at 100 s (10 - 2 = 8 >= 6). Counting only job 1 leaves 1
    // spare core, and job 4 would wait until 100 s.
    const { starts, checker } = schedule(ENDS_TOGETHER, 'easy', 1, 10);
    expect(starts).toEqual({ 1: 0, 2: 0, 3: 100, 4: 1 });
    expect(checker.violations()).toEqual([]);
  });
});

describe('time limits and zero-length jobs', () => {
  it('kills a job at its requested time, and the policy may rely on that', () => {
    // 1 asks for 5 s but would run 50: killed at 5. 2 (4 cores) starts at 5.
    const { starts, started } = schedule([job(1, 0, 2, 50, 5), job(2, 0, 4, 5)], 'fcfs', 1, 4);
    expect(starts).toEqual({ 1: 0, 2: 5 });
    expect(started[0]).toMatchObject({ endS: 5, killed: true });
  });

  it('runs jobs that take no time, in order, at the same instant', () => {
    const { starts, checker } = schedule([job(1, 0, 4, 0, 1), job(2, 0, 4, 0, 1), job(3, 0, 4, 3)], 'fcfs', 1, 4);
    expect(starts).toEqual({ 1: 0, 2: 0, 3: 0 });
    expect(checker.violations()).toEqual([]);
  });
});

describe('the checker catches a broken schedule', () => {
  it('reports over-allocation, a start before submission, FCFS out of order and a broken promise', () => {
    const checker = new ScheduleChecker({ nodes: 1, coresPerNode: 4 }, 'fcfs');
    const a = job(1, 0, 3, 10);
    const b = job(2, 5, 3, 10);
    checker.submitted(a);
    checker.submitted(b);
    checker.reserved(b, 6);
    checker.started({ job: b, startS: 7, endS: 17, expectedEndS: 17, allocation: [0, 3], killed: false });
    checker.started({ job: a, startS: 0, endS: 10, expectedEndS: 10, allocation: [0, 3], killed: false });
    const v = checker.violations().join('\n');
    expect(v).toMatch(/job 2 started at 7 s, after the 6 s/);
    expect(v).toMatch(/FCFS started job 2 .* job 1 \(submitted earlier\)/);
    expect(v).toMatch(/node 0 over-allocated at 0 s: 6 of 4 cores/);
  });
});
