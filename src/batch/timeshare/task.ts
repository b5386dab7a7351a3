// One task of a running parallel job, as the node and the engine see it: where it is in its iterations,
// what it is doing now, and the messages that have reached it (counted per iteration, since a sender may
// run ahead of its receiver).
import type { ParallelJob } from './job-structure.js';

/**
 * - compute: needs the CPU (remainingS of the iteration's compute left);
 * - spin: waiting for messages and willing to busy-wait on the CPU (runnable: on the CPU it spins);
 * - blocked: waiting for messages off the CPU (woken by an interrupt when they have all come);
 * - io: in its I/O phase, off the CPU;
 * - done: finished its last iteration and left its node.
 */
export type TaskState = 'compute' | 'spin' | 'blocked' | 'io' | 'done';

export interface JobRun {
  readonly job: ParallelJob;
  readonly tasks: Task[];
  startS: number;
  endS: number;
  tasksLeft: number;
  /** Gang scheduling: the matrix row; -1 otherwise. */
  row: number;
}

export class Task {
  iteration = 0;
  remainingS: number;
  state: TaskState = 'compute';
  /** Busy-wait time spent on the CPU in the current wait (spin-block blocks when it reaches the threshold). */
  spunS = 0;
  /** Messages arrived, by iteration (made on the first message: a rigid job's tasks never get one). */
  private receivedByIteration: Map<number, number> | null = null;
  /** When peers began waiting for a message it still had to compute before sending, while it was off its CPU (scheduling skewness). */
  skewWaitersS: number[] | null = null;
  /** An interrupt that will wake it is under way. */
  wakePending = false;
  /** Its priority level in the node's multilevel feedback queue (higher runs first; always 0 under round robin). */
  level = 0;
  /** The node it runs on (set when placed). */
  node = -1;

  constructor(
    readonly run: JobRun,
    readonly index: number,
    /** How many messages it waits for per iteration. */
    readonly needs: number,
  ) {
    this.remainingS = run.job.computeS[index]!;
  }

  get label(): string {
    return `job ${this.run.job.id} task ${this.index}`;
  }

  /** Whether it may be given the CPU. */
  get runnable(): boolean {
    return this.state === 'compute' || this.state === 'spin';
  }

  get received(): Map<number, number> {
    return (this.receivedByIteration ??= new Map());
  }

  /** Forgets the messages of an iteration it is done with. */
  forget(iteration: number): void {
    this.receivedByIteration?.delete(iteration);
  }

  /** Whether every message of its current iteration has come. */
  get messagesIn(): boolean {
    return this.needs === 0 || (this.receivedByIteration?.get(this.iteration) ?? 0) >= this.needs;
  }
}
