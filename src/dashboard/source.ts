// What the dashboard shows: named run records, either finished (played back on a virtual clock) or
// live (a real run feeding its RecordSink; shown as events arrive).
import type { RecordSink, RunRecordEvent } from '../record/events.js';

/** A finished run record, replayed on the dashboard's shared clock. */
export interface RecordedSource {
  readonly name: string;
  readonly events: readonly RunRecordEvent[];
}

/**
 * A run in progress: pass `sink` to the run (alone or beside the file sink) and `end()` when it stops.
 * It keeps every event so that late joiners and restarts see the whole run.
 */
export class LiveRecordSource {
  readonly live = true;
  readonly events: RunRecordEvent[] = [];
  private ended = false;

  constructor(readonly name: string) {}

  readonly sink: RecordSink = (event) => {
    if (!this.ended) this.events.push(event);
  };

  end(): void {
    this.ended = true;
  }

  get isEnded(): boolean {
    return this.ended;
  }
}

export type DashboardSource = RecordedSource | LiveRecordSource;

export function isLive(source: DashboardSource): source is LiveRecordSource {
  return source instanceof LiveRecordSource;
}

/** Sends events to several sinks (e.g. the record file and a live dashboard source). */
export function teeSinks(...sinks: readonly RecordSink[]): RecordSink {
  return (event) => {
    for (const s of sinks) s(event);
  };
}
