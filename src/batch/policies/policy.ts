// A batch policy: which waiting jobs start, and when. It sees what a real batch system sees (the jobs'
// requests and the running jobs' time limits), never the actual run times.
import type { BatchJob } from '../job.js';

/** A running job as a policy sees it: when its time limit ends and how many cores it holds. */
export interface RunningEnd {
  readonly expectedEndS: number;
  readonly cores: number;
}

/** The head job's reservation under EASY: when it will start at the latest, and a test for later jobs. */
export interface Reservation {
  /** The shadow time (Infinity when no running job's end makes room: nothing can delay the head job). */
  readonly startS: number;
  /**
   * Whether `job` (one that canStart now) may start now without delaying the head job past startS: it
   * ends by then, or it leaves room for the head job then. If so it is counted as started.
   */
  admit(job: BatchJob): boolean;
}

/**
 * The cluster, as offered to a policy during one dispatch. Whether a job can start is the cluster's
 * question (its machine and allocator answer it), not a count the policy makes: under contiguous
 * allocation a job may be unable to start although enough cores are free.
 */
export interface Machine {
  readonly nowS: number;
  readonly totalCores: number;
  /** Free cores now (start() lowers it). */
  freeCores(): number;
  /** Whether `job` can start now: enough free cores and, under contiguous allocation, a place for it. */
  canStart(job: BatchJob): boolean;
  /** EASY's reservation for `head`, from the running jobs' time limits. */
  reservation(head: BatchJob): Reservation;
  /** The running jobs, earliest expected end first (ties: the earlier started first). */
  runningEnds(): readonly RunningEnd[];
  /** Starts `job` now; canStart(job) must be true. */
  start(job: BatchJob): void;
  /** Records the latest time the policy promises `job` will start (EASY's head job; every job under conservative). */
  reserve(job: BatchJob, startS: number): void;
}

/** The waiting jobs of one cluster under one policy. */
export interface BatchQueue {
  readonly length: number;
  submit(job: BatchJob): void;
  /** The job the policy would start next (undefined when none waits). */
  peek(): BatchJob | undefined;
  /** Starts whichever waiting jobs the policy picks now. */
  dispatch(machine: Machine): void;
}

export interface BatchPolicy {
  readonly name: string;
  /** One line for --help and the README. */
  readonly help: string;
  /**
   * Whether it works under contiguous allocation, where a job may be unable to start although enough
   * cores are free: it must decide only through Machine.canStart and Machine.reservation.
   */
  readonly contiguous: boolean;
  createQueue(): BatchQueue;
}
