// Gang scheduling of rigid jobs (one iteration of pure compute, the same on every task, no messages, no
// I/O), simulated per job instead of per node. Without alternate scheduling and context-switch cost, every
// task of a rigid job computes exactly while its row is active, so the job needs one remaining time and
// one timer, and a row switch touches the jobs of two rows rather than every node. It reproduces the
// general engine's schedule (engine.ts) event for event, including the order in which tasks that end at
// the same instant are handled — that order decides which cells are free when a waiting job is admitted:
// the general engine handles node timers due at one instant in the order they were armed, nodes being
// armed in node order at a row activation, a same-row switch that re-arms, or an admission into the
// active row; and a node whose task just ended is re-armed once more after that (so the task now in its
// cell, if any, comes after the rest of its job). Here each job keeps the arming round ("epoch") its tasks
// got, tasks of one round order by node, and the one re-armed task keeps its own, later round.
// Node profiles: a node computes for each task it held (its work) and idles otherwise.
import { AdmissionQueue } from './admission-queue.js';
import { MinHeap } from '../../util/min-heap.js';
import { GangMatrix } from './gang-matrix.js';
import type { ParallelJob } from './job-structure.js';
import { EPS_S, type ExecutionProfile } from './node.js';
import { jobOutcome, type SimulationOptions, type TimeshareRun } from './run-result.js';
import { StallGuard } from './stall-guard.js';
import type { SchedulerConfig } from './strategies/strategy.js';
import { Task, type JobRun } from './task.js';

/** Times on this grid (multiples of 2^-10 s) below EXACT_LIMIT_S add and subtract without rounding. */
const GRID = 1024;
const EXACT_LIMIT_S = 2 ** 40;

/**
 * Whether the per-job simulation applies: gang without alternate scheduling or switch cost, rigid jobs
 * only, and every time exact in binary (submission, work and slice on a 2^-10 s grid — whole seconds, as
 * in SWF traces — with the last submission plus all the work, a bound on the makespan, below 2^40 s).
 * Then the two engines compute the same numbers; with other times they would differ by rounding (the
 * general engine subtracts elapsed time in other pieces), so the general engine runs them.
 */
export function rigidGangApplies(jobs: readonly ParallelJob[], config: SchedulerConfig): boolean {
  if (config.mode !== 'gang' || config.alternate || config.contextSwitchS !== 0 || !onGrid(config.sliceS)) return false;
  let boundS = 0;
  for (const j of jobs) {
    if (j.iterations !== 1 || j.pattern !== 'none' || !onGrid(j.submitS)) return false;
    const w = j.computeS[0]!;
    if (!onGrid(w)) return false;
    for (let i = 0; i < j.tasks; i++) if (j.computeS[i] !== w || j.ioS[i] !== 0) return false;
    boundS = Math.max(boundS, j.submitS) + w;
  }
  return boundS < EXACT_LIMIT_S;
}

function onGrid(s: number): boolean {
  return Number.isInteger(s * GRID) && s < EXACT_LIMIT_S;
}

const ARRIVAL = 0;
const JOB_TIMER = 1;
const ROW_SWITCH = 2;

interface SimEvent {
  timeS: number;
  /** At one instant: job timers (0) first, then arrivals (1) in the order scheduled, row switches (2) last. */
  rank: number;
  seq: number;
  kind: number;
  a: number;
  job: RigidRun | null;
}

interface RigidRun {
  readonly run: JobRun;
  remainingS: number;
  /** When its row became active (NaN while its row is not active). */
  sinceS: number;
  /** Bumped to cancel its pending timer. */
  version: number;
  /** The arming round of its tasks (see the header). */
  epoch: number;
  /** A task re-armed alone in a later round, and that round (-1: none). */
  lateTask: number;
  lateEpoch: number;
  /** Index in its row's list. */
  slot: number;
}

export function simulateRigidGang(jobs: readonly ParallelJob[], nodeCount: number, cfg: SchedulerConfig, options: SimulationOptions = {}): TimeshareRun {
  return new RigidGang(jobs, nodeCount, cfg, options).run();
}

