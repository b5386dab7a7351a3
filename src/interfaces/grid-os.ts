// Port (2): the grid operating system (Berman et al. 1999, §7.3.4). The scheduler starts transfers and computations
// through it; completions and failures come back through SchedulerEvents. Every call returns at once:
// the work it starts finishes later (in simulated time or for real).
//
// The scheduler guarantees the FIFO discipline of the model: it starts at most one transfer at a time on
// a cluster's link (inputs and outputs alike) and at most one computation at a time on a host. A backend
// may check this and must report a violation as a bug, not queue silently.
import type { FileId, WorkId } from '../model/application.js';
import type { ClusterId, HostId } from '../model/grid.js';

/** Names one stored copy of a file in one cluster's storage, as returned by `store`. */
export type Capability = string;

export interface GridOS {
  /** Send input `fileId` from the origin over `clusterId`'s link into its storage (do_store). */
  store(fileId: FileId, clusterId: ClusterId): Capability;
  /** Remove a stored copy (do_remove). Never called while a computation needs it. */
  remove(capability: Capability): void;
  /** Run `workId` on `hostId`; every input is already in the host's cluster storage (do_computation). */
  compute(workId: WorkId, hostId: HostId): void;
  /** Send the outputs of `workId`, computed on `hostId`, back to the origin over its cluster's link (do_retrieve). */
  retrieve(workId: WorkId, hostId: HostId): void;
  /** Stop the computation of `workId` on `hostId` (cancel_computation); no completion is reported for it. */
  cancel(workId: WorkId, hostId: HostId): void;
}
