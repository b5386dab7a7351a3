// The clock the scheduler reads and sets timers on: simulated time in the simulator, wall time for real.

export type TimerId = number;

export interface Clock {
  /** Seconds since the run started. */
  nowS(): number;
  /** Call `fn` once at time `atS` (or as soon as possible if `atS` is already past). */
  at(atS: number, fn: () => void): TimerId;
  /** Forget a timer that has not fired yet; no-op otherwise. */
  cancel(id: TimerId): void;
}