class RigidGang {
  private readonly heap = new MinHeap<SimEvent>(
    (x, y) => x.timeS < y.timeS || (x.timeS === y.timeS && (x.rank < y.rank || (x.rank === y.rank && x.seq < y.seq))),
  );
  private seq = 0;
  private nowS = 0;
  private readonly guard: StallGuard;
  private readonly matrix: GangMatrix;
  private readonly rows: RigidRun[][];
  private readonly waiting = new AdmissionQueue<RigidRun>();
  private readonly runs: JobRun[] = [];
  private readonly computeS: Float64Array;
  private activeRow = -1;
  private rowVersion = 0;
  private rowSwitchS = Infinity;
  private armsSkipped = false;
  private epoch = 0;
  private heldTotal = 0;
  private capacityAtS = 0;
  private idleSlotWhileWaitingS = 0;
  private readonly batch: { epoch: number; column: number; task: Task }[] = [];
  private readonly byRun = new Map<JobRun, RigidRun>();

  constructor(
    private readonly jobs: readonly ParallelJob[],
    private readonly nodeCount: number,
    private readonly cfg: SchedulerConfig,
    options: SimulationOptions,
  ) {
    this.guard = new StallGuard(options, () => this.state());
    this.matrix = new GangMatrix(cfg.mpl, nodeCount);
    this.rows = Array.from({ length: cfg.mpl }, () => []);
    this.computeS = new Float64Array(nodeCount);
  }

  run(): TimeshareRun {
    this.jobs.forEach((job, i) => this.push(job.submitS, 1, ARRIVAL, i, null));
    let ev: SimEvent | undefined;
    while ((ev = this.heap.pop()) !== undefined) {
      this.nowS = ev.timeS;
      this.guard.tick(this.nowS);
      if (ev.kind === ARRIVAL) this.arrive(this.jobs[ev.a]!);
      else if (ev.kind === ROW_SWITCH) {
        if (ev.a === this.rowVersion) this.switchRow();
      } else if (ev.job!.version === ev.a) this.timers(ev.job!);
    }
    const makespanS = this.runs.reduce((m, r) => Math.max(m, r.endS), 0);
    const profiles: ExecutionProfile[] = [];
    for (let n = 0; n < this.nodeCount; n++) profiles.push({ computeS: this.computeS[n]!, spinS: 0, switchS: 0, interruptS: 0, idleS: makespanS - this.computeS[n]! });
    return {
      jobs: this.runs.map(jobOutcome),
      profiles,
      makespanS,
      events: this.guard.count,
      messages: 0,
      idleSlotWhileWaitingS: this.idleSlotWhileWaitingS,
      skewedWaits: 0,
      skewTotalS: 0,
    };
  }

  private state(): string {
    return `${this.runs.length - this.runs.filter((r) => r.tasksLeft === 0).length} jobs running, ${this.waiting.length} waiting`;
  }

  private push(timeS: number, rank: number, kind: number, a: number, job: RigidRun | null): void {
    this.heap.push({ timeS, rank, seq: this.seq++, kind, a, job });
  }

  private accrueCapacity(): void {
    if (this.waiting.length > 0) this.idleSlotWhileWaitingS += (this.nodeCount * this.cfg.mpl - this.heldTotal) * (this.nowS - this.capacityAtS);
    this.capacityAtS = this.nowS;
  }

  private arrive(job: ParallelJob): void {
    this.accrueCapacity();
    const run: JobRun = { job, tasks: [], startS: NaN, endS: NaN, tasksLeft: job.tasks, row: -1 };
    for (let i = 0; i < job.tasks; i++) run.tasks.push(new Task(run, i, 0));
    const rr: RigidRun = { run, remainingS: job.computeS[0]!, sinceS: NaN, version: 0, epoch: -1, lateTask: -1, lateEpoch: -1, slot: -1 };
    this.byRun.set(run, rr);
    this.waiting.push(rr);
    this.admit();
  }

  /** As the general engine's admission (FCFS, then backfilling if configured). */
  private admit(): void {
    this.waiting.admit((rr) => this.matrix.place(rr.run), (rr, placed) => this.start(rr, placed), this.cfg.backfill === true ? (this.cfg.backfillDepth ?? Infinity) : undefined);
  }

  private start(rr: RigidRun, placed: { row: number; columns: number[] }): void {
    this.guard.progress();
    rr.run.startS = this.nowS;
    this.runs.push(rr.run);
    placed.columns.forEach((c, i) => (rr.run.tasks[i]!.node = c));
    this.heldTotal += rr.run.tasks.length;
    const row = this.rows[placed.row]!;
    rr.slot = row.length;
    row.push(rr);
    if (this.activeRow === -1) this.activateRow(placed.row);
    else if (placed.row === this.activeRow) {
      rr.sinceS = this.nowS;
      this.arm(rr, this.epoch++);
    }
  }

  /** Brings a running job's remaining time up to now. */
  private settle(rr: RigidRun): void {
    rr.remainingS -= this.nowS - rr.sinceS;
    rr.sinceS = this.nowS;
  }

