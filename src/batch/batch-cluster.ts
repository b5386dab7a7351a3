// One batch-managed cluster: nodes of equal core counts, a policy's queue, the running jobs and their
// metrics. It is passive — whoever owns the clock (the trace simulation, later the grid simulator) feeds it
// submissions, asks when the next job ends and tells it the time — so the same core serves both.
//
// Where jobs run is its placement's business (placement.ts): the bag of cores by default, or a mesh or
// torus whose allocator picks whole nodes.
//
// Order at one instant: jobs ending at t release their cores first, then jobs submitted at t join the
// queue, then the policy dispatches once. Jobs ending at the same time end in the order they started.
import type { Allocator } from './allocators/allocator.js';
import { CorePlacement } from './core-placement.js';
import { startJob, type BatchJob, type StartedJob } from './job.js';
import { JobMetrics, type JobMetricsSummary } from './job-metrics.js';
import { AllocationMetrics } from './machines/allocation-metrics.js';
import type { BatchClusterShape, Placement, RunningAllocation } from './placement.js';
import type { BatchPolicy, BatchQueue, Machine } from './policies/policy.js';
import { MinHeap } from '../util/min-heap.js';

export type { BatchClusterShape } from './placement.js';

/** What happens to jobs, for records, writers and checkers. */
export interface ScheduleObserver {
  submitted?(job: BatchJob): void;
  started?(s: StartedJob): void;
  ended?(s: StartedJob): void;
  /** The policy promises `job` starts no later than `startS` (seen at `nowS`). */
  reserved?(job: BatchJob, startS: number, nowS: number): void;
}

interface Running extends RunningAllocation {
  readonly started: StartedJob;
  readonly seq: number;
  /** Ended before its time (endEarly); its entry in `ends` is skipped when it comes up. */
  over: boolean;
}

const byEnd = (a: Running, b: Running): boolean => a.started.endS < b.started.endS || (a.started.endS === b.started.endS && a.seq < b.seq);
const byExpectedEnd = (a: Running, b: Running): number => a.expectedEndS - b.expectedEndS || a.seq - b.seq;

export class BatchCluster {
  readonly totalCores: number;
  readonly placement: Placement;
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
  /** Free nodes the waiting head job cannot use although there are enough (contiguous allocation). */
  private fragmentedNodes = 0;

  constructor(
    readonly shape: BatchClusterShape,
    readonly policy: BatchPolicy,
    /** Where jobs run: a Placement, or a core allocator on the bag of cores. */
    placement: Placement | Allocator,
    private readonly observer: ScheduleObserver = {},
    boundedSlowdownThresholdS?: number,
  ) {
    this.placement = 'place' in placement ? placement : new CorePlacement(shape, placement);
    this.totalCores = this.placement.totalCores;
    this.queue = policy.createQueue();
    const measured = this.placement.measuredNodes;
    this.metrics = new JobMetrics(this.totalCores, boundedSlowdownThresholdS, measured === undefined ? undefined : new AllocationMetrics(measured));
    const cluster = this;
    const place = this.placement;
    this.machine = {
      get nowS() {
        return cluster.clockS;
      },
      totalCores: this.totalCores,
      freeCores: () => place.freeCores,
      canStart: (job) => place.canPlace(job),
      reservation: (head) => place.reservation(this.clockS, this.byLimit, head),
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
    return this.placement.freeCores;
  }

  /** When the next running job ends, or Infinity. */
  nextEndS(): number {
    this.dropEndedEarly();
    return this.ends.peek()?.started.endS ?? Infinity;
  }

  /** Moves the cluster's clock to `nowS`, accounting for the time since the last event. */
  advanceTo(nowS: number): void {
    if (nowS < this.clockS) throw new Error(`BatchCluster: time went back from ${this.clockS} to ${nowS}`);
    if (this.clockS > -Infinity) this.metrics.interval(nowS - this.clockS, this.placement.freeCores, this.queue.length, this.fragmentedNodes);
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

  submit(submitted: BatchJob): void {
    const job = this.placement.hold(submitted);
    if (job.cores > this.totalCores) throw new Error(`BatchCluster: job ${job.id} asks for ${job.cores} cores, the cluster has ${this.totalCores}`);
    this.metrics.submitted(job.submitS);
    this.observer.submitted?.(job);
    this.queue.submit(job);
  }

  dispatch(): void {
    this.queue.dispatch(this.machine);
    this.metrics.dispatched(this.queue.length);
    this.fragmentedNodes = this.placement.fragmentedNodes(this.queue.peek());
  }

  /**
   * The metrics so far. Jobs still running (a sweep's simulation ends while its pilots and other users'
   * jobs run) count in utilization for the time they have run, and the span reaches the current time.
   */
  summary(): JobMetricsSummary {
    let runningCoreSeconds = 0;
    for (const r of this.byLimit) runningCoreSeconds += r.cores * (this.clockS - r.started.startS);
    return this.metrics.summary(this.byLimit.length > 0 ? { coreSeconds: runningCoreSeconds, nowS: this.clockS } : undefined);
  }

  private start(job: BatchJob): void {
    if (!this.placement.canPlace(job)) throw new Error(`batch policy ${this.policy.name} started job ${job.id} (${job.cores} cores), which cannot start now (${this.placement.freeCores} cores free)`);
    const allocation = this.placement.place(job);
    const quality = this.placement.lastQuality;
    if (quality !== undefined) this.metrics.allocation?.started(allocation.length / 2, quality);
    const started = startJob(job, this.clockS, allocation, quality);
    const running: Running = { started, seq: this.seq++, expectedEndS: started.expectedEndS, cores: job.cores, allocation, over: false };
    this.ends.push(running);
    this.byLimit.splice(this.limitIndex(running), 0, running);
    this.observer.started?.(started);
  }

  private release(r: Running, ended: StartedJob): void {
    this.placement.release(r.allocation);
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
