// The Clock of real runs: wall time in seconds since the run started, timers on Node's event loop.
import { performance } from 'node:perf_hooks';
import type { Clock, TimerId } from '../../src/interfaces/clock.js';
import { setLongTimeout, type LongTimeout } from '../../src/util/long-timeout.js';

export class WallClock implements Clock {
  private readonly startMs = performance.now();
  private readonly timers = new Map<TimerId, LongTimeout>();
  private nextId = 1;

  nowS(): number {
    return (performance.now() - this.startMs) / 1000;
  }

  at(atS: number, fn: () => void): TimerId {
    const id = this.nextId++;
    const delayMs = Math.max(0, (atS - this.nowS()) * 1000);
    const handle = setLongTimeout(() => {
      this.timers.delete(id);
      fn();
    }, delayMs);
    this.timers.set(id, handle);
    return id;
  }

  cancel(id: TimerId): void {
    const handle = this.timers.get(id);
    handle?.clear();
    this.timers.delete(id);
  }

  /** Forgets every pending timer (end of run), so that the process can exit. */
  cancelAll(): void {
    for (const handle of this.timers.values()) handle.clear();
    this.timers.clear();
  }
}
