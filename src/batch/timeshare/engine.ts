// The event-driven time-sharing simulation: jobs arrive, the front end admits them FCFS (under gang into the
// matrix, with backfilling if asked; otherwise onto N nodes that each have a free MPL slot), nodes run their
// tasks (round robin or a multilevel feedback queue, node-scheduler.ts), messages cross the interconnect. A node is woken only when something happens on it (a compute phase or a spin ends, a slice
// expires, a task blocks or becomes ready, a message or an interrupt arrives, a gang row switch or a boost
// is due) — never per timer tick. Events at the same instant: CPU timers first, gang row switches last,
// the rest in the order they were scheduled (jobs with equal submission times: in the order given).
// Gang scheduling of rigid jobs alone goes through a per-job fast path (rigid-gang.ts); a stall guard
// ends a run that stops making progress (stall-guard.ts).
import { AdmissionQueue } from './admission-queue.js';
import { MinHeap } from '../../util/min-heap.js';
import { NicQueues, wireTimeS } from './interconnect.js';
import { GangMatrix } from './gang-matrix.js';
import { receivesCount, receivesFrom, sendsTo, validateJob, type ParallelJob } from './job-structure.js';
import { CpuNode, EPS_S } from './node.js';
import { rigidGangApplies, simulateRigidGang } from './rigid-gang.js';
import { jobOutcome, type SimulationOptions, type TimeshareObserver, type TimeshareRun } from './run-result.js';
import { StallGuard } from './stall-guard.js';
import { quantumS } from './node-scheduler.js';
import type { SchedulerConfig } from './strategies/strategy.js';
import { Task, type JobRun } from './task.js';

export type { JobOutcome, SimulationOptions, TimeshareObserver, TimeshareRun } from './run-result.js';

const ARRIVAL = 0;
const NODE_TIMER = 1;
const IO_END = 2;
const AT_NIC = 3;
const DELIVER = 4;
const ROW_SWITCH = 5;
const BOOST = 6;
const WAKE = 7;

/** At one instant: CPU timers first (what ends by now has ended), then the rest in the order they were scheduled, gang row switches last. */
function rank(kind: number): number {
  return kind === NODE_TIMER ? 0 : kind === ROW_SWITCH ? 2 : 1;
}

interface SimEvent {
  timeS: number;
  rank: number;
  seq: number;
  kind: number;
  /** Node index, job index or version, by kind. */
  a: number;
  b: number;
  task: Task | null;
}

/**
 * Simulates `jobs` on `nodes` time-shared nodes under `config`. Gang scheduling of rigid jobs alone (no
 * observer) goes through the per-job fast path (rigid-gang.ts), which gives the same results.
 */
export function simulateTimeshare(jobs: readonly ParallelJob[], nodes: number, config: SchedulerConfig, observer?: TimeshareObserver, options: SimulationOptions = {}): TimeshareRun {
  validateWorkload(jobs, nodes);
  if (observer === undefined && options.rigidFastPath !== false && rigidGangApplies(jobs, config)) return simulateRigidGang(jobs, nodes, config, options);
  return new Engine(jobs, nodes, config, observer, options).run();
}

function validateWorkload(jobs: readonly ParallelJob[], nodeCount: number): void {
  if (!Number.isInteger(nodeCount) || nodeCount < 1) throw new Error(`a time-shared cluster needs a whole number of nodes >= 1, got ${nodeCount}`);
  const ids = new Set<number>();
  for (const job of jobs) {
    validateJob(job, nodeCount);
    if (ids.has(job.id)) throw new Error(`job ${job.id} appears twice; job ids must be unique`);
    ids.add(job.id);
  }
}