  /** Arms a running job's timer in round `epoch` (not when due after the pending row switch: the switch re-arms). */
  private arm(rr: RigidRun, epoch: number): void {
    rr.version++;
    rr.epoch = epoch;
    rr.lateTask = -1;
    const at = this.nowS + Math.max(0, rr.remainingS);
    if (at > this.rowSwitchS) {
      this.armsSkipped = true;
      return;
    }
    this.push(at, 0, JOB_TIMER, rr.version, rr);
  }

  private activateRow(row: number): void {
    if (this.activeRow !== -1)
      for (const rr of this.rows[this.activeRow]!) {
        this.settle(rr);
        rr.sinceS = NaN;
        rr.version++;
      }
    this.activeRow = row;
    this.rowVersion++;
    this.armsSkipped = false;
    if (row === -1) {
      this.rowSwitchS = Infinity;
      return;
    }
    this.rowSwitchS = this.nowS + this.cfg.sliceS;
    this.push(this.rowSwitchS, 2, ROW_SWITCH, this.rowVersion, null);
    const epoch = this.epoch++;
    for (const rr of this.rows[row]!) {
      rr.sinceS = this.nowS;
      this.arm(rr, epoch);
    }
  }

  private switchRow(): void {
    const next = this.matrix.nextRow(this.activeRow);
    if (next !== this.activeRow) {
      this.activateRow(next);
      return;
    }
    this.rowVersion++;
    this.rowSwitchS = this.nowS + this.cfg.sliceS;
    this.push(this.rowSwitchS, 2, ROW_SWITCH, this.rowVersion, null);
    if (this.armsSkipped) {
      this.armsSkipped = false;
      const epoch = this.epoch++;
      for (const rr of this.rows[this.activeRow]!) {
        this.settle(rr);
        this.arm(rr, epoch);
      }
    }
  }

  /**
   * Timers due now: this job's and every other job's due at this instant (all before anything else at this
   * instant), their tasks handled in the order the general engine's node timers would be.
   */
  private timers(first: RigidRun): void {
    const due: RigidRun[] = [first];
    for (;;) {
      const top = this.heap.peek();
      if (top === undefined || top.timeS !== this.nowS || top.rank !== 0) break;
      this.heap.pop();
      this.guard.tick(this.nowS);
      if (top.job!.version === top.a) due.push(top.job!);
    }
    const batch = this.batch;
    batch.length = 0;
    for (const rr of due) {
      this.settle(rr);
      if (rr.remainingS > EPS_S) {
        // Not done within rounding: due again (the general engine re-arms the same way).
        this.arm(rr, this.epoch++);
        continue;
      }
      rr.version++;
      for (const t of rr.run.tasks) batch.push({ epoch: t.index === rr.lateTask ? rr.lateEpoch : rr.epoch, column: t.node, task: t });
    }
    if (due.length > 1 || first.lateTask !== -1) batch.sort((x, y) => x.epoch - y.epoch || x.column - y.column);
    for (let i = 0; i < batch.length; i++) this.taskDone(batch[i]!.task);
  }

  private taskDone(task: Task): void {
    this.guard.progress();
    this.accrueCapacity();
    this.heldTotal--;
    task.state = 'done';
    this.matrix.removeTask(task);
    const run = task.run;
    this.computeS[task.node] = this.computeS[task.node]! + run.job.computeS[task.index]!;
    run.tasksLeft--;
    if (run.tasksLeft === 0) {
      run.endS = this.nowS;
      this.matrix.removeJob(run);
      const row = this.rows[run.row]!;
      const rr = this.byRun.get(run)!;
      this.byRun.delete(run);
      const last = row.pop()!;
      if (last !== rr) {
        row[rr.slot] = last;
        last.slot = rr.slot;
      }
      this.admit();
      if (this.activeRow !== -1 && this.matrix.rowEmpty(this.activeRow)) this.switchRow();
    }
    // The general engine re-arms the node once more: the task now in its cell of the active row, if any
    // (placed or activated just now), comes after the rest of its job.
    if (this.activeRow === -1) return;
    const now = this.matrix.taskAt(this.activeRow, task.node);
    if (now === null) return;
    const rr = this.byRun.get(now.run)!;
    this.settle(rr);
    const at = this.nowS + Math.max(0, rr.remainingS);
    if (at > this.rowSwitchS) {
      this.armsSkipped = true;
      return;
    }
    rr.lateTask = now.index;
    rr.lateEpoch = this.epoch++;
  }
}
