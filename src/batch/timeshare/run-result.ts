// What a time-sharing simulation returns and whom it tells as it goes: shared by the general engine and the
// rigid-job gang fast path, so that neither imports the other's types.
import type { SegmentSink, ExecutionProfile } from './node.js';
import type { Task } from './task.js';

/** Told of what the engine does, for the schedule checker and traces. */
export interface TimeshareObserver extends SegmentSink {
  placed?(task: Task, atS: number): void;
  left?(task: Task, atS: number): void;
  /** Gang: from atS every node runs (only) tasks of `row`; -1 when the matrix is empty. */
  rowActive?(row: number, atS: number): void;
  delivered?(task: Task, iteration: number, atS: number): void;
}

export interface JobOutcome {
  readonly id: number;
  readonly submitS: number;
  readonly startS: number;
  readonly endS: number;
  readonly tasks: number;
  /** Compute the job had to do, summed over its tasks and iterations. */
  readonly workS: number;
  readonly jobClass?: string;
}

export interface TimeshareRun {
  readonly jobs: JobOutcome[];
  /** One per node, over [0, makespanS]. */
  readonly profiles: ExecutionProfile[];
  readonly makespanS: number;
  readonly events: number;
  readonly messages: number;
  /** Σ free MPL slots × time over the stretches in which some job waited (loss of capacity's numerator). */
  readonly idleSlotWhileWaitingS: number;
  /** Scheduling skewness: how many waits found a sender descheduled, and the total time until it was scheduled. */
  readonly skewedWaits: number;
  readonly skewTotalS: number;
}

/** How a run is carried out (not what is simulated: results do not depend on these). */
export interface SimulationOptions {
  /**
   * Gang scheduling of rigid jobs only, without alternate scheduling, context-switch cost or observer:
   * simulate per job rather than per node (same results; see rigid-gang.ts). false: always per node.
   */
  readonly rigidFastPath?: boolean;
  /** Ends the run with an error after this many events (default: no limit other than the stall guard's). */
  readonly maxEvents?: number;
  /** Ends the run with an error after this many events in a row in which no task changed phase (default 20,000,000). */
  readonly maxEventsWithoutProgress?: number;
}

/** The outcome of a finished job. */
export function jobOutcome(r: { job: { id: number; submitS: number; tasks: number; iterations: number; computeS: readonly number[]; jobClass?: string }; startS: number; endS: number }): JobOutcome {
  return {
    id: r.job.id,
    submitS: r.job.submitS,
    startS: r.startS,
    endS: r.endS,
    tasks: r.job.tasks,
    workS: r.job.iterations * r.job.computeS.reduce((a, b) => a + b, 0),
    ...(r.job.jobClass === undefined ? {} : { jobClass: r.job.jobClass }),
  };
}