class Engine {
  private readonly heap = new MinHeap<SimEvent>(
    (x, y) => x.timeS < y.timeS || (x.timeS === y.timeS && (x.rank < y.rank || (x.rank === y.rank && x.seq < y.seq))),
  );
  private seq = 0;
  private nowS = 0;
  private readonly guard: StallGuard;
  private messages = 0;
  private readonly nodes: CpuNode[];
  private readonly nics: NicQueues;
  private readonly waiting = new AdmissionQueue<JobRun>();
  private readonly runs: JobRun[] = [];
  private readonly matrix: GangMatrix | undefined;
  private activeRow = -1;
  private rowVersion = 0;
  /** When the pending gang row switch is due (Infinity: none). */
  private rowSwitchS = Infinity;
  /** Some node's timer fell after the pending row switch and was not armed (the switch re-arms it). */
  private armsSkipped = false;
  private readonly gang: boolean;
  private heldTotal = 0;
  private capacityAtS = 0;
  private idleSlotWhileWaitingS = 0;
  private skewedWaits = 0;
  private skewTotalS = 0;

  constructor(
    private readonly jobs: readonly ParallelJob[],
    nodeCount: number,
    private readonly cfg: SchedulerConfig,
    private readonly obs: TimeshareObserver | undefined,
    options: SimulationOptions,
  ) {
    this.guard = new StallGuard(options, () => this.state());
    this.nodes = Array.from({ length: nodeCount }, (_, i) => new CpuNode(i, obs));
    this.nics = new NicQueues(nodeCount, cfg.network.dmaS);
    this.gang = cfg.mode === 'gang';
    this.matrix = this.gang ? new GangMatrix(cfg.mpl, nodeCount) : undefined;
  }

  run(): TimeshareRun {
    this.jobs.forEach((job, i) => this.push(job.submitS, ARRIVAL, i, 0, null));
    let ev: SimEvent | undefined;
    while ((ev = this.heap.pop()) !== undefined) {
      this.nowS = ev.timeS;
      this.guard.tick(this.nowS);
      this.handle(ev);
    }
    const makespanS = this.runs.reduce((m, r) => Math.max(m, r.endS), 0);
    for (const n of this.nodes) n.settle(makespanS);
    return {
      jobs: this.runs.map(jobOutcome),
      profiles: this.nodes.map((n) => ({ ...n.profile })),
      makespanS,
      events: this.guard.count,
      messages: this.messages,
      idleSlotWhileWaitingS: this.idleSlotWhileWaitingS,
      skewedWaits: this.skewedWaits,
      skewTotalS: this.skewTotalS,
    };
  }

  private state(): string {
    return `${this.runs.filter((r) => r.tasksLeft > 0).length} jobs running, ${this.waiting.length} waiting`;
  }

  private push(timeS: number, kind: number, a: number, b: number, task: Task | null): void {
    this.heap.push({ timeS, rank: rank(kind), seq: this.seq++, kind, a, b, task });
  }

  private handle(ev: SimEvent): void {
    switch (ev.kind) {
      case ARRIVAL:
        this.arrive(this.jobs[ev.a]!);
        break;
      case NODE_TIMER:
        if (this.nodes[ev.a]!.timerVersion === ev.b) this.nodeTimer(this.nodes[ev.a]!);
        break;
      case IO_END:
        this.ioEnd(ev.task!);
        break;
      case AT_NIC: {
        const at = this.nics.deliverAtS(ev.task!.node, this.nowS);
        if (at <= this.nowS) this.deliver(ev.task!, ev.a);
        else this.push(at, DELIVER, ev.a, 0, ev.task);
        break;
      }
      case DELIVER:
        this.deliver(ev.task!, ev.a);
        break;
      case ROW_SWITCH:
        if (ev.a === this.rowVersion) this.switchRow();
        break;
      case BOOST:
        this.boost(this.nodes[ev.a]!);
        break;
      case WAKE:
        this.wake(ev.task!, ev.a === 1);
        break;
    }
  }

  // ---- front end -------------------------------------------------------------------------------------

  /** Integrates free slots over time while jobs wait; called before the waiting queue or a node's tasks change. */
  private accrueCapacity(): void {
    if (this.waiting.length > 0) this.idleSlotWhileWaitingS += (this.nodes.length * this.cfg.mpl - this.heldTotal) * (this.nowS - this.capacityAtS);
    this.capacityAtS = this.nowS;
  }

