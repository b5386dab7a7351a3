// Checks a batch schedule as it happens (it is a ScheduleObserver): no node's cores over-allocated, no job
// started before it was submitted or with other than the cores it asked for, no job running past its time
// limit; under FCFS no job started before an earlier-submitted one; and every promise a backfilling policy
// made (EASY's head job, every job under conservative) kept: a job starts no later than any reservation
// it was given. Used by the tests on every batch schedule, and offered to users (`trace --check`).
import type { BatchClusterShape, ScheduleObserver } from './batch-cluster.js';
import type { BatchJob, StartedJob } from './job.js';

const MAX_REPORTED = 20;

export class ScheduleChecker implements ScheduleObserver {
  private readonly usedByNode: Int32Array;
  private readonly submittedAt = new Map<number, number>();
  /** Not-yet-started jobs in arrival order (FCFS check). */
  private readonly notStarted: number[] = [];
  private notStartedHead = 0;
  private readonly earliestPromise = new Map<number, number>();
  private readonly found: string[] = [];
  private count = 0;

  constructor(
    private readonly shape: BatchClusterShape,
    private readonly policyName: string,
  ) {
    this.usedByNode = new Int32Array(shape.nodes);
  }

  /** Every violation seen (the first 20 described, then a count). */
  violations(): string[] {
    return this.count > this.found.length ? [...this.found, `… and ${this.count - this.found.length} more`] : [...this.found];
  }

  submitted(job: BatchJob): void {
    this.submittedAt.set(job.id, job.submitS);
    if (this.policyName === 'fcfs') this.notStarted.push(job.id);
  }

  reserved(job: BatchJob, startS: number): void {
    const before = this.earliestPromise.get(job.id);
    if (before === undefined || startS < before) this.earliestPromise.set(job.id, startS);
  }

  started(s: StartedJob): void {
    const { job } = s;
    const submitS = this.submittedAt.get(job.id);
    if (submitS === undefined) this.report(`job ${job.id} started at ${s.startS} s but was never submitted`);
    else if (s.startS < submitS) this.report(`job ${job.id} started at ${s.startS} s, before its submission at ${submitS} s`);
    let cores = 0;
    for (let i = 0; i < s.allocation.length; i += 2) {
      const node = s.allocation[i]!;
      cores += s.allocation[i + 1]!;
      this.usedByNode[node] = this.usedByNode[node]! + s.allocation[i + 1]!;
      if (this.usedByNode[node]! > this.shape.coresPerNode) this.report(`node ${node} over-allocated at ${s.startS} s: ${this.usedByNode[node]} of ${this.shape.coresPerNode} cores (job ${job.id})`);
    }
    if (cores !== job.cores) this.report(`job ${job.id} asked for ${job.cores} cores and got ${cores}`);
    const promise = this.earliestPromise.get(job.id);
    if (promise !== undefined && s.startS > promise) this.report(`job ${job.id} started at ${s.startS} s, after the ${promise} s the ${this.policyName} policy had promised`);
    this.earliestPromise.delete(job.id);
    if (this.policyName === 'fcfs') this.checkArrivalOrder(job.id, s.startS);
  }

  ended(s: StartedJob): void {
    if (s.endS - s.startS > s.job.requestedS) this.report(`job ${s.job.id} ran ${s.endS - s.startS} s, past its ${s.job.requestedS} s limit`);
    for (let i = 0; i < s.allocation.length; i += 2) this.usedByNode[s.allocation[i]!] = this.usedByNode[s.allocation[i]!]! - s.allocation[i + 1]!;
    this.submittedAt.delete(s.job.id);
  }

  private checkArrivalOrder(id: number, startS: number): void {
    const first = this.notStarted[this.notStartedHead];
    if (first !== id) {
      this.report(`FCFS started job ${id} at ${startS} s while job ${first} (submitted earlier) was still waiting`);
      const at = this.notStarted.indexOf(id, this.notStartedHead);
      if (at >= 0) this.notStarted.splice(at, 1);
      return;
    }
    this.notStartedHead++;
    if (this.notStartedHead > 1024 && this.notStartedHead * 2 > this.notStarted.length) {
      this.notStarted.splice(0, this.notStartedHead);
      this.notStartedHead = 0;
    }
  }

  private report(message: string): void {
    this.count++;
    if (this.found.length < MAX_REPORTED) this.found.push(message);
  }
}
