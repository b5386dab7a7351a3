// Conservative backfilling (an availability profile kept between dispatches, only the jobs that could move
// re-placed) against the plain algorithm it replaces, kept here as the reference: at every dispatch, the
// profile rebuilt from the running jobs' limits and every reservation, then every waiting job in arrival
// order giving its reservation back and taking the earliest fit. Both must give the same starts and the
// same promises (the reference restates every promise at every dispatch; the policy reports a promise when
// it is made or moves, so the reference's are compared with the restatements left out).
import { describe, expect, it } from 'vitest';
import type { ScheduleObserver } from '../../src/batch/batch-cluster.js';
import type { BatchJob } from '../../src/batch/job.js';
import { getAllocator } from '../../src/batch/allocators/registry.js';
import { ArrivalOrderQueue } from '../../src/batch/policies/fcfs.js';
import type { BatchPolicy, Machine, RunningEnd } from '../../src/batch/policies/policy.js';
import { getBatchPolicy } from '../../src/batch/policies/registry.js';
import { ScheduleChecker } from '../../src/batch/schedule-checker.js';
import { simulateTrace } from '../../src/batch/trace-simulation.js';
import { generateWorkload, type WorkloadSpec } from '../../src/batch/workload-generator.js';
import { Rng } from '../../src/util/rng.js';

/** The reference's profile: steps rebuilt at every dispatch, linear searches. */
class PlainProfile {
  private readonly times: number[];
  private readonly free: number[];

  constructor(nowS: number, freeCores: number, running: readonly RunningEnd[]) {
    this.times = [nowS];
    this.free = [freeCores];
    for (const r of running) {
      const last = this.times.length - 1;
      const cores = this.free[last]! + r.cores;
      if (r.expectedEndS > this.times[last]!) {
        this.times.push(r.expectedEndS);
        this.free.push(cores);
      } else {
        this.free[last] = cores;
      }
    }
  }

  earliestFit(cores: number, durationS: number): number {
    let k = 0;
    while (k < this.times.length) {
      if (this.free[k]! < cores) {
        k++;
        continue;
      }
      const endS = this.times[k]! + durationS;
      let j = k + 1;
      while (j < this.times.length && this.times[j]! < endS && this.free[j]! >= cores) j++;
      if (j === this.times.length || this.times[j]! >= endS) return this.times[k]!;
      k = j + 1;
    }
    throw new Error('no fit');
  }

  reserve(startS: number, durationS: number, cores: number): void {
    const from = this.breakAt(startS);
    const to = durationS > 0 ? this.breakAt(startS + durationS) : from;
    for (let k = from; k < to; k++) this.free[k] = this.free[k]! - cores;
  }

  private breakAt(timeS: number): number {
    let k = this.times.length - 1;
    while (this.times[k]! > timeS) k--;
    if (this.times[k] === timeS) return k;
    this.times.splice(k + 1, 0, timeS);
    this.free.splice(k + 1, 0, this.free[k]!);
    return k + 1;
  }
}

class ReferenceQueue extends ArrivalOrderQueue {
  private readonly reservations = new Map<BatchJob, number>();

  override dispatch(machine: Machine): void {
    const profile = new PlainProfile(machine.nowS, machine.freeCores(), machine.runningEnds());
    for (const [job, startS] of this.reservations) profile.reserve(startS, job.requestedS, job.cores);
    for (let i = 0; i < this.waiting.length; ) {
      const job = this.waiting.at(i);
      const held = this.reservations.get(job);
      if (held !== undefined) profile.reserve(held, job.requestedS, -job.cores);
      const startS = profile.earliestFit(job.cores, job.requestedS);
      profile.reserve(startS, job.requestedS, job.cores);
      if (startS === machine.nowS) {
        this.reservations.delete(job);
        machine.start(job);
        this.waiting.removeAt(i);
      } else {
        this.reservations.set(job, startS);
        machine.reserve(job, startS);
        i++;
      }
    }
  }
}

const reference: BatchPolicy = { name: 'conservative', help: 'reference', contiguous: false, createQueue: () => new ReferenceQueue() };

/** Every start and every new or moved promise, in the order they happen, with the checker's findings. */
function events(jobs: readonly BatchJob[], policy: BatchPolicy, nodes: number, coresPerNode: number): { log: string[]; reserveCalls: number; violations: readonly string[] } {
  const log: string[] = [];
  let reserveCalls = 0;
  const promised = new Map<number, number>();
  const checker = new ScheduleChecker({ nodes, coresPerNode }, 'conservative');
  const observer: ScheduleObserver = {
    submitted: (job) => checker.submitted(job),
    started: (s) => {
      checker.started(s);
      promised.delete(s.job.id);
      log.push(`start ${s.job.id} ${s.startS}`);
    },
    ended: (s) => checker.ended(s),
    reserved: (job, startS, nowS) => {
      checker.reserved(job, startS);
      reserveCalls++;
      if (promised.get(job.id) === startS) return;
      promised.set(job.id, startS);
      log.push(`promise ${job.id} ${startS} at ${nowS}`);
    },
  };
  let i = 0;
  simulateTrace({ next: () => jobs[i++] }, { nodes, coresPerNode, policy, allocator: getAllocator('first-fit'), observer });
  return { log, reserveCalls, violations: checker.violations() };
}