  private arrive(job: ParallelJob): void {
    this.accrueCapacity();
    const run: JobRun = { job, tasks: [], startS: NaN, endS: NaN, tasksLeft: job.tasks, row: -1 };
    for (let i = 0; i < job.tasks; i++) run.tasks.push(new Task(run, i, receivesCount(job.pattern, i, job.tasks)));
    this.waiting.push(run);
    this.admit();
  }

  /** Starts the waiting jobs the admission rule lets in (admission-queue.ts: FCFS, then backfilling if configured). */
  private admit(): void {
    this.waiting.admit((run) => (this.gang ? this.placeGang(run) : this.placeDynamic(run)), (run, placed) => this.start(run, placed), this.cfg.backfill === true ? (this.cfg.backfillDepth ?? Infinity) : undefined);
  }

  private start(run: JobRun, columns: readonly number[]): void {
    this.guard.progress();
    run.startS = this.nowS;
    this.runs.push(run);
    columns.forEach((c, i) => this.placeTask(run.tasks[i]!, this.nodes[c]!));
    if (this.gang) {
      if (this.activeRow === -1) this.activateRow(run.row);
      // Its row runs now, or (alternate scheduling) its tasks may fill idle slots of the active row.
      else if (run.row === this.activeRow || this.cfg.alternate) for (const t of run.tasks) this.refresh(this.nodes[t.node]!);
    }
  }

  private placeGang(run: JobRun): number[] | undefined {
    return this.matrix!.place(run)?.columns;
  }

  /** The N nodes holding the fewest tasks among those with a free MPL slot (ties: lower node index). */
  private placeDynamic(run: JobRun): number[] | undefined {
    const free = this.nodes.filter((n) => n.held.length < this.cfg.mpl);
    if (free.length < run.tasks.length) return undefined;
    free.sort((x, y) => x.held.length - y.held.length || x.index - y.index);
    return free.slice(0, run.tasks.length).map((n) => n.index);
  }

  private placeTask(task: Task, node: CpuNode): void {
    node.settle(this.nowS);
    task.node = node.index;
    node.held.push(task);
    this.heldTotal++;
    this.obs?.placed?.(task, this.nowS);
    if (!this.gang) {
      this.makeReady(node, task, false);
      this.refresh(node);
      this.armBoost(node);
    }
  }

  private taskDone(task: Task): void {
    this.accrueCapacity();
    this.heldTotal--;
    const node = this.nodes[task.node]!;
    task.state = 'done';
    if (node.cur === task) node.release();
    const q = node.ready.indexOf(task);
    if (q >= 0) node.ready.splice(q, 1);
    node.held.splice(node.held.indexOf(task), 1);
    this.obs?.left?.(task, this.nowS);
    this.matrix?.removeTask(task);
    const run = task.run;
    run.tasksLeft--;
    if (run.tasksLeft === 0) {
      run.endS = this.nowS;
      this.matrix?.removeJob(run);
    }
    this.refresh(node);
    if (run.tasksLeft === 0) {
      this.admit();
      if (this.gang && this.activeRow !== -1 && this.matrix!.rowEmpty(this.activeRow)) this.switchRow();
    }
  }

  // ---- gang rows ---------------------------------------------------------------------------------------

  /** Every node switches to `row` now; the next switch is one slice later. */
  private activateRow(row: number): void {
    for (const n of this.nodes) n.settle(this.nowS);
    this.activeRow = row;
    this.rowVersion++;
    this.armsSkipped = false;
    this.obs?.rowActive?.(row, this.nowS);
    if (row === -1) {
      this.rowSwitchS = Infinity;
      for (const n of this.nodes) if (n.cur !== null) this.refresh(n);
      return;
    }
    this.pushRowSwitch();
    for (const n of this.nodes) this.refresh(n);
  }

  private pushRowSwitch(): void {
    this.rowSwitchS = this.nowS + this.cfg.sliceS;
    this.push(this.rowSwitchS, ROW_SWITCH, this.rowVersion, 0, null);
  }

