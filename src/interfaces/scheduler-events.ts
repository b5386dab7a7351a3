// The scheduler's event entry points: the seven sched_* functions of Berman et al. 1999, §7.3.2, and two for
// real runs (sched_work_recovered, sched_input_lost). A backend (simulated or real) calls them when the grid changes or work
// finishes; nothing else reaches the scheduler.
import type { FileId, WorkId, WorkSpec } from '../model/application.js';
import type { ClusterId, HostId } from '../model/grid.js';
import type { HostInfo } from './information.js';

/** A finished transfer over a cluster's link: an input sent in, or a Work's outputs brought back. */
export type Transfer =
  | { readonly kind: 'input'; readonly fileId: FileId; readonly clusterId: ClusterId }
  | { readonly kind: 'output'; readonly workId: WorkId; readonly clusterId: ClusterId };

/**
 * Why a Work failed. `host-failed`: its host went away; `exit`: it ran and failed; `input-lost`: an input
 * it was to read was gone from its cluster's storage when it was to start (sched_input_lost says which),
 * which is not its failure (the last two: real runs only).
 */
export type WorkFailure =
  | { readonly reason: 'host-failed'; readonly hostId: HostId }
  | { readonly reason: 'input-lost'; readonly hostId: HostId }
  | {
      readonly reason: 'exit';
      readonly hostId: HostId;
      readonly exitCode: number | null;
      readonly signal: string | null;
      readonly stderrTail: string;
    };

export interface SchedulerEvents {
  /** Hosts (possibly of a new cluster) became available. Calls do_plan (re-plan on additions) and do_schedule. */
  sched_new_host(hosts: readonly HostInfo[]): void;
  /** More Works to do (called once with every Work for a parameter sweep). */
  sched_new_work(works: readonly WorkSpec[]): void;
  /** Computations finished on `hostId`; their outputs are in the cluster's storage. Calls do_schedule. */
  sched_work_done(works: readonly WorkId[], hostId: HostId): void;
  /**
   * Hosts went away; their FIFOs are emptied and a running Work fails (sched_work_failed). A host already
   * reported failed is reported again when it is removed for good (InformationService.hostRemoved is then
   * true): nothing more is lost, but a scheduler waiting for it to come back must stop waiting.
   */
  sched_host_failed(hosts: readonly HostId[]): void;
  /** Works failed; they go back to the Works to do until the next do_plan. */
  sched_work_failed(works: readonly WorkId[], failure: WorkFailure): void;
  /** Clusters went away: each of their hosts fails and their link FIFO is emptied. */
  sched_disk_failed(clusters: readonly ClusterId[]): void;
  /** A transfer over a link finished. Calls do_schedule. */
  sched_fileTransfer_done(transfer: Transfer): void;
  /**
   * Real runs only (a simulated host that fails loses its work): Works taken back when `hostId` or its
   * cluster was reported failed turned out to have finished there — the connection had only blinked, and
   * their outputs are in the cluster's storage, which is up again. Each one still to do becomes computed
   * on `hostId` (a copy queued or started meanwhile is dropped, GridOS.cancel for a running one) and its
   * output goes on the link. Calls do_schedule.
   */
  sched_work_recovered?(works: readonly WorkId[], hostId: HostId): void;
  /**
   * Real runs only: inputs a cluster's storage held are gone from it (a scratch file system's purge), the
   * rest of the cluster as it was. Each goes on the link again when a Work there needs it. Calls do_schedule.
   * Without it, the backend fails the whole cluster (sched_disk_failed) instead.
   */
  sched_input_lost?(files: readonly FileId[], clusterId: ClusterId): void;
}
