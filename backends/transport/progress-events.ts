// What a real run tells its user as it goes (`gridsweep run` prints one line per event): tasks done and
// failed, inputs stored, machines down, up, joining and leaving, tasks collected, adopted or recovered, pilot
// jobs.
import type { FileId, WorkId } from '../../src/model/application.js';
import type { ClusterId, HostId } from '../../src/model/grid.js';

export type ProgressEvent =
  | { readonly kind: 'done'; readonly work: WorkId; readonly host: HostId; readonly done: number; readonly total: number }
  | { readonly kind: 'failed'; readonly work: WorkId; readonly host: HostId; readonly reason: string; readonly final: boolean }
  | { readonly kind: 'stored'; readonly file: FileId; readonly cluster: ClusterId; readonly sizeBytes: number; readonly seconds: number }
  | { readonly kind: 'down'; readonly machine: string; readonly reason: string }
  | { readonly kind: 'up'; readonly machine: string }
  | { readonly kind: 'unusable'; readonly machine: string; readonly reason: string }
  /** Inputs gone from a cluster's storage (a purge) when a task was to start there: sent again, the task runs again. */
  | { readonly kind: 'input-lost'; readonly cluster: ClusterId; readonly paths: readonly string[]; readonly work: WorkId }
  /** An SSH host given no "slots" has more cores than its one slot (said once per host and run). */
  | { readonly kind: 'cores'; readonly machine: string; readonly cores: number; readonly slots: number }
  /** A machine added to the real grid file is joining the run. */
  | { readonly kind: 'joining'; readonly machine: string; readonly cluster: ClusterId }
  /** A machine removed from the real grid file: it finishes its current task, then leaves. */
  | { readonly kind: 'leaving'; readonly machine: string; readonly running: readonly WorkId[] }
  | { readonly kind: 'left'; readonly machine: string }
  /** A task that finished while no controller ran (a run killed, now resumed): its outputs collected and verified. */
  | { readonly kind: 'collected'; readonly work: WorkId; readonly host: HostId }
  /** A task lost with its machine's connection that finished meanwhile: found when the machine came back, not run again. */
  | { readonly kind: 'recovered'; readonly work: WorkId; readonly host: HostId; readonly adopted?: boolean }
  /** A task lost with its machine's connection and still running when the machine answered again: adopted (its exit watched), not killed. */
  | { readonly kind: 'adopted'; readonly work: WorkId; readonly host: HostId }
  /** A Slurm pilot job was submitted, started, or ended (`job` is '-' when none was submitted). */
  | { readonly kind: 'pilot'; readonly cluster: ClusterId; readonly job: string; readonly message: string };