  private switchRow(): void {
    const next = this.matrix!.nextRow(this.activeRow);
    if (next === this.activeRow) {
      // The only non-empty row keeps the CPUs: nothing changes on any node.
      this.rowVersion++;
      this.obs?.rowActive?.(next, this.nowS);
      this.pushRowSwitch();
      if (this.armsSkipped) {
        this.armsSkipped = false;
        for (const n of this.nodes) if (n.cur !== null) this.refresh(n);
      }
      return;
    }
    this.activateRow(next);
  }

  // ---- a node's CPU ----------------------------------------------------------------------------------

  /**
   * Brings a node up to date after a change: settles its time, gives the CPU to the task that should
   * have it (gang: the active row's task if runnable; dynamic: the head of the ready queue when the CPU
   * is free), and re-arms its timer.
   */
  private refresh(node: CpuNode): void {
    node.settle(this.nowS);
    if (this.gang) {
      const want = this.activeRow === -1 ? null : this.matrix!.taskAt(this.activeRow, node.index);
      let runnable = want !== null && want.runnable ? want : null;
      if (runnable === null && this.cfg.alternate && this.activeRow !== -1) runnable = this.alternateFor(node);
      if (node.cur !== runnable) {
        if (node.cur !== null) node.release();
        if (runnable !== null) this.dispatch(node, runnable, Infinity);
      }
    } else if (node.cur === null && node.ready.length > 0) {
      const task = node.ready.shift()!;
      this.dispatch(node, task, quantumS(this.cfg, task.level));
    }
    this.arm(node);
  }

  /**
   * A task off the CPU becomes ready (settle first). Round robin: it joins the queue's tail. Multilevel
   * feedback queue: it goes to the highest level — at the head when it comes back from a block or I/O
   * (boosted), at the tail when newly placed — and preempts a running task of a lower level, which goes
   * back to the head of its own level.
   */
  private makeReady(node: CpuNode, task: Task, boosted: boolean): void {
    const m = this.cfg.nodeScheduler;
    if (m === undefined) {
      node.ready.push(task);
      return;
    }
    task.level = m.levels - 1;
    if (boosted) node.enqueueFront(task);
    else node.enqueue(task);
    const cur = node.cur;
    if (cur !== null && cur.level < task.level) {
      node.release();
      node.enqueueFront(cur);
    }
  }

  private dispatch(node: CpuNode, task: Task, sliceS: number): void {
    node.dispatch(task, this.nowS, this.cfg.contextSwitchS, sliceS);
    const waiters = task.skewWaitersS;
    if (waiters !== null && waiters.length > 0) {
      for (const fromS of waiters) this.skewTotalS += this.nowS - fromS;
      this.skewedWaits += waiters.length;
      waiters.length = 0;
    }
  }

  /** Alternate scheduling: the running task if it still has compute, else the first such task in row order after the active row. */
  private alternateFor(node: CpuNode): Task | null {
    if (node.cur !== null && node.cur.state === 'compute') return node.cur;
    const rows = this.cfg.mpl;
    for (let k = 1; k < rows; k++) {
      const t = this.matrix!.taskAt((this.activeRow + k) % rows, node.index);
      if (t !== null && t.state === 'compute') return t;
    }
    return null;
  }

  /**
   * Schedules the node's next event. Under gang scheduling one due after the pending row switch is not
   * scheduled: the switch re-arms every node (a row's tasks mostly outlast a slice, so this saves a heap
   * entry per node per slice). One due exactly at the switch is scheduled: it comes first.
   */
  private arm(node: CpuNode): void {
    node.timerVersion++;
    const at = node.nextEventS(this.cfg.spinThresholdS);
    if (!Number.isFinite(at)) return;
    if (this.gang && at > this.rowSwitchS) {
      this.armsSkipped = true;
      return;
    }
    this.push(Math.max(at, this.nowS), NODE_TIMER, node.index, node.timerVersion, null);
  }

