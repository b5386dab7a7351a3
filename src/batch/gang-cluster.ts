// A gang-scheduled batch cluster for the grid simulator, beside the space-shared core (batch-cluster.ts):
// up to MPL jobs share each core, in MPL rows of the Ousterhout matrix that switch together.
//
// A fluid approximation of gang scheduling with equal slices: every running job progresses at
// 1 / (rows in use) of real time, where the exact engine (src/batch/timeshare/) runs one row for a whole
// slice and then the next. Over times long against the slice both give each row the same share; within a
// slice the fluid model spreads what the exact one does in bursts, and it has no context-switch cost.
// End times are recomputed whenever the rows in use change (a job is admitted to an empty row, or a row
// empties).
//
// Admission as the time-sharing engine's gang: first come first served — the job at the head of the queue
// goes into the first row (lowest index) with enough free cores, on that row's lowest-numbered free cores;
// a head job that fits in no row blocks those behind it. The cluster's batch policy is not used (the grid
// format asks for fcfs with gang).
//
// Time limits count the time a job runs, not the time it is descheduled (Slurm's run time under gang
// scheduling leaves out the time a job is suspended): a job ends, or is killed, once it has progressed
// min(run time, requested time) seconds.
//
// Order at one instant, as batch-cluster.ts: jobs due end first (in the order they started), then
// submissions join the queue, then one dispatch.
import type { ScheduleObserver } from './batch-cluster.js';
import type { BatchJob, StartedJob } from './job.js';
import { JobMetrics, type JobMetricsSummary } from './job-metrics.js';
import type { BatchClusterShape } from './placement.js';

interface GangRunning {
  readonly started: StartedJob;
  readonly row: number;
  readonly columns: readonly number[];
  /** Seconds of progress still to make. */
  leftS: number;
}

/** Progress below this (seconds) counts as done: end times are sums of floating-point shares. */
const DONE_EPSILON_S = 1e-9;

export class GangCluster {
  readonly totalCores: number;
  /** cells[row][core]: whether the core is taken in that row. */
  private readonly cells: boolean[][];
  private readonly freeInRow: number[];
  private readonly jobsInRow: number[];
  /** Running jobs in the order they started. */
  private running: GangRunning[] = [];
  private readonly queue: BatchJob[] = [];
  private queueHead = 0;
  private readonly metrics: JobMetrics;
  private clockS = -Infinity;

  constructor(
    readonly shape: BatchClusterShape,
    readonly mpl: number,
    private readonly observer: ScheduleObserver & {
      /** Every running job now progresses at `share` of real time (after an admission or an end changed it). */
      shareChanged?(share: number): void;
    } = {},
    boundedSlowdownThresholdS?: number,
  ) {
    if (!Number.isInteger(mpl) || mpl < 1) throw new Error(`GangCluster: MPL must be a whole number ≥ 1, got ${mpl}`);
    this.totalCores = shape.nodes * shape.coresPerNode;
    this.cells = Array.from({ length: mpl }, () => new Array<boolean>(this.totalCores).fill(false));
    this.freeInRow = new Array<number>(mpl).fill(this.totalCores);
    this.jobsInRow = new Array<number>(mpl).fill(0);
    this.metrics = new JobMetrics(this.totalCores, boundedSlowdownThresholdS);
  }

  get waitingJobs(): number {
    return this.queue.length - this.queueHead;
  }

  get runningJobs(): number {
    return this.running.length;
  }

  /** Rows holding at least one job. */
  get rowsInUse(): number {
    let n = 0;
    for (const j of this.jobsInRow) if (j > 0) n++;
    return n;
  }

  /** The share of real time every running job progresses at (1 when none runs). */
  get share(): number {
    const rows = this.rowsInUse;
    return rows === 0 ? 1 : 1 / rows;
  }

  /** When the next running job ends at the present share, or Infinity. */
  nextEndS(): number {
    let least = Infinity;
    for (const r of this.running) if (r.leftS < least) least = r.leftS;
    return least === Infinity ? Infinity : this.clockS + least / this.share;
  }

  /** When a running job ends if the share stays as it is now. */
  expectedEndOf(jobId: number): number | undefined {
    const r = this.running.find((x) => x.started.job.id === jobId);
    return r === undefined ? undefined : this.clockS + r.leftS / this.share;
  }

  /** Moves the clock to `nowS`: every running job progresses at the share in force since the last event. */
  advanceTo(nowS: number): void {
    if (nowS < this.clockS) throw new Error(`GangCluster: time went back from ${this.clockS} to ${nowS}`);
    if (this.clockS > -Infinity) {
      const dtS = nowS - this.clockS;
      const share = this.share;
      for (const r of this.running) r.leftS -= dtS * share;
      // Cores doing work, averaged over the rows in use: the rest are free for loss of capacity.
      let used = 0;
      for (let row = 0; row < this.mpl; row++) used += this.totalCores - this.freeInRow[row]!;
      this.metrics.interval(dtS, this.totalCores - used * share, this.waitingJobs);
    }
    this.clockS = nowS;
  }