/**
 * A generated workload with some jobs changed, drawn from `seed`: killed at their limit (requested below
 * the run time), zero run time (they end at once, before their limit), fractional times.
 */
function mutated(spec: WorkloadSpec, seed: number): BatchJob[] {
  const rng = new Rng(seed + 1000);
  return [...generateWorkload(spec, seed)].map((j) => {
    const u = rng.next();
    if (u < 0.1) return { ...j, requestedS: Math.max(1, Math.floor(j.runS / 2)) };
    if (u < 0.15) return { ...j, runS: 0 };
    if (u < 0.2) return { ...j, runS: j.runS + 0.25, requestedS: j.requestedS + 0.5 };
    return j;
  });
}

const CASES: { name: string; spec: WorkloadSpec; seed: number; mutate: boolean }[] = [
  { name: 'a busy cluster (load 0.95)', spec: { jobs: 1500, nodes: 16, coresPerNode: 4, load: 0.95 }, seed: 1, mutate: false },
  { name: 'requests rounded to the hour', spec: { jobs: 1500, nodes: 8, coresPerNode: 8, load: 0.9, requestRoundingS: 3600 }, seed: 2, mutate: false },
  { name: 'exact estimates half the time, overloaded', spec: { jobs: 1200, nodes: 32, coresPerNode: 1, load: 1.1, exactEstimateFraction: 0.5, overestimateMax: 2, requestRoundingS: 1 }, seed: 3, mutate: false },
  { name: 'killed, zero-length and fractional jobs', spec: { jobs: 1500, nodes: 10, coresPerNode: 2, load: 0.95, maxJobCores: 20, runTimeMedianS: 100, runTimeSigma: 0.8, requestRoundingS: 60 }, seed: 4, mutate: true },
  { name: 'killed, zero-length and fractional jobs, big jobs', spec: { jobs: 1500, nodes: 16, coresPerNode: 4, load: 0.9 }, seed: 5, mutate: true },
];

describe('conservative backfilling gives the reference schedule', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const jobs = c.mutate ? mutated(c.spec, c.seed) : [...generateWorkload(c.spec, c.seed)];
      const want = events(jobs, reference, c.spec.nodes, c.spec.coresPerNode);
      const got = events(jobs, getBatchPolicy('conservative'), c.spec.nodes, c.spec.coresPerNode);
      expect(got.log.length).toBeGreaterThan(jobs.length); // every job starts; many were promised first
      expect(got.log).toEqual(want.log);
      expect(got.violations).toEqual([]);
    });
  }
});

describe('conservative backfilling reports a promise when it is made or moves', () => {
  it('an early end moves the reservations behind it earlier, once each', () => {
    // One node of 4 cores; requested = run unless given.
    //   1: t0, 4 cores, runs 2 s of 10 requested.   2: t1, 4 cores, 5 s.   3: t1, 2 cores, 3 s.
    //   4: t1, 4 cores, 1 s.
    // t0: 1 starts (limit 10). t1: 2 reserved at 10 (no core free before), 3 at 15 (1 holds all 4 cores
    // until 10, 2 holds them 10..15), 4 at 18 (3 holds 2 cores 15..18).
    // t2: 1 ends early, its cores come back from 2 until 10: 2 fits at 2 and starts (limit 7); 3 then fits
    // at 7 (2 holds all 4 cores until 7); 4 at 10 (3 holds 2 cores 7..10).
    // t7: 2 ends at its limit, 3 starts; 4 keeps 10 (no promise restated). t10: 3 ends, 4 starts.
    // Five reserve calls: 2, 3, 4 at t1; 3 and 4 at t2.
    const jobs: BatchJob[] = [
      { id: 1, submitS: 0, cores: 4, runS: 2, requestedS: 10, userId: -1 },
      { id: 2, submitS: 1, cores: 4, runS: 5, requestedS: 5, userId: -1 },
      { id: 3, submitS: 1, cores: 2, runS: 3, requestedS: 3, userId: -1 },
      { id: 4, submitS: 1, cores: 4, runS: 1, requestedS: 1, userId: -1 },
    ];
    const { log, reserveCalls, violations } = events(jobs, getBatchPolicy('conservative'), 1, 4);
    expect(log).toEqual(['start 1 0', 'promise 2 10 at 1', 'promise 3 15 at 1', 'promise 4 18 at 1', 'start 2 2', 'promise 3 7 at 2', 'promise 4 10 at 2', 'start 3 7', 'start 4 10']);
    expect(reserveCalls).toBe(5);
    expect(violations).toEqual([]);
  });
});
