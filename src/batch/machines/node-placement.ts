// A mesh or torus machine: jobs hold whole nodes (a job's cores are rounded up to a multiple of the cores
// per node), chosen by a processor allocator (node-allocators/). Every start is measured for allocation
// quality (allocation-quality.ts). Under a non-contiguous allocator any job that asks for no more nodes
// than are free can start, so EASY's reservation is a count; under a contiguous one the allocator decides,
// and EASY's reservation asks it (contiguous-reservation.ts).
import type { BatchJob } from '../job.js';
import type { Placement, RunningAllocation } from '../placement.js';
import { countReservation } from '../policies/count-reservation.js';
import type { Reservation } from '../policies/policy.js';
import { AllocationQualityMeter, type AllocationQuality } from './allocation-quality.js';
import { contiguousReservation } from './contiguous-reservation.js';
import { newStateVersion, type FreeNodes, type NodeAllocator } from './node-allocator.js';
import type { Topology } from './topology.js';

export class NodePlacement implements Placement, FreeNodes {
  readonly totalCores: number;
  readonly isFree: Uint8Array;
  count: number;
  /** The quality of the allocation place() made last. */
  lastQuality: AllocationQuality | undefined;
  /** The nodes place() took last, increasing. */
  lastNodes: Int32Array = new Int32Array(0);
  private readonly meter: AllocationQualityMeter;
  /** A contiguous allocator's answers by node count, for the current state (cleared when it changes). */
  private readonly probes = new Map<number, Int32Array | undefined>();
  private probedVersion = -1;
  /** Bumped whenever isFree changes (FreeNodes.version). */
  version = newStateVersion();

  constructor(
    readonly topology: Topology,
    readonly coresPerNode: number,
    readonly allocator: NodeAllocator,
  ) {
    this.totalCores = topology.nodes * coresPerNode;
    this.isFree = new Uint8Array(topology.nodes).fill(1);
    this.count = topology.nodes;
    this.meter = new AllocationQualityMeter(topology);
  }

  get measuredNodes(): number {
    return this.topology.nodes;
  }

  get machineName(): string {
    return this.topology.name;
  }

  get allocatorName(): string {
    return this.allocator.name;
  }

  get freeCores(): number {
    return this.count * this.coresPerNode;
  }

  nodesOf(job: BatchJob): number {
    return Math.ceil(job.cores / this.coresPerNode);
  }

  hold(job: BatchJob): BatchJob {
    const cores = this.nodesOf(job) * this.coresPerNode;
    return cores === job.cores ? job : { ...job, cores };
  }

  canPlace(job: BatchJob): boolean {
    const n = this.nodesOf(job);
    if (n > this.count) return false;
    if (!this.allocator.contiguous) return true;
    return this.probeNodes(job) !== undefined;
  }

  place(job: BatchJob): readonly number[] {
    const n = this.nodesOf(job);
    const nodes = this.allocator.contiguous ? this.probeNodes(job) : this.allocator.allocate(this, n);
    if (nodes === undefined || nodes.length !== n) throw new Error(`allocator ${this.allocator.name} could not place job ${job.id} (${n} nodes, ${this.count} free)`);
    const pairs: number[] = new Array(2 * n);
    for (let i = 0; i < n; i++) {
      const node = nodes[i]!;
      if (this.isFree[node] !== 1) throw new Error(`allocator ${this.allocator.name} gave job ${job.id} node ${node}, which is busy`);
      this.isFree[node] = 0;
      pairs[2 * i] = node;
      pairs[2 * i + 1] = this.coresPerNode;
    }
    this.count -= n;
    this.version = newStateVersion();
    this.lastNodes = nodes;
    this.lastQuality = this.meter.measure(nodes);
    return pairs;
  }

  release(a: readonly number[]): void {
    for (let i = 0; i < a.length; i += 2) this.isFree[a[i]!] = 1;
    this.count += a.length / 2;
    this.version = newStateVersion();
  }

  reservation(nowS: number, running: readonly RunningAllocation[], head: BatchJob): Reservation {
    if (!this.allocator.contiguous) return countReservation(nowS, this.freeCores, running, head);
    return contiguousReservation(nowS, this, running, this.nodesOf(head), (job) => this.probeNodes(job), (job) => this.nodesOf(job));
  }

  fragmentedNodes(head: BatchJob | undefined): number {
    if (head === undefined || !this.allocator.contiguous) return 0;
    return this.nodesOf(head) <= this.count ? this.count : 0;
  }

  /**
   * The nodes a contiguous allocator would give `job` now. Asked once per node count and state: a busy
   * queue asks about many jobs of the same size between two starts.
   */
  private probeNodes(job: BatchJob): Int32Array | undefined {
    if (this.probedVersion !== this.version) {
      this.probes.clear();
      this.probedVersion = this.version;
    }
    const n = this.nodesOf(job);
    if (this.probes.has(n)) return this.probes.get(n);
    const nodes = this.allocator.allocate(this, n);
    this.probes.set(n, nodes);
    return nodes;
  }
}
