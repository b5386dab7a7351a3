// One batch-managed cluster: nodes of equal core counts, a policy's queue, the running jobs and their
// metrics. It is passive — whoever owns the clock (the trace simulation, later the grid simulator) feeds it
// submissions, asks when the next job ends and tells it the time — so the same core serves both.
//
// Order at one instant: jobs ending at t release their cores first, then jobs submitted at t join the
// queue, then the policy dispatches once. Jobs ending at the same time end in the order they started.
import type { Allocator } from './allocators/allocator.js';
import { startJob, type BatchJob, type StartedJob } from './job.js';
import { JobMetrics, type JobMetricsSummary } from './job-metrics.js';
import type { BatchPolicy, BatchQueue, Machine, RunningEnd } from './policies/policy.js';
import { MinHeap } from '../util/min-heap.js';

export interface BatchClusterShape {
  readonly nodes: number;
  readonly coresPerNode: number;
}

/** What happens to jobs, for records, writers and checkers. */
export interface ScheduleObserver {
  submitted?(job: BatchJob): void;
  started?(s: StartedJob): void;
  ended?(s: StartedJob): void;
  /** The policy promises `job` starts no later than `startS` (seen at `nowS`). */
  reserved?(job: BatchJob, startS: number, nowS: number): void;
}

interface Running extends RunningEnd {
  readonly started: StartedJob;
  readonly seq: number;
  /** Ended before its time (endEarly); its entry in `ends` is skipped when it comes up. */
  over: boolean;
}

const byEnd = (a: Running, b: Running): boolean => a.started.endS < b.started.endS || (a.started.endS === b.started.endS && a.seq < b.seq);
const byExpectedEnd = (a: Running, b: Running): number => a.expectedEndS - b.expectedEndS || a.seq - b.seq;

export class BatchCluster {
  readonly totalCores: number;
  readonly freeByNode: Int32Array;
  private free: number;
  private readonly queue: BatchQueue;
  private readonly ends = new MinHeap<Running>(byEnd);
  /** Running jobs by time limit, for the policy (kept sorted: insert and remove by binary search). */
  private readonly byLimit: Running[] = [];
  private readonly metrics: JobMetrics;
  private seq = 0;
  private clockS = -Infinity;
  /** Entries of `ends` whose job already ended early. */
  private endedEarly = 0;
  private readonly machine: Machine;

  constructor(
    readonly shape: BatchClusterShape,
    readonly policy: BatchPolicy,
    readonly allocator: Allocator,
    private readonly observer: ScheduleObserver = {},
    boundedSlowdownThresholdS?: number,
  ) {
    this.totalCores = shape.nodes * shape.coresPerNode;
    this.freeByNode = new Int32Array(shape.nodes).fill(shape.coresPerNode);
    this.free = this.totalCores;
    this.queue = policy.createQueue();
    this.metrics = new JobMetrics(this.totalCores, boundedSlowdownThresholdS);
    const cluster = this;
    this.machine = {
      get nowS() {
        return cluster.clockS;
      },
      totalCores: this.totalCores,
      freeCores: () => this.free,
      runningEnds: () => this.byLimit,
      start: (job) => this.start(job),
      reserve: (job, startS) => this.observer.reserved?.(job, startS, this.clockS),
    };
  }

  get waitingJobs(): number {
    return this.queue.length;
  }

  get runningJobs(): number {
    return this.ends.size - this.endedEarly;
  }

  get freeCores(): number {
    return this.free;
  }

  /** When the next running job ends, or Infinity. */
  nextEndS(): number {
    this.dropEndedEarly();
    return this.ends.peek()?.started.endS ?? Infinity;
  }

  /** Moves the cluster's clock to `nowS`, accounting for the time since the last event. */
  advanceTo(nowS: number): void {
    if (nowS < this.clockS) throw new Error(`BatchCluster: time went back from ${this.clockS} to ${nowS}`);
    if (this.clockS > -Infinity) this.metrics.interval(nowS - this.clockS, this.free, this.queue.length);
    this.clockS = nowS;
  }

  /** Ends every job due by the current time. */
  endDueJobs(): void {
    this.dropEndedEarly();
    for (let top = this.ends.peek(); top !== undefined && top.started.endS <= this.clockS; top = this.ends.peek()) {
      this.ends.pop();
      this.release(top, top.started);
      this.dropEndedEarly();
    }
  }

  /**
   * Ends running job `jobId` now, before its time (a per-Work job whose Work is done). A scan of the running
   * jobs: rare (once per Work), where a map kept for every job of a trace cost 30 MB of RSS on Seth.
   */
  endEarly(jobId: number): void {
    const r = this.byLimit.find((x) => x.started.job.id === jobId);
    if (r === undefined) throw new Error(`BatchCluster: job ${jobId} is not running`);
    r.over = true;
    this.endedEarly++;
    this.release(r, { ...r.started, endS: this.clockS, killed: false });
  }

  private dropEndedEarly(): void {
    for (let top = this.ends.peek(); top?.over === true; top = this.ends.peek()) {
      this.ends.pop();
      this.endedEarly--;
    }
  }

  submit(job: BatchJob): void {
    if (job.cores > this.totalCores) throw new Error(`BatchCluster: job ${job.id} asks for ${job.cores} cores, the cluster has ${this.totalCores}`);
    this.metrics.submitted(job.submitS);
    this.observer.submitted?.(job);
    this.queue.submit(job);
  }

  dispatch(): void {
    this.queue.dispatch(this.machine);
    this.metrics.dispatched(this.queue.length);
  }

  summary(): JobMetricsSummary {
    return this.metrics.summary();
  }

  private start(job: BatchJob): void {
    if (job.cores > this.free) throw new Error(`batch policy ${this.policy.name} started job ${job.id} (${job.cores} cores) with ${this.free} free`);
    const allocation = this.allocator.allocate(this.freeByNode, job.cores);
    this.free -= job.cores;
    const started = startJob(job, this.clockS, allocation);
    const running: Running = { started, seq: this.seq++, expectedEndS: started.expectedEndS, cores: job.cores, over: false };
    this.ends.push(running);
    this.byLimit.splice(this.limitIndex(running), 0, running);
    this.observer.started?.(started);
  }

  private release(r: Running, ended: StartedJob): void {
    const a = r.started.allocation;
    for (let i = 0; i < a.length; i += 2) this.freeByNode[a[i]!] = this.freeByNode[a[i]!]! + a[i + 1]!;
    this.free += r.cores;
    this.byLimit.splice(this.limitIndex(r), 1);
    this.metrics.ended(ended);
    this.observer.ended?.(ended);
  }

  /** Where `r` is (or belongs) in byLimit. */
  private limitIndex(r: Running): number {
    let lo = 0;
    let hi = this.byLimit.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byExpectedEnd(this.byLimit[mid]!, r) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** One observer that tells each of `observers`, in order (none or one: no wrapper on the per-job path). */
export function allObservers(...observers: readonly ScheduleObserver[]): ScheduleObserver {
  if (observers.length <= 1) return observers[0] ?? {};
  return {
    submitted: (job) => observers.forEach((o) => o.submitted?.(job)),
    started: (s) => observers.forEach((o) => o.started?.(s)),
    ended: (s) => observers.forEach((o) => o.ended?.(s)),
    reserved: (job, startS, nowS) => observers.forEach((o) => o.reserved?.(job, startS, nowS)),
  };
}
