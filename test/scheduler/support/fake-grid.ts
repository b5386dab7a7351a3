// A small fake grid for unit tests of the scheduler's state moves: a manual clock, and a GridOS +
// InformationService that log every call, hold files once the test says a transfer finished, and throw if
// the scheduler breaks the FIFO discipline (two transfers on a link, two computations on a host).
import type { Clock, TimerId } from '../../../src/interfaces/clock.js';
import type { GridOS } from '../../../src/interfaces/grid-os.js';
import type { HostInfo, InformationService, Sample, Topology } from '../../../src/interfaces/information.js';
import type { FileId, WorkId } from '../../../src/model/application.js';
import type { ClusterId, HostId } from '../../../src/model/grid.js';

export class FakeClock implements Clock {
  private now = 0;
  private nextId = 1;
  private readonly timers = new Map<TimerId, { atS: number; fn: () => void }>();

  nowS(): number {
    return this.now;
  }
  at(atS: number, fn: () => void): TimerId {
    this.timers.set(this.nextId, { atS: Math.max(atS, this.now), fn });
    return this.nextId++;
  }
  cancel(id: TimerId): void {
    this.timers.delete(id);
  }
  pendingTimes(): number[] {
    return [...this.timers.values()].map((t) => t.atS).sort((a, b) => a - b);
  }
  /** Moves to `tS`, running every timer due by then in time order (set order on ties). */
  advanceTo(tS: number): void {
    for (;;) {
      let next: [TimerId, { atS: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].atS <= tS && (next === undefined || entry[1].atS < next[1].atS)) next = entry;
      if (next === undefined) break;
      this.timers.delete(next[0]);
      this.now = next[1].atS;
      next[1].fn();
    }
    this.now = tS;
  }
}

export type Op =
  | { readonly kind: 'store'; readonly fileId: FileId; readonly clusterId: ClusterId }
  | { readonly kind: 'compute'; readonly workId: WorkId; readonly hostId: HostId }
  | { readonly kind: 'retrieve'; readonly workId: WorkId; readonly hostId: HostId; readonly clusterId: ClusterId };

export class FakeGrid implements GridOS, InformationService {
  readonly log: string[] = [];
  /** Operations started and not reported finished yet, in start order. */
  readonly active: Op[] = [];
  private readonly hosts = new Map<HostId, HostInfo>();
  private readonly stored = new Map<ClusterId, Set<FileId>>();
  bandwidthBps = 1000;
  latencyMs = 0;
  availability = 1;

  addHost(host: HostInfo): HostInfo {
    this.hosts.set(host.id, host);
    if (!this.stored.has(host.clusterId)) this.stored.set(host.clusterId, new Set());
    return host;
  }
  /** The cluster's storage holds the file already (left by an earlier run, say) without the scheduler having sent it. */
  preStore(clusterId: ClusterId, fileId: FileId): void {
    if (!this.stored.has(clusterId)) this.stored.set(clusterId, new Set());
    this.stored.get(clusterId)!.add(fileId);
  }
  removeHost(hostId: HostId): void {
    const host = this.hosts.get(hostId);
    this.hosts.delete(hostId);
    this.dropActive((op) => op.kind === 'compute' && op.hostId === hostId);
    void host;
  }
  /** The cluster goes down: its hosts, its in-flight transfers and (while down) its files. */
  removeCluster(clusterId: ClusterId): void {
    for (const host of [...this.hosts.values()]) if (host.clusterId === clusterId) this.removeHost(host.id);
    this.dropActive((op) => op.kind !== 'compute' && op.clusterId === clusterId);
    this.stored.set(clusterId, new Set());
  }
  private dropActive(pred: (op: Op) => boolean): void {
    for (let k = this.active.length - 1; k >= 0; k--) if (pred(this.active[k]!)) this.active.splice(k, 1);
  }
  clusterOf(hostId: HostId): ClusterId {
    return this.hosts.get(hostId)!.clusterId;
  }
  /** Marks a transfer finished on the grid side (the test then calls sched_fileTransfer_done). */
  finish(op: Op): void {
    const k = this.active.indexOf(op);
    if (k < 0) throw new Error('finish: not active');
    this.active.splice(k, 1);
    if (op.kind === 'store') this.stored.get(op.clusterId)!.add(op.fileId);
  }

  // GridOS
  store(fileId: FileId, clusterId: ClusterId): string {
    if (this.active.some((op) => op.kind !== 'compute' && op.clusterId === clusterId)) throw new Error(`two transfers on link ${clusterId}`);
    this.log.push(`store ${fileId} ${clusterId}`);
    this.active.push({ kind: 'store', fileId, clusterId });
    return `${clusterId}/${fileId}`;
  }
  remove(): void {}
  compute(workId: WorkId, hostId: HostId): void {
    if (this.active.some((op) => op.kind === 'compute' && op.hostId === hostId)) throw new Error(`two computations on ${hostId}`);
    if (!this.hosts.has(hostId)) throw new Error(`compute on unknown host ${hostId}`);
    this.log.push(`compute ${workId} ${hostId}`);
    this.active.push({ kind: 'compute', workId, hostId });
  }
  retrieve(workId: WorkId, hostId: HostId): void {
    const clusterId = this.hosts.get(hostId)?.clusterId ?? this.clusterOfRetired(hostId);
    if (this.active.some((op) => op.kind !== 'compute' && op.clusterId === clusterId)) throw new Error(`two transfers on link ${clusterId}`);
    this.log.push(`retrieve ${workId} ${hostId}`);
    this.active.push({ kind: 'retrieve', workId, hostId, clusterId });
  }
  cancel(workId: WorkId, hostId: HostId): void {
    this.log.push(`cancel ${workId} ${hostId}`);
    this.dropActive((op) => op.kind === 'compute' && op.workId === workId && op.hostId === hostId);
  }
  private clusterOfRetired(hostId: HostId): ClusterId {
    return hostId.split('.')[0]!;
  }

  // InformationService
  topology(): Topology {
    const hosts = [...this.hosts.values()];
    return { clusters: [...new Set(hosts.map((h) => h.clusterId))].map((id) => ({ id })), hosts };
  }
  storedFiles(clusterId: ClusterId): ReadonlySet<FileId> {
    return this.stored.get(clusterId) ?? new Set();
  }
  hostAvailability(_hostId: HostId, _maxSamples: number): readonly Sample[] {
    return [{ timeS: 0, value: this.availability }];
  }
  linkBandwidthBps(): readonly Sample[] {
    return [{ timeS: 0, value: this.bandwidthBps }];
  }
  linkLatencyMs(): readonly Sample[] {
    return [{ timeS: 0, value: this.latencyMs }];
  }
}
