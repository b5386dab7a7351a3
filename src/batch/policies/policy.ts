// A batch policy: which waiting jobs start, and when. It sees what a real batch system sees (the jobs'
// requests and the running jobs' time limits), never the actual run times.
import type { BatchJob } from '../job.js';

/** A running job as a policy sees it: when its time limit ends and how many cores it holds. */
export interface RunningEnd {
  readonly expectedEndS: number;
  readonly cores: number;
}

/** The cluster, as offered to a policy during one dispatch. */
export interface Machine {
  readonly nowS: number;
  readonly totalCores: number;
  /** Free cores now (start() lowers it). */
  freeCores(): number;
  /** The running jobs, earliest expected end first (ties: the earlier started first). */
  runningEnds(): readonly RunningEnd[];
  /** Starts `job` now; it must fit in freeCores(). */
  start(job: BatchJob): void;
  /** Records the latest time the policy promises `job` will start (EASY's head job; every job under conservative). */
  reserve(job: BatchJob, startS: number): void;
}

/** The waiting jobs of one cluster under one policy. */
export interface BatchQueue {
  readonly length: number;
  submit(job: BatchJob): void;
  /** Starts whichever waiting jobs the policy picks now. */
  dispatch(machine: Machine): void;
}

export interface BatchPolicy {
  readonly name: string;
  /** One line for --help and the README. */
  readonly help: string;
  createQueue(): BatchQueue;
}
