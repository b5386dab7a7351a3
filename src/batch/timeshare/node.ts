// A cluster node's CPU for time-sharing (Zhang and Sivasubramaniam 2004, section 3.2): up to MPL tasks of
// different jobs are placed on it, one runs at a time. Context switches and interrupts take CPU time in
// which the running task makes no progress. The node keeps its execution profile (compute, spin, context
// switch, interrupt, idle) by settling the time elapsed since it last changed — it is never ticked: the
// engine asks it for the next instant anything can happen (a compute phase or a spin ends, a slice
// expires) and wakes it then, or when a task blocks or becomes ready.
import type { Task } from './task.js';

export type Activity = 'compute' | 'spin' | 'switch' | 'interrupt' | 'idle';

export interface ExecutionProfile {
  computeS: number;
  spinS: number;
  switchS: number;
  interruptS: number;
  idleS: number;
}

/** Told of every stretch of a node's time, in order (the schedule checker listens here). */
export interface SegmentSink {
  segment(node: number, task: Task | null, kind: Activity, fromS: number, toS: number): void;
}

/** Below this, a remaining time counts as none (floating-point sums of slices). */
export const EPS_S = 1e-9;

export class CpuNode {
  /** The task on the CPU (computing, spinning, or being switched in). */
  cur: Task | null = null;
  /** The task that last had the CPU: starting any other one costs a context switch. */
  lastRan: Task | null = null;
  /** Time accounted up to. */
  lastS = 0;
  /** Context switch still to do before cur makes progress. */
  switchLeftS = 0;
  /** Interrupt handling still to do (it holds the CPU whoever runs). */
  interruptLeftS = 0;
  /** When cur's slice ends (Infinity: no slice, e.g. under gang scheduling, where rows switch globally). */
  sliceEndS = Infinity;
  /** Tasks placed here (at most MPL), in placement order. */
  readonly held: Task[] = [];
  /** Runnable tasks not on the CPU (dynamic strategies), highest priority level first, each level in queue order. */
  readonly ready: Task[] = [];
  /** Bumped whenever the node's timer is re-armed (older timer events are stale). */
  timerVersion = 0;
  boostArmed = false;
  readonly profile: ExecutionProfile = { computeS: 0, spinS: 0, switchS: 0, interruptS: 0, idleS: 0 };

  constructor(
    readonly index: number,
    private readonly sink: SegmentSink | undefined,
  ) {}

  /** Accounts the time from lastS to nowS: interrupts first (they preempt anything), then a context switch, then what cur does (or idle). */
  settle(nowS: number): void {
    let dt = nowS - this.lastS;
    if (dt <= 0) return;
    let at = this.lastS;
    this.lastS = nowS;
    if (this.interruptLeftS > 0) {
      const b = Math.min(dt, this.interruptLeftS);
      this.interruptLeftS -= b;
      this.profile.interruptS += b;
      this.emit(this.cur, 'interrupt', at, at + b);
      at += b;
      dt -= b;
    }
    if (dt > 0 && this.switchLeftS > 0) {
      const a = Math.min(dt, this.switchLeftS);
      this.switchLeftS -= a;
      this.profile.switchS += a;
      this.emit(this.cur, 'switch', at, at + a);
      at += a;
      dt -= a;
    }
    if (dt <= 0) return;
    const t = this.cur;
    if (t === null) {
      this.profile.idleS += dt;
      this.emit(null, 'idle', at, nowS);
    } else if (t.state === 'compute') {
      t.remainingS -= dt;
      this.profile.computeS += dt;
      this.emit(t, 'compute', at, nowS);
    } else {
      t.spunS += dt;
      this.profile.spinS += dt;
      this.emit(t, 'spin', at, nowS);
    }
  }

  /** Puts `task` at the tail of its level's part of the ready queue (under round robin: the tail). */
  enqueue(task: Task): void {
    let i = this.ready.length;
    while (i > 0 && this.ready[i - 1]!.level < task.level) i--;
    this.ready.splice(i, 0, task);
  }

  /** Puts `task` at the head of its level's part of the ready queue (under round robin: the head). */
  enqueueFront(task: Task): void {
    let i = 0;
    while (i < this.ready.length && this.ready[i]!.level > task.level) i++;
    this.ready.splice(i, 0, task);
  }

  /** Gives the CPU to `task` now (settle first); a task other than the last one run costs a switch. */
  dispatch(task: Task, nowS: number, contextSwitchS: number, sliceS: number): void {
    this.cur = task;
    if (this.lastRan !== task) {
      this.switchLeftS = contextSwitchS;
      this.lastRan = task;
    }
    this.sliceEndS = nowS + sliceS;
  }

  /** Takes the CPU from cur (settle first); an unfinished switch is abandoned. */
  release(): void {
    this.cur = null;
    this.switchLeftS = 0;
    this.sliceEndS = Infinity;
  }

  /** An interrupt on this node now (settle first): it holds the CPU for interruptS; returns when it is over. */
  interrupt(nowS: number, interruptS: number): number {
    this.interruptLeftS += interruptS;
    return nowS + this.interruptLeftS;
  }

  /**
   * The next instant something happens on this CPU by itself: cur's compute phase ends, its busy-wait
   * reaches the threshold, or its slice ends. Infinity when nothing will.
   */
  nextEventS(spinThresholdS: number): number {
    const t = this.cur;
    if (t === null) return Infinity;
    const base = this.lastS + this.switchLeftS + this.interruptLeftS;
    let at = this.sliceEndS;
    if (t.state === 'compute') at = Math.min(at, base + Math.max(0, t.remainingS));
    else if (t.state === 'spin' && Number.isFinite(spinThresholdS)) at = Math.min(at, base + Math.max(0, spinThresholdS - t.spunS));
    return at;
  }

  private emit(task: Task | null, kind: Activity, fromS: number, toS: number): void {
    if (this.sink !== undefined && toS > fromS) this.sink.segment(this.index, task, kind, fromS, toS);
  }
}
