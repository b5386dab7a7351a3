// Each cluster of a real run as the scheduler sees it: up or down, the inputs stored in it, and its link
// to the origin, which carries one transfer at a time (the scheduler's FIFO discipline: a second one is a
// bug). A cluster goes down when its last machine does or its storage misbehaves: its epoch moves on, so
// that transfers started before are forgotten when they settle, and what it stored is forgotten. A
// transfer runs through any machine of the cluster that is up, moving on to another when one goes down.
import type { SchedulerEvents } from '../../../src/interfaces/scheduler-events.js';
import type { FileId } from '../../../src/model/application.js';
import type { ClusterId } from '../../../src/model/grid.js';
import { transferDeadlineS, type Deadlines } from '../../transport/deadline.js';
import { EndpointDownError, type Endpoint } from '../../transport/endpoint.js';
import type { GridMeasurements } from '../grid-measurements.js';
import { OriginWriteError } from '../origin-failure.js';
import type { RunRecords } from './run-records.js';

export interface ClusterLink {
  readonly id: ClusterId;
  /** Its machines in the run (those removed from the real grid file leave this list once drained). */
  readonly endpoints: Endpoint[];
  /** The scheduler currently counts this cluster as up. */
  readonly up: boolean;
  /** Bumped when the cluster goes down, so that transfers started before are forgotten. */
  readonly epoch: number;
  readonly stored: Set<FileId>;
  readonly linkBusy: boolean;
}

type Mutable = { -readonly [K in keyof ClusterLink]: ClusterLink[K] } & { linkSubtask?: number };

export class ClusterLinks {
  private readonly clusters = new Map<ClusterId, Mutable>();

  constructor(
    private readonly records: RunRecords,
    private readonly measured: GridMeasurements,
    private readonly deadlines: Deadlines,
    private readonly isStopped: () => boolean,
  ) {}

  /** The cluster `id`, made (down, empty) on first use. */
  ensure(id: ClusterId): ClusterLink {
    let c = this.clusters.get(id);
    if (!c) {
      c = { id, endpoints: [], up: false, epoch: 0, stored: new Set(), linkBusy: false };
      this.clusters.set(id, c);
    }
    return c;
  }

  get(id: ClusterId): ClusterLink {
    const c = this.clusters.get(id);
    if (!c) throw new Error(`unknown cluster ${id}`);
    return c;
  }

  find(id: ClusterId): ClusterLink | undefined {
    return this.clusters.get(id);
  }

  all(): IterableIterator<ClusterLink> {
    return this.clusters.values();
  }

  /** A machine of the cluster answered: the cluster is up (recorded the first time). */
  markUp(link: ClusterLink): void {
    const c = this.mutable(link);
    if (c.up) return;
    c.up = true;
    this.records.clusterAdded(c.id);
  }

  /**
   * The scheduler's view of the cluster goes down (its last machine lost, its storage failed, or its last
   * machine removed from the real grid file): its stored files and the transfer in progress are forgotten
   * and the scheduler told (sched_disk_failed), when attached.
   */
  markDown(link: ClusterLink, events: SchedulerEvents | undefined): void {
    const c = this.mutable(link);
    c.up = false;
    c.epoch++;
    c.stored.clear();
    if (c.linkBusy) this.release(c, false);
    this.records.clusterRemoved(c.id);
    if (events) events.sched_disk_failed([c.id]);
  }

  /** A transfer starts over the link: recorded as sub-task `subtask`. Two at once is the scheduler's bug. */
  take(link: ClusterLink, what: string, startSubtask: () => number): void {
    const c = this.mutable(link);
    if (!c.up) throw new Error(`bug: ${what} over the link of cluster ${c.id}, which is down`);
    if (c.linkBusy) throw new Error(`bug: ${what} over the link of cluster ${c.id} while another transfer is in progress (one at a time per link)`);
    c.linkBusy = true;
    c.linkSubtask = startSubtask();
  }

  /** The transfer over the link ended (ok or not): its sub-task ends, the link is free. */
  release(link: ClusterLink, ok: boolean): void {
    const c = this.mutable(link);
    if (c.linkSubtask !== undefined) this.records.subtaskEnded(c.linkSubtask, ok);
    c.linkSubtask = undefined;
    c.linkBusy = false;
  }

  /**
   * Runs a transfer through a machine of the cluster that is up (the preferred one first), moving on to
   * another one when the machine goes down mid-way. Resolves false when none is left (the cluster is down)
   * or the cluster went down meanwhile (its epoch moved on).
   */
  async onSomeEndpoint(c: ClusterLink, epoch: number, op: (e: Endpoint) => Promise<void>, prefer?: Endpoint): Promise<boolean> {
    const tried = new Set<Endpoint>();
    while (c.epoch === epoch && !this.isStopped()) {
      const candidates = c.endpoints.filter((e) => e.isUp() && !tried.has(e));
      const e = prefer && candidates.includes(prefer) ? prefer : candidates[0];
      if (!e) return false;
      try {
        await op(e);
        return true;
      } catch (err) {
        if (err instanceof OriginWriteError || (!(err instanceof EndpointDownError) && e.isUp())) throw err;
        tried.add(e);
      }
    }
    return false;
  }

  /** A transfer's deadline on the cluster's link, from the median of its measured bandwidths. */
  transferDeadlineS(c: ClusterLink, sizeBytes: number): number {
    return transferDeadlineS(this.deadlines, sizeBytes, this.measured.medianBandwidthBps(c.id));
  }

  /** A machine of the cluster that is up, if any (the first listed). */
  someMachineUp(c: ClusterLink): Endpoint | undefined {
    return c.endpoints.find((x) => x.isUp());
  }

  private mutable(link: ClusterLink): Mutable {
    const c = this.clusters.get(link.id);
    if (c !== link) throw new Error(`bug: cluster ${link.id} is not one of this run's`);
    return c;
  }
}
