// The run record: one JSON object per line, in time order, written by simulated and real runs alike.
// It holds enough to redraw the Gantt chart and to check the run (test/support/invariants).
import type { FileId, WorkId } from '../model/application.js';
import type { ClusterId, GridEvent, HostId } from '../model/grid.js';

/** The three kinds of sub-task of a Work (Berman et al. 1999, Fig. 4). */
export type SubtaskKind = 'input' | 'compute' | 'output';

/** A resource of the Gantt chart: a cluster's link or a host. */
export type ResourceRef = { readonly type: 'link'; readonly cluster: ClusterId } | { readonly type: 'host'; readonly host: HostId; readonly cluster: ClusterId };

export interface RunHeader {
  readonly type: 'header';
  readonly t: 0;
  readonly gridsweepVersion: string;
  readonly mode: 'sim' | 'real';
  readonly heuristic: string;
  readonly seed: number;
  /** Names and SHA-256 hashes of the inputs (application, grid, behaviour files, sweep). */
  readonly inputs: Readonly<Record<string, { readonly path: string; readonly sha256: string }>>;
  /** Every scheduler and backend option in force, so that the run can be repeated. */
  readonly options: Readonly<Record<string, unknown>>;
  readonly taskCount: number;
}

/**
 * A sub-task started on a resource. `id` pairs it with its `end`. An input transfer names its `file`
 * (shared by the Works that need it, so no `work`); compute and output name their `work`.
 */
export interface SubtaskStart {
  readonly type: 'start';
  readonly t: number;
  readonly id: number;
  readonly kind: SubtaskKind;
  readonly resource: ResourceRef;
  readonly work?: WorkId;
  readonly file?: FileId;
  readonly sizeBytes?: number;
}

/** A sub-task ended: `ok` false when its resource failed (or it was cancelled) before it finished. */
export interface SubtaskEnd {
  readonly type: 'end';
  readonly t: number;
  readonly id: number;
  readonly ok: boolean;
}

/** A grid event took effect (from a grid description, or observed on a real grid). */
export interface GridEventRecord {
  readonly type: 'grid';
  readonly t: number;
  readonly event: GridEvent;
}

/** A sched_* entry point was called. */
export interface SchedCallRecord {
  readonly type: 'sched';
  readonly t: number;
  readonly call: string;
  readonly works?: readonly WorkId[];
  readonly hosts?: readonly HostId[];
  readonly clusters?: readonly ClusterId[];
  readonly file?: FileId;
}

/** do_plan() ran: how long it took on the CPU, how many Works it placed, when the next call is due. */
export interface PlanRecord {
  readonly type: 'plan';
  readonly t: number;
  readonly cpuMs: number;
  readonly simulatedDurationS: number;
  readonly consideredWorks: number;
  readonly plannedWorks: number;
  readonly nextPlanS: number | null;
}

/** A Work finished: its outputs are at the origin (and, for real runs, verified). */
export interface WorkDoneRecord {
  readonly type: 'work-done';
  readonly t: number;
  readonly work: WorkId;
  readonly host: HostId;
}

/**
 * A Work failed on a host; it will be retried unless `final`. The schedulers' reasons: `host-failed` (the
 * host went away while computing it), `exit` (its program failed; real runs), `outputs-lost` (its outputs
 * were lost with their cluster's storage) and `host-removed` (a replay only: the host the record gave it
 * to was removed from the real grid file, and the record has no other place for it; always final, and the
 * Work may never have been computed there).
 */
export interface WorkFailedRecord {
  readonly type: 'work-failed';
  readonly t: number;
  readonly work: WorkId;
  readonly host: HostId;
  readonly reason: string;
  readonly final: boolean;
}

/** How a real run's timeline compared with the simulation that predicted it (`gridsweep run --replay/--compare`). */
export interface PredictionComparison {
  /** The simulation's run record. */
  readonly record: string;
  readonly predictedMakespanS: number;
  readonly actualMakespanS: number;
  /** Works whose computation started in both runs. */
  readonly tasksCompared: number;
  /** |actual − predicted| start time of each Work's (last, successful) computation: median and max. */
  readonly startDeviationMedianS: number;
  readonly startDeviationMaxS: number;
  /** Works computed on the host the simulation used, of those compared. */
  readonly sameHostWorks: number;
}

/**
 * A job of a batch-managed cluster (src/batch): another user's job from its workload (`job` ≥ 1, the SWF
 * number) or one of the sweep's pilots (`job` ≤ −1). `submit` gives the request; `reserve`, the first start
 * a backfilling policy promised it (it must start no later); `start`, the cores it took as pairs [node,
 * cores, …]; `end`, whether it was killed at its requested time.
 */
export interface BatchJobRecord {
  readonly type: 'job';
  readonly t: number;
  readonly cluster: ClusterId;
  readonly job: number;
  readonly event: 'submit' | 'reserve' | 'start' | 'end';
  readonly cores?: number;
  readonly requestedS?: number;
  readonly reservedS?: number;
  readonly allocation?: readonly number[];
  readonly killed?: boolean;
}

/** The run ended. `makespanS` is the time the last output reached the origin. */
export interface RunEnd {
  readonly type: 'run-end';
  readonly t: number;
  readonly makespanS: number;
  readonly worksDone: number;
  readonly worksFailed: number;
  /** Real runs given a simulation record: predicted versus actual timeline. */
  readonly prediction?: PredictionComparison;
}

export type RunRecordEvent =
  | RunHeader
  | SubtaskStart
  | SubtaskEnd
  | GridEventRecord
  | SchedCallRecord
  | PlanRecord
  | WorkDoneRecord
  | WorkFailedRecord
  | BatchJobRecord
  | RunEnd;

/** Where run-record events go: a file, a dashboard stream, memory in tests, or several of these. */
export type RecordSink = (event: RunRecordEvent) => void;

/** The sink of a run nobody records: whoever is handed it may skip building its events. */
export const NO_RECORD: RecordSink = () => {};
