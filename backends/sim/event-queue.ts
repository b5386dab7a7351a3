// The simulator's future-event list: a binary min-heap ordered by (time, kind, sequence number).
// Keys live in parallel typed arrays so that comparing and moving entries allocates nothing.

/**
 * The tie order between events due at the same simulated time, lowest first:
 *
 *   0 COMPLETION    a transfer or computation finishes (its result counts before anything else at t)
 *   1 FAILURE       REMOVE_HOST, REMOVE_CLUSTER (a resource lost at t fails before new work starts on it)
 *   2 ADDITION      ADD_CLUSTER, ADD_HOST
 *   3 BEHAVIOR      CHANGE_HOST_BEHAVIOR, CHANGE_CLUSTER_BEHAVIOR (after additions, so a resource added at t
 *                   can be re-described at t)
 *   4 TIMER         a scheduler timer (Clock.at): do_plan sees the grid as every grid event at t left it
 *
 * Equal (time, kind) pairs run in the order they were pushed (sequence number): grid events in file order,
 * completions in the order their activities were (re)scheduled, timers in the order they were set.
 */
export const EventKind = {
  Completion: 0,
  Failure: 1,
  Addition: 2,
  Behavior: 3,
  Timer: 4,
} as const;
export type EventKind = (typeof EventKind)[keyof typeof EventKind];

export class EventQueue<T> {
  private times = new Float64Array(1024);
  private kinds = new Uint8Array(1024);
  private seqs = new Float64Array(1024);
  private items: (T | undefined)[] = new Array<T | undefined>(1024);
  private count = 0;
  private nextSeq = 0;

  get size(): number {
    return this.count;
  }

  /** Adds an event; returns its sequence number (unique, increasing). */
  push(timeS: number, kind: EventKind, item: T): number {
    if (this.count === this.times.length) this.grow();
    const seq = this.nextSeq++;
    let i = this.count++;
    // Sift up, moving parents down into the hole.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(timeS, kind, seq, parent)) break;
      this.move(parent, i);
      i = parent;
    }
    this.times[i] = timeS;
    this.kinds[i] = kind;
    this.seqs[i] = seq;
    this.items[i] = item;
    return seq;
  }

  peekTime(): number {
    return this.count === 0 ? Infinity : this.times[0]!;
  }

  peekKind(): EventKind | undefined {
    return this.count === 0 ? undefined : (this.kinds[0] as EventKind);
  }

  peekSeq(): number {
    return this.count === 0 ? -1 : this.seqs[0]!;
  }

  peekItem(): T | undefined {
    return this.count === 0 ? undefined : this.items[0];
  }

  /** Removes the first event (read it with the peek* methods first). */
  pop(): void {
    if (this.count === 0) return;
    const last = --this.count;
    const t = this.times[last]!;
    const k = this.kinds[last]!;
    const s = this.seqs[last]!;
    const item = this.items[last];
    this.items[last] = undefined;
    if (last === 0) {
      this.items[0] = undefined;
      return;
    }
    // Sift the former last entry down from the root.
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= last) break;
      const right = left + 1;
      const child = right < last && this.lessAt(right, left) ? right : left;
      if (!this.less(this.times[child]!, this.kinds[child]!, this.seqs[child]!, -1, t, k, s)) break;
      this.move(child, i);
      i = child;
    }
    this.times[i] = t;
    this.kinds[i] = k;
    this.seqs[i] = s;
    this.items[i] = item;
  }

  /** True when (time, kind, seq) sorts before the entry at `j` (or before the explicit key when j < 0). */
  private less(time: number, kind: number, seq: number, j: number, jt = 0, jk = 0, js = 0): boolean {
    if (j >= 0) {
      jt = this.times[j]!;
      jk = this.kinds[j]!;
      js = this.seqs[j]!;
    }
    if (time !== jt) return time < jt;
    if (kind !== jk) return kind < jk;
    return seq < js;
  }

  private lessAt(a: number, b: number): boolean {
    return this.less(this.times[a]!, this.kinds[a]!, this.seqs[a]!, b);
  }

  private move(from: number, to: number): void {
    this.times[to] = this.times[from]!;
    this.kinds[to] = this.kinds[from]!;
    this.seqs[to] = this.seqs[from]!;
    this.items[to] = this.items[from];
  }

  private grow(): void {
    const n = this.times.length * 2;
    const times = new Float64Array(n);
    times.set(this.times);
    const kinds = new Uint8Array(n);
    kinds.set(this.kinds);
    const seqs = new Float64Array(n);
    seqs.set(this.seqs);
    this.times = times;
    this.kinds = kinds;
    this.seqs = seqs;
    this.items.length = n;
  }
}
