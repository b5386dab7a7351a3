// Ends a simulation that would otherwise run for ever: a hard limit on events, and a no-progress detector —
// too many events in a row in which no task changed phase (a compute phase, I/O or wait ended, a task
// ended, a job started). A bug that loses a task's timer leaves only periodic events (row switches, boosts)
// in the queue; the run then ends with this error instead of spinning. The no-progress limit is far above
// what a correct run needs (one phase spanning millions of slices); both are options for a run beyond them.
export const DEFAULT_MAX_EVENTS_WITHOUT_PROGRESS = 20_000_000;

/** A run that passed a limit: too long a phase for its time slice, or an engine bug; the message says which to suspect. */
export class StallError extends Error {
  override readonly name = 'StallError';
}

export class StallGuard {
  private events = 0;
  private sinceProgress = 0;
  private readonly maxEvents: number;
  private readonly maxWithoutProgress: number;

  constructor(
    options: { maxEvents?: number | undefined; maxEventsWithoutProgress?: number | undefined } = {},
    /** What is still going on (jobs running, waiting), for the error. */
    private readonly state: () => string = () => 'no state',
  ) {
    this.maxEvents = options.maxEvents ?? Infinity;
    this.maxWithoutProgress = options.maxEventsWithoutProgress ?? DEFAULT_MAX_EVENTS_WITHOUT_PROGRESS;
    for (const [name, v] of [['maxEvents', this.maxEvents], ['maxEventsWithoutProgress', this.maxWithoutProgress]] as const) {
      if (!(v >= 1)) throw new Error(`time-sharing simulation: ${name} must be >= 1, got ${v}`);
    }
  }

  /** Counts one event at simulated time nowS; throws when a limit is passed. */
  tick(nowS: number): void {
    this.events++;
    this.sinceProgress++;
    if (this.events > this.maxEvents) {
      throw new StallError(`time-sharing simulation stopped at ${nowS} s after ${this.maxEvents} events (the event limit, maxEvents); ${this.state()}. Raise the limit if the workload needs more events.`);
    }
    if (this.sinceProgress > this.maxWithoutProgress) {
      throw new StallError(
        `time-sharing simulation stalled at ${nowS} s: ${this.maxWithoutProgress} events in a row without any task changing phase (no compute phase, I/O or wait ended, no task ended, no job started); ${this.state()}. ` +
          'A compute or I/O phase that spans that many time slices needs a longer slice (--slice, or the experiment\'s "slice"); if no phase is that long, this is a bug in the engine (a lost timer): please report it.',
      );
    }
  }

  /** A task changed phase, or a job started. */
  progress(): void {
    this.sinceProgress = 0;
  }

  get count(): number {
    return this.events;
  }
}
