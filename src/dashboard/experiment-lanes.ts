// Which simulations of an experiment the dashboard draws. There are a few charts ("lanes"); a run takes a
// free lane when its first record batch arrives and keeps it while it runs. A run that has ended stays on
// screen for at least `dwellMs`, so that it can be read even when runs take milliseconds; after that its
// lane goes to the next run to start. A run that starts while no lane is free is not drawn: its batches
// are dropped unparsed, which keeps a large matrix cheap for the main thread.
import type { ExperimentWatcher, WatchedRun } from '../experiment/run-experiment.js';
import type { RunRecordEvent } from '../record/events.js';
import type { Dashboard } from './server.js';
import { LiveRecordSource } from './source.js';

/** At most this many charts, whatever the number of worker threads. */
export const MAX_EXPERIMENT_LANES = 4;
export const DEFAULT_DWELL_MS = 1500;

interface Lane {
  readonly runId: number;
  readonly source: LiveRecordSource;
  endedAtMs: number | null;
}

export interface ExperimentLanesOptions {
  readonly lanes: number;
  /** How long an ended run stays on screen at least; default DEFAULT_DWELL_MS. */
  readonly dwellMs?: number;
  readonly nowMs?: () => number;
}

function feed(source: LiveRecordSource, batchJson: string): void {
  for (const event of JSON.parse(batchJson) as RunRecordEvent[]) source.sink(event);
}

export class ExperimentLanes implements ExperimentWatcher {
  private readonly lanes: Lane[] = [];
  private readonly undrawn = new Set<number>();
  private readonly laneCount: number;
  private readonly dwellMs: number;
  private readonly nowMs: () => number;

  constructor(
    private readonly dashboard: Pick<Dashboard, 'setSource'>,
    options: ExperimentLanesOptions,
  ) {
    if (!Number.isInteger(options.lanes) || options.lanes < 1) throw new RangeError(`lanes must be a whole number >= 1, got ${options.lanes}`);
    this.laneCount = options.lanes;
    this.dwellMs = options.dwellMs ?? DEFAULT_DWELL_MS;
    this.nowMs = options.nowMs ?? Date.now;
  }

  runRecords(run: WatchedRun, batchJson: string): void {
    const lane = this.lanes.find((l) => l.runId === run.id);
    if (lane) {
      feed(lane.source, batchJson);
      return;
    }
    if (this.undrawn.has(run.id)) return;
    const index = this.freeLane();
    if (index === null) {
      this.undrawn.add(run.id);
      return;
    }
    const source = new LiveRecordSource(run.name);
    feed(source, batchJson);
    this.lanes[index] = { runId: run.id, source, endedAtMs: null };
    this.dashboard.setSource(index, source);
  }

  runEnded(run: WatchedRun): void {
    this.undrawn.delete(run.id);
    const lane = this.lanes.find((l) => l.runId === run.id);
    if (!lane) return;
    lane.source.end();
    lane.endedAtMs = this.nowMs();
  }

  /** A lane never used, else the one whose run ended longest ago (and at least dwellMs ago), else null. */
  private freeLane(): number | null {
    if (this.lanes.length < this.laneCount) return this.lanes.length;
    const now = this.nowMs();
    let best: number | null = null;
    this.lanes.forEach((l, i) => {
      if (l.endedAtMs === null || now - l.endedAtMs < this.dwellMs) return;
      if (best === null || l.endedAtMs < this.lanes[best]!.endedAtMs!) best = i;
    });
    return best;
  }
}
