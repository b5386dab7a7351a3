// Checks a time-shared schedule as it happens (a TimeshareObserver), from the stretches of time each node
// reports rather than from the engine's own state: a node's stretches never overlap (one task at a time)
// and leave no gap; a node never holds more than MPL tasks; a task gets CPU time only on the node it was
// placed on, between its placement and its end; under gang scheduling every CPU stretch belongs to the
// active row, and rows switch for all nodes at once; a task never computes in iteration k+1 before all its
// messages of iteration k were delivered; a finished task got exactly its compute time; each node's
// profile adds up to the makespan; and, with the multilevel feedback queue, a task runs only while no task
// of a higher priority level on its node is ready. Used on every test's schedule.
import type { TimeshareObserver, TimeshareRun } from './engine.js';
import { EPS_S as ENGINE_EPS_S, type Activity } from './node.js';
import type { Task } from './task.js';

const EPS_S = 1e-7;
const MAX_REPORTED = 20;

export class TimeshareChecker implements TimeshareObserver {
  private readonly lastToS: Float64Array;
  private readonly held: Int32Array;
  private readonly computedS = new Map<Task, number>();
  private readonly stretches = new Map<Task, number>();
  private readonly deliveries = new Map<Task, Map<number, number>>();
  /** Per task, the iterations (0..k-1) whose messages had all come, in order. */
  private readonly released = new Map<Task, number>();
  private readonly placedOn = new Map<Task, number>();
  private activeRow = -1;
  private readonly found: string[] = [];
  private count = 0;

  constructor(
    nodes: number,
    private readonly mpl: number,
    private readonly gang: boolean,
    /** Gang with alternate scheduling: another row's task may run where the active row's slot has nothing runnable. */
    private readonly alternate = false,
    /** Nodes schedule with a multilevel feedback queue: the running task's level is the highest ready one. */
    private readonly mlfq = false,
  ) {
    this.lastToS = new Float64Array(nodes);
    this.held = new Int32Array(nodes);
    this.heldTasks = Array.from({ length: nodes }, () => []);
  }

  private readonly heldTasks: Task[][];

  violations(): string[] {
    return this.count > this.found.length ? [...this.found, `… and ${this.count - this.found.length} more`] : [...this.found];
  }

  segment(node: number, task: Task | null, kind: Activity, fromS: number, toS: number): void {
    if (Math.abs(fromS - this.lastToS[node]!) > EPS_S) this.report(`node ${node}: a ${kind} stretch from ${fromS} s does not follow the previous one ending at ${this.lastToS[node]} s (two things at once, or a gap)`);
    this.lastToS[node] = toS;
    if (task === null || kind === 'idle' || kind === 'interrupt') return;
    const on = this.placedOn.get(task);
    if (on !== node) {
      this.report(`${task.label} got CPU time (${kind}) on node ${node} at ${fromS} s but is ${on === undefined ? 'not placed (or finished)' : `on node ${on}`}`);
      return;
    }
    if (this.mlfq) this.checkPriority(node, task, kind, fromS);
    if (this.gang && task.run.row !== this.activeRow && !this.alternateAllowed(node, kind)) this.report(`gang: ${task.label} of row ${task.run.row} got CPU time (${kind}) at ${fromS} s while row ${this.activeRow} was active`);
    if (kind !== 'compute') return;
    const perIter = task.run.job.computeS[task.index]!;
    const before = this.computedS.get(task) ?? 0;
    this.computedS.set(task, before + (toS - fromS));
    this.stretches.set(task, (this.stretches.get(task) ?? 0) + 1);
    if (perIter > 0) {
      // The iteration the stretch's middle falls in, less the engine's rounding allowance (a phase within
      // ENGINE_EPS_S of its end counts as done): a sliver of a phase left by rounding and computed after a
      // row switch must not be charged to the next iteration. Rounding may hide a violation by a hair,
      // never invent one.
      const iteration = Math.floor((before + (toS - fromS) / 2 - ENGINE_EPS_S) / perIter);
      const released = task.needs === 0 ? Infinity : (this.released.get(task) ?? 0);
      if (iteration > released) this.report(`${task.label} computed in iteration ${iteration} at ${fromS} s before all its messages of iteration ${iteration - 1} came`);
    }
  }

