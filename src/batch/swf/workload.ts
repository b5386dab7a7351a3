// Turns an SWF file (plain or gzip'd) into the batch jobs a cluster can run, one at a time, in submit order.
//
// Cleaning, as researchers do with Parallel Workloads Archive logs (Bunde and Leung 2015 list these rules);
// each skipped line is counted under its reason, checked in this order:
//   status 2, 3 or 4 → a partial-execution record of a checkpointed or swapped job (its summary line,
//     status 0, 1 or 5, is the job); skipped, and not held to the submit-order rule;
//   status 5 (cancelled) with run time ≤ 0 or -1 → cancelled before it started; skipped;
//   run time -1 → unknown run time; skipped;
//   processors (requested, else allocated — see below) 0 → zero processors; -1 → unknown; both skipped;
//   more cores than the cluster has → skipped.
// Kept: run time 0 (a job shorter than the log's resolution is still a job), status 0 (failed) and status 5
// with a run time > 0 (both held their processors), and status -1. The paper also drops status -1, but
// the SWF definition gives -1 as the status of every job of a model-generated workload (gridsweep's own
// included), where it means "not applicable", so dropping it would empty such files.
//
// What -1 (unknown) means otherwise:
//   requested processors unknown (or 0) → the allocated processors (field 5) are taken;
//   requested time unknown → the job's run time (a perfect estimate); under 1 s → 1 s (SWF's resolution);
//   user unknown → kept as -1.
// Submit times must not go backwards: the file is streamed, so an out-of-order job is an error (sort it:
// `sort -n -k2`).
import { InputError } from '../../util/diagnostics.js';
import type { BatchJob } from '../job.js';
import { F, type SwfHeader } from './fields.js';
import { SwfReader } from './reader.js';

export type SkipReason =
  | 'partial-execution record (status 2, 3, 4)'
  | 'cancelled before starting (status 5, run time ≤ 0)'
  | 'unknown run time'
  | 'zero processors'
  | 'unknown processor count'
  | 'more cores than the cluster has';

/** Statuses of the lines for pieces of a checkpointed or swapped job (SWF): 2 partial, 3 last partial and completed, 4 last partial and failed. */
const PARTIAL_STATUSES: ReadonlySet<number> = new Set([2, 3, 4]);
const CANCELLED = 5;

export interface SkippedJobs {
  /** How many jobs were skipped, per reason. */
  readonly counts: Map<SkipReason, number>;
  /** The first few skipped job numbers per reason, for the warning. */
  readonly examples: Map<SkipReason, number[]>;
}

/** The reasons in the order the rules are checked (and warnings listed). */
export const SKIP_REASONS: readonly SkipReason[] = ['partial-execution record (status 2, 3, 4)', 'cancelled before starting (status 5, run time ≤ 0)', 'unknown run time', 'zero processors', 'unknown processor count', 'more cores than the cluster has'];

const EXAMPLES_KEPT = 5;

export class SwfWorkload {
  readonly skipped: SkippedJobs = { counts: new Map(), examples: new Map() };
  /** Jobs read and kept so far. */
  accepted = 0;
  private readonly reader: SwfReader;
  private lastSubmitS = -Infinity;
  private totalCores = Infinity;

  /** `offsetS` shifts every submit time (a background workload that starts later in the simulation). */
  constructor(path: string, private readonly offsetS = 0) {
    this.reader = new SwfReader(path);
  }

  get path(): string {
    return this.reader.path;
  }

  header(): SwfHeader {
    return this.reader.readHeader();
  }

  /** The number of lines skipped, all reasons together. */
  get skippedTotal(): number {
    let n = 0;
    for (const c of this.skipped.counts.values()) n += c;
    return n;
  }

  /** Jobs asking for more than `cores` are skipped from now on. */
  limitCores(cores: number): void {
    this.totalCores = cores;
  }

  /** The next runnable job, or undefined at the end of the file. */
  next(): BatchJob | undefined {
    const r = this.reader;
    const f = r.fields;
    while (r.next()) {
      const status = f[F.status]!;
      if (PARTIAL_STATUSES.has(status)) {
        this.skip('partial-execution record (status 2, 3, 4)', f[F.job]!);
        continue;
      }
      const submitS = f[F.submit]!;
      if (submitS < 0) this.fail('field 2 (submit time) is unknown (-1)', 'a submit time ≥ 0', 'every job needs a submit time');
      if (submitS < this.lastSubmitS) this.fail(`job ${f[F.job]} is submitted at ${submitS} s, before the previous job (${this.lastSubmitS} s)`, 'jobs in submit-time order', 'sort the file by field 2, e.g. `sort -n -k2`; keep the `;` header lines first');
      this.lastSubmitS = submitS;
      const cores = f[F.requestedProcs]! >= 1 ? f[F.requestedProcs]! : f[F.allocatedProcs]!;
      const runS = f[F.run]!;
      if (status === CANCELLED && runS <= 0) this.skip('cancelled before starting (status 5, run time ≤ 0)', f[F.job]!);
      else if (runS < 0) this.skip('unknown run time', f[F.job]!);
      else if (cores === 0) this.skip('zero processors', f[F.job]!);
      else if (!(cores >= 1)) this.skip('unknown processor count', f[F.job]!);
      else if (cores > this.totalCores) this.skip('more cores than the cluster has', f[F.job]!);
      else {
        this.accepted++;
        const requestedS = Math.max(1, f[F.requestedTime]! >= 0 ? f[F.requestedTime]! : runS);
        return { id: f[F.job]!, submitS: submitS + this.offsetS, runS, cores: Math.ceil(cores), requestedS, userId: f[F.user]! };
      }
    }
    return undefined;
  }

  close(): void {
    this.reader.close();
  }

  /** One line per skip reason, in the order of the rules, e.g. `skipped 3 jobs: more cores than the cluster has (jobs 4, 9, 12)`. */
  warnings(): string[] {
    return SKIP_REASONS.filter((reason) => this.skipped.counts.has(reason)).map((reason) => {
      const n = this.skipped.counts.get(reason)!;
      const ids = this.skipped.examples.get(reason)!;
      const more = n > ids.length ? ', …' : '';
      return `${this.path}: skipped ${n} job${n === 1 ? '' : 's'}: ${reason} (job${ids.length === 1 ? '' : 's'} ${ids.join(', ')}${more})`;
    });
  }

  private skip(reason: SkipReason, id: number): void {
    this.skipped.counts.set(reason, (this.skipped.counts.get(reason) ?? 0) + 1);
    const ids = this.skipped.examples.get(reason) ?? [];
    if (ids.length < EXAMPLES_KEPT) ids.push(id);
    this.skipped.examples.set(reason, ids);
  }

  private fail(message: string, expected: string, hint: string): never {
    this.reader.close();
    throw new InputError([{ severity: 'error', pos: { file: this.reader.path, line: this.reader.line, column: 1 }, message, expected, hint }]);
  }
}
