// Turns an SWF file into the batch jobs a cluster can run, one at a time, in submit order.
//
// What -1 (unknown) means here:
//   requested processors unknown → the allocated processors (field 5) are taken;
//   both unknown, or run time unknown → the job is skipped (counted, with its reason);
//   requested time unknown → the job's run time (a perfect estimate); under 1 s → 1 s (SWF's resolution);
//   user unknown → kept as -1.
// A job asking for more cores than the cluster has is skipped (counted). Submit times must not go backwards:
// the file is streamed, so an out-of-order job is an error (sort it: `sort -n -k2`).
import { InputError } from '../../util/diagnostics.js';
import type { BatchJob } from '../job.js';
import { F, type SwfHeader } from './fields.js';
import { SwfReader } from './reader.js';

export type SkipReason = 'unknown run time' | 'unknown processor count' | 'more cores than the cluster has';

export interface SkippedJobs {
  /** How many jobs were skipped, per reason. */
  readonly counts: Map<SkipReason, number>;
  /** The first few skipped job numbers per reason, for the warning. */
  readonly examples: Map<SkipReason, number[]>;
}

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

  /** Jobs asking for more than `cores` are skipped from now on. */
  limitCores(cores: number): void {
    this.totalCores = cores;
  }

  /** The next runnable job, or undefined at the end of the file. */
  next(): BatchJob | undefined {
    const r = this.reader;
    const f = r.fields;
    while (r.next()) {
      const submitS = f[F.submit]!;
      if (submitS < 0) this.fail('field 2 (submit time) is unknown (-1)', 'a submit time ≥ 0', 'every job needs a submit time');
      if (submitS < this.lastSubmitS) this.fail(`job ${f[F.job]} is submitted at ${submitS} s, before the previous job (${this.lastSubmitS} s)`, 'jobs in submit-time order', 'sort the file by field 2, e.g. `sort -n -k2`; keep the `;` header lines first');
      this.lastSubmitS = submitS;
      const cores = f[F.requestedProcs]! >= 1 ? f[F.requestedProcs]! : f[F.allocatedProcs]!;
      const runS = f[F.run]!;
      if (runS < 0) this.skip('unknown run time', f[F.job]!);
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

  /** One line per skip reason, e.g. `skipped 3 jobs asking for more cores than the cluster has (jobs 4, 9, 12)`. */
  warnings(): string[] {
    return [...this.skipped.counts].map(([reason, n]) => {
      const ids = this.skipped.examples.get(reason)!;
      const more = n > ids.length ? ', …' : '';
      return `${this.path}: skipped ${n} job${n === 1 ? '' : 's'} with ${reason} (job${ids.length === 1 ? '' : 's'} ${ids.join(', ')}${more})`;
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
