// Where a batch cluster's jobs run: the cluster's free resources, seen through its machine and allocator.
// The bag of cores (core-placement.ts) hands out cores of any node; a mesh or torus
// (machines/node-placement.ts) hands out whole nodes chosen by a processor allocator. Policies never see
// this: they ask the cluster "can this job start?" and, under EASY, for the head job's reservation, and
// the cluster asks its placement.
import type { BatchJob } from './job.js';
import type { AllocationQuality } from './machines/allocation-quality.js';
import type { Reservation, RunningEnd } from './policies/policy.js';

/** A cluster's size: nodes of equal core counts. */
export interface BatchClusterShape {
  readonly nodes: number;
  readonly coresPerNode: number;
}

/** A running job as a placement sees it: its limit, its cores, and where it runs ([node, cores, …]). */
export interface RunningAllocation extends RunningEnd {
  readonly allocation: readonly number[];
}

export interface Placement {
  /** The machine's name and the allocator's, for reports (`bag`, `first-fit`; `mesh:8x8x4`, `gen-alg`). */
  readonly machineName: string;
  readonly allocatorName: string;
  readonly totalCores: number;
  readonly freeCores: number;
  /** The job as this machine holds it (on a mesh, its cores rounded up to whole nodes). */
  hold(job: BatchJob): BatchJob;
  /** Whether `job` (as held) can start now. */
  canPlace(job: BatchJob): boolean;
  /** Takes the resources for `job` (canPlace must be true) and returns them as [node, cores, …]. */
  place(job: BatchJob): readonly number[];
  release(allocation: readonly number[]): void;
  /** EASY's reservation for `head` given the running jobs, earliest expected end first. */
  reservation(nowS: number, running: readonly RunningAllocation[], head: BatchJob): Reservation;
  /** On a mesh or torus, the machine's node count (allocation quality is measured); undefined on the bag. */
  readonly measuredNodes: number | undefined;
  /** The quality of the allocation place() made last (undefined on the bag). */
  readonly lastQuality: AllocationQuality | undefined;
  /** Free nodes that `head` could not use although there were enough of them (contiguous allocation), else 0. */
  fragmentedNodes(head: BatchJob | undefined): number;
}