  /** Ends every job whose progress is complete, in the order they started. */
  endDueJobs(): void {
    const before = this.share;
    const still: GangRunning[] = [];
    const done: GangRunning[] = [];
    // Due: no progress left, or so little that its end is not a later time than now (far from 0, where
    // times are coarse, an end computed at one event can leave a sliver that would never advance the clock).
    for (const r of this.running) (r.leftS <= DONE_EPSILON_S || this.clockS + r.leftS / before <= this.clockS ? done : still).push(r);
    if (done.length === 0) return;
    this.running = still;
    for (const r of done) this.release(r, { ...r.started, endS: this.clockS });
    if (this.share !== before) this.observer.shareChanged?.(this.share);
  }

  /** Ends running job `jobId` now, before its progress is complete (a per-Work job whose Work is done). */
  endEarly(jobId: number): void {
    const i = this.running.findIndex((x) => x.started.job.id === jobId);
    if (i < 0) throw new Error(`GangCluster: job ${jobId} is not running`);
    const before = this.share;
    const [r] = this.running.splice(i, 1);
    this.release(r!, { ...r!.started, endS: this.clockS, killed: false });
    if (this.share !== before) this.observer.shareChanged?.(this.share);
  }

  submit(job: BatchJob): void {
    if (job.cores > this.totalCores) throw new Error(`GangCluster: job ${job.id} asks for ${job.cores} cores, the cluster has ${this.totalCores}`);
    this.metrics.submitted(job.submitS);
    this.observer.submitted?.(job);
    this.queue.push(job);
  }

  /** Admits waiting jobs first come first served while the head one fits in a row. */
  dispatch(): void {
    const before = this.share;
    while (this.queueHead < this.queue.length) {
      const job = this.queue[this.queueHead]!;
      const row = this.freeInRow.findIndex((free) => free >= job.cores);
      if (row < 0) break;
      this.queueHead++;
      this.start(job, row);
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
    this.metrics.dispatched(this.waitingJobs);
    if (this.share !== before && this.running.length > 0) this.observer.shareChanged?.(this.share);
  }

  summary(): JobMetricsSummary {
    let runningCoreSeconds = 0;
    for (const r of this.running) runningCoreSeconds += r.started.job.cores * (Math.min(r.started.job.runS, r.started.job.requestedS) - r.leftS);
    return this.metrics.summary(this.running.length > 0 ? { coreSeconds: runningCoreSeconds, nowS: this.clockS } : undefined);
  }

  private start(job: BatchJob, row: number): void {
    const cells = this.cells[row]!;
    const columns: number[] = [];
    for (let c = 0; c < this.totalCores && columns.length < job.cores; c++) if (!cells[c]) columns.push(c);
    for (const c of columns) cells[c] = true;
    this.freeInRow[row] = this.freeInRow[row]! - job.cores;
    this.jobsInRow[row] = this.jobsInRow[row]! + 1;
    const workS = Math.min(job.runS, job.requestedS);
    const share = this.share;
    const started: StartedJob = {
      job,
      startS: this.clockS,
      // At the share in force now; the real end moves as rows fill and empty.
      endS: this.clockS + workS / share,
      expectedEndS: this.clockS + job.requestedS / share,
      allocation: allocationOf(columns, this.shape.coresPerNode),
      killed: job.runS > job.requestedS,
    };
    this.running.push({ started, row, columns, leftS: workS });
    this.observer.started?.(started);
  }

  private release(r: GangRunning, ended: StartedJob): void {
    const cells = this.cells[r.row]!;
    for (const c of r.columns) cells[c] = false;
    this.freeInRow[r.row] = this.freeInRow[r.row]! + r.columns.length;
    this.jobsInRow[r.row] = this.jobsInRow[r.row]! - 1;
    const job = r.started.job;
    this.metrics.ended(ended, Math.min(job.runS, job.requestedS) - Math.max(0, r.leftS));
    this.observer.ended?.(ended);
  }
}

/** Cores (ascending) as [node, cores on it, …] pairs. */
function allocationOf(columns: readonly number[], coresPerNode: number): number[] {
  const pairs: number[] = [];
  for (const c of columns) {
    const node = Math.floor(c / coresPerNode);
    if (pairs.length > 0 && pairs[pairs.length - 2] === node) pairs[pairs.length - 1] = pairs[pairs.length - 1]! + 1;
    else pairs.push(node, 1);
  }
  return pairs;
}
