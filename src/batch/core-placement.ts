// The bag of cores: nodes of equal core counts, no geometry. A job takes cores of any nodes — a node may
// hold several jobs — chosen by a core allocator (allocators/). Any job that asks for no more cores than
// are free can start, so EASY's reservation is a count.
import type { Allocator } from './allocators/allocator.js';
import type { BatchJob } from './job.js';
import type { BatchClusterShape, Placement, RunningAllocation } from './placement.js';
import { countReservation } from './policies/count-reservation.js';
import type { Reservation } from './policies/policy.js';

export class CorePlacement implements Placement {
  readonly machineName = 'bag';
  readonly measuredNodes = undefined;
  readonly lastQuality = undefined;
  readonly totalCores: number;
  readonly freeByNode: Int32Array;
  private free: number;
  /** Every node below this one has no free core (the first-fit allocator starts its walk here). */
  private fullBelow = 0;

  constructor(
    shape: BatchClusterShape,
    private readonly allocator: Allocator,
  ) {
    this.totalCores = shape.nodes * shape.coresPerNode;
    this.freeByNode = new Int32Array(shape.nodes).fill(shape.coresPerNode);
    this.free = this.totalCores;
  }

  get allocatorName(): string {
    return this.allocator.name;
  }

  get freeCores(): number {
    return this.free;
  }

  hold(job: BatchJob): BatchJob {
    return job;
  }

  canPlace(job: BatchJob): boolean {
    return job.cores <= this.free;
  }

  place(job: BatchJob): readonly number[] {
    if (job.cores > this.free) throw new Error(`job ${job.id} (${job.cores} cores) started with ${this.free} free`);
    this.free -= job.cores;
    const pairs = this.allocator.allocate(this.freeByNode, job.cores, this.fullBelow);
    const last = this.freeByNode.length;
    while (this.fullBelow < last && this.freeByNode[this.fullBelow] === 0) this.fullBelow++;
    return pairs;
  }

  release(a: readonly number[]): void {
    for (let i = 0; i < a.length; i += 2) {
      const node = a[i]!;
      this.freeByNode[node] = this.freeByNode[node]! + a[i + 1]!;
      this.free += a[i + 1]!;
      if (node < this.fullBelow) this.fullBelow = node;
    }
  }

  reservation(nowS: number, running: readonly RunningAllocation[], head: BatchJob): Reservation {
    return countReservation(nowS, this.free, running, head);
  }

  fragmentedNodes(): number {
    return 0;
  }
}