  /**
   * Settles a node before an interrupt or a preemption; a compute phase that ends now (within rounding:
   * its timer may be due a hair later) ends first, as its timer would have come first at one instant.
   */
  private catchUp(node: CpuNode): void {
    node.settle(this.nowS);
    const t = node.cur;
    if (t !== null && t.state === 'compute' && t.remainingS <= EPS_S && node.switchLeftS <= EPS_S && node.interruptLeftS <= EPS_S) this.nodeTimer(node);
  }

  private nodeTimer(node: CpuNode): void {
    node.settle(this.nowS);
    const t = node.cur;
    if (t !== null && node.switchLeftS <= EPS_S && node.interruptLeftS <= EPS_S) {
      if (t.state === 'compute' && t.remainingS <= EPS_S) this.computeDone(t, node);
      else if (t.state === 'spin' && t.spunS >= this.cfg.spinThresholdS - EPS_S) this.block(t, node);
    }
    if (node.cur !== null && node.cur === t && this.nowS >= node.sliceEndS - EPS_S) {
      // Slice expired: (multilevel feedback queue) the task drops a level; it goes to the tail of its level
      // if a ready task is at that level or above, otherwise it goes on with a fresh quantum.
      if (this.cfg.nodeScheduler !== undefined && t.level > 0) t.level--;
      if (node.ready.length > 0 && node.ready[0]!.level >= t.level) {
        node.enqueue(t);
        node.release();
      } else node.sliceEndS = this.nowS + quantumS(this.cfg, t.level);
    }
    this.refresh(node);
  }

  // ---- a task's phases -------------------------------------------------------------------------------

  /** The task (on the CPU) finished its iteration's compute: I/O, or straight to communication. */
  private computeDone(task: Task, node: CpuNode): void {
    this.guard.progress();
    const ioS = task.run.job.ioS[task.index]!;
    if (ioS > 0) {
      task.state = 'io';
      node.release();
      this.push(this.nowS + ioS, IO_END, 0, 0, task);
      return;
    }
    this.communicate(task);
  }

  private ioEnd(task: Task): void {
    this.guard.progress();
    this.nodes[task.node]!.settle(this.nowS);
    this.communicate(task);
    this.refresh(this.nodes[task.node]!);
  }

  /** Sends the iteration's messages, then waits for its own (or goes straight on if they are all in). */
  private communicate(task: Task): void {
    const job = task.run.job;
    const wire = wireTimeS(this.cfg.network, job.messageBytes);
    for (const peer of sendsTo(job.pattern, task.index, job.tasks)) {
      this.messages++;
      this.push(this.nowS + wire, AT_NIC, task.iteration, 0, task.run.tasks[peer]!);
    }
    if (task.messagesIn) this.nextIteration(task);
    else this.beginWait(task);
  }

  private nextIteration(task: Task): void {
    this.guard.progress();
    task.forget(task.iteration);
    task.iteration++;
    if (task.iteration >= task.run.job.iterations) {
      this.taskDone(task);
      return;
    }
    const node = this.nodes[task.node]!;
    const was = task.state;
    task.state = 'compute';
    task.remainingS = task.run.job.computeS[task.index]!;
    // Off the CPU and not already queued (it was blocked or in I/O): it becomes ready.
    if (!this.gang && node.cur !== task && (was === 'blocked' || was === 'io')) this.makeReady(node, task, true);
  }

  private beginWait(task: Task): void {
    const node = this.nodes[task.node]!;
    task.spunS = 0;
    // Scheduling skewness: a task reaching its receive on its CPU, whose senders still have to compute
    // before they send and are off their CPUs. (A task ending its I/O off the CPU is not running: its
    // wait is not counted.)
    const job = task.run.job;
    if (node.cur === task) for (const p of receivesFrom(job.pattern, task.index, job.tasks)) {
      const peer = task.run.tasks[p]!;
      if (peer.state === 'compute' && peer.iteration <= task.iteration && this.nodes[peer.node]!.cur !== peer) (peer.skewWaitersS ??= []).push(this.nowS);
    }
    if (this.cfg.spinThresholdS > 0) {
      const was = task.state;
      task.state = 'spin';
      if (!this.gang && node.cur !== task && was === 'io') this.makeReady(node, task, true);
    } else this.block(task, node);
  }

