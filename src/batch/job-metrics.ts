// Job metrics (Zhang and Sivasubramaniam 2004, §4, Galleguillos et al. 2018, §7), accumulated as jobs end, in memory that does not grow with the
// trace: wait, response, slowdown and bounded slowdown distributions; utilization; loss of capacity; queue
// length over time and at each dispatch; throughput.
//
// Definitions (times in seconds; run = the time the job really ran, end − start):
//   wait = start − submit; response = end − submit;
//   slowdown = response / max(run, 1)            (SWF's resolution is one second);
//   bounded slowdown = max(1, response / max(run, τ)), τ = the bounded-slowdown threshold (default 10 s);
//   utilization = Σ cores × run / (cluster cores × span), span = first submit … last end (jobs still running
//   when the summary is taken — a sweep's simulation ends before its batch cluster empties — count for the
//   time they have run, and the span reaches that time);
//   loss of capacity = Σ over intervals with a job waiting of free cores × length / (cluster cores × span);
//   on a mesh or torus, allocation quality and fragmentation (machines/allocation-metrics.ts).
import type { StartedJob } from './job.js';
import { QuantileSketch, type DistributionSummary } from './quantile-sketch.js';
import type { AllocationMetrics, AllocationMetricsSummary } from './machines/allocation-metrics.js';

export const DEFAULT_BOUNDED_SLOWDOWN_THRESHOLD_S = 10;

export interface JobMetricsSummary {
  readonly jobs: number;
  /** Jobs killed at their requested time. */
  readonly killed: number;
  readonly firstSubmitS: number;
  readonly lastEndS: number;
  readonly spanS: number;
  readonly waitS: DistributionSummary;
  readonly responseS: DistributionSummary;
  readonly slowdown: DistributionSummary;
  readonly boundedSlowdown: DistributionSummary;
  readonly boundedSlowdownThresholdS: number;
  readonly utilization: number;
  readonly lossOfCapacity: number;
  /** Time-weighted mean and maximum of the number of waiting jobs. */
  readonly queueLength: { readonly timeMean: number; readonly max: number };
  /** The number of waiting jobs after each dispatch (AccaSim's queue-size plot). */
  readonly queueLengthAtDispatch: DistributionSummary;
  readonly throughputJobsPerHour: number;
  /** On a mesh or torus: allocation quality and fragmentation (absent on the bag of cores). */
  readonly allocation?: AllocationMetricsSummary;
}

export class JobMetrics {
  private readonly wait = new QuantileSketch();
  private readonly response = new QuantileSketch();
  private readonly slowdown = new QuantileSketch();
  private readonly boundedSlowdown = new QuantileSketch();
  private readonly queueAtDispatch = new QuantileSketch();
  private jobs = 0;
  private killed = 0;
  private coreSeconds = 0;
  private lostCoreSeconds = 0;
  private queueSeconds = 0;
  private maxQueue = 0;
  private firstSubmitS = Infinity;
  private lastEndS = -Infinity;

  constructor(
    private readonly totalCores: number,
    private readonly boundedSlowdownThresholdS = DEFAULT_BOUNDED_SLOWDOWN_THRESHOLD_S,
    /** Allocation quality, on a mesh or torus. */
    readonly allocation?: AllocationMetrics,
  ) {}

  submitted(submitS: number): void {
    if (submitS < this.firstSubmitS) this.firstSubmitS = submitS;
  }

  /** `cpuS`: the seconds the job computed, where it shared its cores (gang-cluster.ts); its run time by default. */
  ended(s: StartedJob, cpuS?: number): void {
    const runS = s.endS - s.startS;
    const responseS = s.endS - s.job.submitS;
    this.jobs++;
    if (s.killed) this.killed++;
    this.coreSeconds += s.job.cores * (cpuS ?? runS);
    this.wait.add(s.startS - s.job.submitS);
    this.response.add(responseS);
    this.slowdown.add(responseS / Math.max(runS, 1));
    this.boundedSlowdown.add(Math.max(1, responseS / Math.max(runS, this.boundedSlowdownThresholdS)));
    if (s.endS > this.lastEndS) this.lastEndS = s.endS;
  }

  /** The state held for `durationS` before the next event. */
  interval(durationS: number, freeCores: number, waitingJobs: number, fragmentedNodes = 0): void {
    if (waitingJobs > 0) this.lostCoreSeconds += freeCores * durationS;
    if (fragmentedNodes > 0) this.allocation?.fragmented(fragmentedNodes, durationS);
    this.queueSeconds += waitingJobs * durationS;
  }

  dispatched(waitingJobs: number): void {
    this.queueAtDispatch.add(waitingJobs);
    if (waitingJobs > this.maxQueue) this.maxQueue = waitingJobs;
  }

  /** The metrics; `running`: jobs not yet ended, their core-seconds so far and the current time. */
  summary(running?: { readonly coreSeconds: number; readonly nowS: number }): JobMetricsSummary {
    const empty = this.jobs === 0 && running === undefined;
    const lastS = running === undefined ? this.lastEndS : Math.max(this.lastEndS, running.nowS);
    const spanS = empty ? 0 : lastS - this.firstSubmitS;
    const capacity = this.totalCores * spanS;
    const coreSeconds = this.coreSeconds + (running?.coreSeconds ?? 0);
    return {
      jobs: this.jobs,
      killed: this.killed,
      firstSubmitS: empty ? 0 : this.firstSubmitS,
      lastEndS: this.jobs === 0 ? 0 : this.lastEndS,
      spanS,
      waitS: this.wait.summary(),
      responseS: this.response.summary(),
      slowdown: this.slowdown.summary(),
      boundedSlowdown: this.boundedSlowdown.summary(),
      boundedSlowdownThresholdS: this.boundedSlowdownThresholdS,
      utilization: capacity > 0 ? coreSeconds / capacity : 0,
      lossOfCapacity: capacity > 0 ? this.lostCoreSeconds / capacity : 0,
      queueLength: { timeMean: spanS > 0 ? this.queueSeconds / spanS : 0, max: this.maxQueue },
      queueLengthAtDispatch: this.queueAtDispatch.summary(),
      throughputJobsPerHour: spanS > 0 ? (this.jobs * 3600) / spanS : 0,
      ...(this.allocation === undefined ? {} : { allocation: this.allocation.summary(spanS) }),
    };
  }
}
