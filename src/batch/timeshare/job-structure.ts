// A parallel job with a structure, as in the job model of Zhang and Sivasubramaniam 2004 (section 2.2):
// N tasks, each running a number of iterations of compute, then I/O (off the CPU), then a communication
// phase: it sends its messages of that iteration to its peers, then waits until every message of that
// iteration addressed to it has arrived. A plain rigid job (SWF) is one iteration of pure compute.
import type { BatchJob } from '../job.js';

/**
 * Who sends to whom in each iteration (task indices 0..N-1):
 * - none: no messages;
 * - ring: nearest neighbours on a ring, i sends to i-1 and i+1 (mod N; with N = 2 the two are one peer);
 * - all-to-all: i sends to every other task;
 * - tree: a broadcast down a binary tree, i sends to its children 2i+1 and 2i+2 (the root waits for none).
 */
export type CommPattern = 'none' | 'ring' | 'all-to-all' | 'tree';

export const COMM_PATTERNS: readonly CommPattern[] = ['none', 'ring', 'all-to-all', 'tree'];

export interface ParallelJob {
  /** Unique within a workload. */
  readonly id: number;
  readonly submitS: number;
  /** N: one task per node. */
  readonly tasks: number;
  readonly iterations: number;
  /** Compute seconds per iteration, one value per task (length N). */
  readonly computeS: readonly number[];
  /** I/O seconds per iteration, one value per task (length N; 0: no I/O). */
  readonly ioS: readonly number[];
  readonly pattern: CommPattern;
  /** Size of each message. */
  readonly messageBytes: number;
  /** A label for fairness across job classes (e.g. "comm", "io", "cpu"); optional. */
  readonly jobClass?: string;
}

/** The peers task `i` of `n` sends to in each iteration, ascending, without repeats. */
export function sendsTo(pattern: CommPattern, i: number, n: number): number[] {
  switch (pattern) {
    case 'none':
      return [];
    case 'ring':
      if (n < 2) return [];
      return [...new Set([(i + n - 1) % n, (i + 1) % n])].sort((a, b) => a - b);
    case 'all-to-all': {
      const out: number[] = [];
      for (let j = 0; j < n; j++) if (j !== i) out.push(j);
      return out;
    }
    case 'tree':
      return [2 * i + 1, 2 * i + 2].filter((c) => c < n);
  }
}

/** The peers task `i` of `n` receives from in each iteration, ascending. */
export function receivesFrom(pattern: CommPattern, i: number, n: number): number[] {
  switch (pattern) {
    case 'none':
      return [];
    case 'ring':
    case 'all-to-all':
      return sendsTo(pattern, i, n);
    case 'tree':
      return i === 0 ? [] : [(i - 1) >> 1];
  }
}

/** How many messages task `i` of `n` waits for in each iteration. */
export function receivesCount(pattern: CommPattern, i: number, n: number): number {
  switch (pattern) {
    case 'none':
      return 0;
    case 'ring':
      return n < 2 ? 0 : n === 2 ? 1 : 2;
    case 'all-to-all':
      return n - 1;
    case 'tree':
      return i === 0 ? 0 : 1;
  }
}

/** A rigid SWF job as a structured one: one task per core, one iteration of its run time, no messages. */
export function rigidJob(job: BatchJob): ParallelJob {
  const runS = Math.min(job.runS, job.requestedS);
  return {
    id: job.id,
    submitS: job.submitS,
    tasks: job.cores,
    iterations: 1,
    computeS: new Array<number>(job.cores).fill(runS),
    ioS: new Array<number>(job.cores).fill(0),
    pattern: 'none',
    messageBytes: 0,
  };
}

/** A job whose tasks all compute and do I/O alike (the common case in tests and the generator). */
export function uniformJob(spec: {
  id: number;
  submitS: number;
  tasks: number;
  iterations: number;
  computeS: number;
  ioS?: number;
  pattern?: CommPattern;
  messageBytes?: number;
  jobClass?: string;
}): ParallelJob {
  return {
    id: spec.id,
    submitS: spec.submitS,
    tasks: spec.tasks,
    iterations: spec.iterations,
    computeS: new Array<number>(spec.tasks).fill(spec.computeS),
    ioS: new Array<number>(spec.tasks).fill(spec.ioS ?? 0),
    pattern: spec.pattern ?? 'none',
    messageBytes: spec.messageBytes ?? 0,
    ...(spec.jobClass === undefined ? {} : { jobClass: spec.jobClass }),
  };
}

/** Throws, saying what was expected, when a job cannot run on `nodes` nodes. */
export function validateJob(job: ParallelJob, nodes: number): void {
  const where = `job ${job.id}`;
  if (!Number.isInteger(job.tasks) || job.tasks < 1) throw new Error(`${where}: tasks must be a whole number >= 1, got ${job.tasks}`);
  if (job.tasks > nodes) throw new Error(`${where}: needs ${job.tasks} nodes (one task per node) but the cluster has ${nodes}; use a bigger cluster or drop the job`);
  if (!Number.isInteger(job.iterations) || job.iterations < 1) throw new Error(`${where}: iterations must be a whole number >= 1, got ${job.iterations}`);
  if (!(job.submitS >= 0)) throw new Error(`${where}: submitS must be >= 0, got ${job.submitS}`);
  if (job.computeS.length !== job.tasks || job.ioS.length !== job.tasks) throw new Error(`${where}: computeS and ioS need one value per task (${job.tasks})`);
  for (const times of [job.computeS, job.ioS]) for (const v of times) if (!(v >= 0) || !Number.isFinite(v)) throw new Error(`${where}: compute and I/O times must be finite seconds >= 0, got ${v}`);
  if (!COMM_PATTERNS.includes(job.pattern)) throw new Error(`${where}: unknown pattern "${job.pattern}"; expected one of ${COMM_PATTERNS.join(', ')}`);
  if (!(job.messageBytes >= 0)) throw new Error(`${where}: messageBytes must be >= 0, got ${job.messageBytes}`);
}