  private block(task: Task, node: CpuNode): void {
    task.state = 'blocked';
    if (node.cur === task) node.release();
  }

  /**
   * A message is in its destination's memory. A spinning task whose messages are now all in goes on at
   * once. A blocked one is woken by an interrupt (the task is ready when the interrupt is over); under
   * demand, so is any waiting task not on its CPU, and it then preempts the running task.
   */
  private deliver(task: Task, iteration: number): void {
    if (task.state === 'done') return;
    const node = this.nodes[task.node]!;
    this.catchUp(node);
    if ((task.state as string) === 'done') return;
    task.received.set(iteration, (task.received.get(iteration) ?? 0) + 1);
    this.obs?.delivered?.(task, iteration, this.nowS);
    const waiting = task.iteration === iteration && (task.state === 'spin' || task.state === 'blocked');
    if (!waiting) return;
    if (node.cur === task) {
      // Spinning on its CPU: it sees the message itself.
      if (task.messagesIn) this.nextIteration(task);
      this.refresh(node);
      return;
    }
    if (task.wakePending) return; // the wake-up under way will find this message too
    const reschedule = this.cfg.demand;
    if (reschedule || (task.state === 'blocked' && task.messagesIn)) {
      task.wakePending = true;
      this.push(node.interrupt(this.nowS, this.cfg.interruptS), WAKE, reschedule ? 1 : 0, 0, task);
    } else if (task.messagesIn) this.nextIteration(task);
    this.refresh(node);
  }

  /** The interrupt that wakes `task` is over: it is ready (at the head, preempting, under demand). */
  private wake(task: Task, reschedule: boolean): void {
    task.wakePending = false;
    if (task.state === 'done') return;
    const node = this.nodes[task.node]!;
    this.catchUp(node);
    if ((task.state as string) === 'done') return;
    if (task.messagesIn && (task.state === 'spin' || task.state === 'blocked')) this.nextIteration(task);
    else if (task.state === 'blocked') task.state = 'spin';
    if ((task.state as string) === 'done') return;
    if (reschedule && node.cur !== task) {
      const q = node.ready.indexOf(task);
      if (q >= 0) node.ready.splice(q, 1);
      const cur = node.cur;
      if (cur !== null) {
        node.release();
        node.enqueueFront(cur);
      }
      if (this.cfg.nodeScheduler !== undefined) task.level = this.cfg.nodeScheduler.levels - 1;
      node.enqueueFront(task);
    }
    this.refresh(node);
  }

  // ---- periodic boost --------------------------------------------------------------------------------

  /** Arms a node's boost daemon at the next multiple of the period while it holds two tasks or more. */
  private armBoost(node: CpuNode): void {
    const p = this.cfg.boostPeriodS;
    if (!Number.isFinite(p) || node.boostArmed || node.held.length < 2) return;
    node.boostArmed = true;
    this.push((Math.floor(this.nowS / p + EPS_S) + 1) * p, BOOST, node.index, 0, null);
  }

  private boost(node: CpuNode): void {
    node.boostArmed = false;
    // A node left empty has nothing to boost; settling it could account time past the last job's end.
    if (node.held.length === 0) return;
    node.settle(this.nowS);
    const cur = node.cur;
    if (cur !== null && cur.state === 'spin') {
      const q = node.ready.findIndex((t) => t.state === 'compute');
      if (q >= 0) {
        const chosen = node.ready.splice(q, 1)[0]!;
        node.release();
        node.enqueue(cur);
        if (this.cfg.nodeScheduler !== undefined) chosen.level = this.cfg.nodeScheduler.levels - 1;
        node.enqueueFront(chosen);
      }
    }
    this.refresh(node);
    this.armBoost(node);
  }
}
