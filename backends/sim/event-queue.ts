// The simulator's future-event list: a min-heap ordered by (time, kind, sequence number).
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

/** kind · KIND_UNIT + sequence number: one number orders (kind, sequence) (sequence numbers stay below 2^44). */
const KIND_UNIT = 2 ** 44;

/**
 * A 4-ary min-heap (half the levels of a binary one: a pop, the common case, moves fewer entries) keyed by
 * the time and one number for (kind, sequence). Every key is distinct (sequence numbers are), so the order
 * of pops is that of the keys, whatever the heap's shape.
 */
export class EventQueue<T> {
  private times = new Float64Array(1024);
  /** kind · KIND_UNIT + seq. */
  private ranks = new Float64Array(1024);
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
    if (seq >= KIND_UNIT) throw new Error('EventQueue: more than 2^44 events');
    const rank = kind * KIND_UNIT + seq;
    const times = this.times;
    const ranks = this.ranks;
    let i = this.count++;
    // Sift up, moving parents down into the hole.
    while (i > 0) {
      const parent = (i - 1) >> 2;
      const pt = times[parent]!;
      if (timeS > pt || (timeS === pt && rank > ranks[parent]!)) break;
      times[i] = pt;
      ranks[i] = ranks[parent]!;
      this.items[i] = this.items[parent];
      i = parent;
    }
    times[i] = timeS;
    ranks[i] = rank;
    this.items[i] = item;
    return seq;
  }

  peekTime(): number {
    return this.count === 0 ? Infinity : this.times[0]!;
  }

  peekKind(): EventKind | undefined {
    return this.count === 0 ? undefined : (Math.floor(this.ranks[0]! / KIND_UNIT) as EventKind);
  }

  peekSeq(): number {
    return this.count === 0 ? -1 : this.ranks[0]! % KIND_UNIT;
  }

  peekItem(): T | undefined {
    return this.count === 0 ? undefined : this.items[0];
  }

  /** Removes the first event (read it with the peek* methods first). */
  pop(): void {
    if (this.count === 0) return;
    const last = --this.count;
    const times = this.times;
    const ranks = this.ranks;
    const items = this.items;
    const t = times[last]!;
    const r = ranks[last]!;
    const item = items[last];
    items[last] = undefined;
    if (last === 0) {
      items[0] = undefined;
      return;
    }
    // Sift the former last entry down from the root: the least of up to four children moves up.
    let i = 0;
    for (;;) {
      const first = 4 * i + 1;
      if (first >= last) break;
      let child = first;
      let ct = times[first]!;
      let cr = ranks[first]!;
      const end = Math.min(first + 4, last);
      for (let c = first + 1; c < end; c++) {
        const ctt = times[c]!;
        if (ctt < ct || (ctt === ct && ranks[c]! < cr)) {
          child = c;
          ct = ctt;
          cr = ranks[c]!;
        }
      }
      if (ct > t || (ct === t && cr > r)) break;
      times[i] = ct;
      ranks[i] = cr;
      items[i] = items[child];
      i = child;
    }
    times[i] = t;
    ranks[i] = r;
    items[i] = item;
  }

  private grow(): void {
    const n = this.times.length * 2;
    const times = new Float64Array(n);
    times.set(this.times);
    const ranks = new Float64Array(n);
    ranks.set(this.ranks);
    this.times = times;
    this.ranks = ranks;
    this.items.length = n;
  }
}
