// A job submitted to a batch-managed cluster: what its submitter asked for and what it really does.
// A policy sees only the request (cores, requestedS); the simulator uses runS, the actual run time.
import type { AllocationQuality } from './machines/allocation-quality.js';

export interface BatchJob {
  /** The job's number (SWF field 1), unique within a workload. */
  readonly id: number;
  /** Seconds from the workload's start (SWF field 2). */
  readonly submitS: number;
  /** The time the job really runs if given all it asked for (SWF field 4). */
  readonly runS: number;
  /** Cores it asks for (SWF field 8, or field 5 when 8 is unknown). */
  readonly cores: number;
  /** The time limit it asks for (SWF field 9, or its run time when 9 is unknown). */
  readonly requestedS: number;
  /** SWF field 12, -1 when unknown; kept for reports and the writer. */
  readonly userId: number;
}

/** A job that started: where it runs, when, and when it will end. */
export interface StartedJob {
  readonly job: BatchJob;
  readonly startS: number;
  /** start + min(run time, requested time): a job that reaches its time limit is killed there. */
  readonly endS: number;
  /** start + requested time: what the policy may assume. */
  readonly expectedEndS: number;
  /** Node index and cores taken on it, as pairs: [node, cores, node, cores, …]. */
  readonly allocation: readonly number[];
  readonly killed: boolean;
  /** On a mesh or torus: how good the allocation is. */
  readonly quality?: AllocationQuality;
}

export function startJob(job: BatchJob, startS: number, allocation: readonly number[], quality?: AllocationQuality): StartedJob {
  const killed = job.runS > job.requestedS;
  return {
    job,
    startS,
    endS: startS + Math.min(job.runS, job.requestedS),
    expectedEndS: startS + job.requestedS,
    allocation,
    killed,
    ...(quality === undefined ? {} : { quality }),
  };
}