  /**
   * An alternate may compute (or be switched in) only while the active row's task on the node, if any, is
   * not runnable. Task states are read live: a node reports a stretch before anything on it changes.
   */
  private alternateAllowed(node: number, kind: Activity): boolean {
    if (!this.alternate || kind === 'spin' || this.activeRow === -1) return false;
    for (const [t, on] of this.placedOn) if (on === node && t.run.row === this.activeRow && t.runnable) return false;
    return true;
  }

  /** Levels are read live, as the alternate rule reads states: a node reports a stretch before anything on it changes. */
  private checkPriority(node: number, task: Task, kind: Activity, fromS: number): void {
    for (const u of this.heldTasks[node]!) {
      if (u !== task && u.runnable && u.level > task.level) this.report(`mlfq: ${task.label} (level ${task.level}) got CPU time (${kind}) on node ${node} at ${fromS} s while ${u.label} (level ${u.level}) was ready`);
    }
  }

  placed(task: Task, atS: number): void {
    this.heldTasks[task.node]!.push(task);
    this.placedOn.set(task, task.node);
    this.held[task.node] = this.held[task.node]! + 1;
    if (this.held[task.node]! > this.mpl) this.report(`node ${task.node} holds ${this.held[task.node]} tasks at ${atS} s, over MPL ${this.mpl}`);
    if (task.run.tasks.some((t) => t !== task && this.placedOn.get(t) === task.node)) this.report(`${task.label} placed on node ${task.node}, where another task of its job already is`);
  }

  left(task: Task, atS: number): void {
    const list = this.heldTasks[task.node]!;
    list.splice(list.indexOf(task), 1);
    this.placedOn.delete(task);
    this.held[task.node] = this.held[task.node]! - 1;
    const job = task.run.job;
    const want = job.iterations * job.computeS[task.index]!;
    const got = this.computedS.get(task) ?? 0;
    // Each stretch's length is a difference of two clock readings, each rounded to the clock's precision at
    // atS: a task computed in many stretches late in a long trace may be off by that much per stretch.
    const roundingS = (this.stretches.get(task) ?? 0) * 4 * atS * Number.EPSILON;
    if (Math.abs(got - want) > EPS_S * Math.max(1, job.iterations) + roundingS) this.report(`${task.label} ended at ${atS} s having computed ${got} s of its ${want} s`);
    this.computedS.delete(task);
    this.stretches.delete(task);
    this.deliveries.delete(task);
    this.released.delete(task);
  }

  rowActive(row: number): void {
    this.activeRow = row;
  }

  delivered(task: Task, iteration: number): void {
    let m = this.deliveries.get(task);
    if (m === undefined) this.deliveries.set(task, (m = new Map()));
    m.set(iteration, (m.get(iteration) ?? 0) + 1);
    // Iterations are released in order once all their messages are in.
    let r = this.released.get(task) ?? 0;
    while ((m.get(r) ?? 0) >= task.needs && r < task.run.job.iterations) r++;
    this.released.set(task, r);
  }

  /** The end-of-run checks: every node's profile adds up to the makespan. */
  finish(run: TimeshareRun): string[] {
    run.profiles.forEach((p, i) => {
      const sum = p.computeS + p.spinS + p.switchS + p.interruptS + p.idleS;
      if (Math.abs(sum - run.makespanS) > 1e-6) this.report(`node ${i}: profile adds up to ${sum} s, not the makespan ${run.makespanS} s`);
    });
    return this.violations();
  }

  private report(message: string): void {
    this.count++;
    if (this.found.length < MAX_REPORTED) this.found.push(message);
  }
}
