// The run-record sink of an experiment worker when a dashboard watches: it gathers a run's events and hands
// them on as JSON arrays, one per batch, so that a fast simulation costs the main thread a few messages
// rather than thousands. A batch goes when it holds `maxEvents` events, when `maxIntervalMs` have passed
// since the last one went (simulations are synchronous: no timer could fire), and at `flush()`.
// Batches are JSON text because the main thread parses only the runs it shows and drops the others unread.
import type { RecordSink, RunRecordEvent } from '../record/events.js';

export interface RecordBatcherOptions {
  /** Default 1000. */
  readonly maxEvents?: number;
  /** Default 100. */
  readonly maxIntervalMs?: number;
  /** Milliseconds from any origin; default performance.now. */
  readonly nowMs?: () => number;
}

export class RecordBatcher {
  private lines: string[] = [];
  private lastPostMs: number;
  private readonly maxEvents: number;
  private readonly maxIntervalMs: number;
  private readonly nowMs: () => number;

  constructor(
    private readonly post: (batchJson: string) => void,
    options: RecordBatcherOptions = {},
  ) {
    this.maxEvents = options.maxEvents ?? 1000;
    this.maxIntervalMs = options.maxIntervalMs ?? 100;
    this.nowMs = options.nowMs ?? (() => performance.now());
    this.lastPostMs = this.nowMs();
  }

  readonly sink: RecordSink = (event: RunRecordEvent) => {
    this.lines.push(JSON.stringify(event));
    if (this.lines.length >= this.maxEvents || this.nowMs() - this.lastPostMs >= this.maxIntervalMs) this.flush();
  };

  /** Posts what is gathered, if anything. */
  flush(): void {
    this.lastPostMs = this.nowMs();
    if (this.lines.length === 0) return;
    const json = `[${this.lines.join(',')}]`;
    this.lines = [];
    this.post(json);
  }
}
