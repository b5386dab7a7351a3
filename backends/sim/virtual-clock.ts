// Simulated time for the scheduler: Clock.at() timers become events in the simulator's queue.
import type { Clock, TimerId } from '../../src/interfaces/clock.js';

export interface TimerEntry {
  readonly id: TimerId;
  readonly fn: () => void;
}

export class VirtualClock implements Clock {
  private now = 0;
  private nextId = 1;
  private readonly pending = new Map<TimerId, TimerEntry>();

  /** `enqueue` puts a timer into the simulator's queue at the given time. */
  constructor(private readonly enqueue: (atS: number, entry: TimerEntry) => void) {}

  nowS(): number {
    return this.now;
  }

  at(atS: number, fn: () => void): TimerId {
    if (Number.isNaN(atS)) throw new Error('Clock.at: the time is NaN');
    const entry: TimerEntry = { id: this.nextId++, fn };
    this.pending.set(entry.id, entry);
    // A time already past fires as soon as possible: now, after every other kind of event due now.
    if (atS !== Infinity) this.enqueue(Math.max(atS, this.now), entry);
    return entry.id;
  }

  cancel(id: TimerId): void {
    this.pending.delete(id);
  }

  /** Moves simulated time forward (only the simulator calls this). */
  advanceTo(tS: number): void {
    if (tS < this.now) throw new Error(`VirtualClock: time cannot go back from ${this.now} to ${tS}`);
    this.now = tS;
  }

  /** The timer's callback if it is still pending (it is then no longer pending), else undefined. */
  take(entry: TimerEntry): (() => void) | undefined {
    return this.pending.delete(entry.id) ? entry.fn : undefined;
  }
}
