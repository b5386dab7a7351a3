// Port (3): information services: what the grid looks like now and what was measured on it up to now.
// An implementation must never reveal the future (a simulated behaviour series past the current time).
import type { FileId, WorkId } from '../model/application.js';
import type { ClusterId, HostId } from '../model/grid.js';

export interface HostInfo {
  readonly id: HostId;
  readonly clusterId: ClusterId;
  /** Index into each Work's run-time lists. */
  readonly arch: number;
  /** When the host is known to leave (a batch pilot's walltime end); the planner places no Work that would end later. */
  readonly leavesAtS?: number;
}

export interface ClusterInfo {
  readonly id: ClusterId;
}

/** The resources that are up now. */
export interface Topology {
  readonly clusters: readonly ClusterInfo[];
  readonly hosts: readonly HostInfo[];
}

/** One measurement at a time in the past (or now). */
export interface Sample {
  readonly timeS: number;
  readonly value: number;
}

export interface InformationService {
  topology(): Topology;
  /** Files present and usable in a cluster's storage now (empty while the cluster is down). */
  storedFiles(clusterId: ClusterId): ReadonlySet<FileId>;
  /** Measured CPU availability of a host as a fraction 0–1, oldest first, at most `maxSamples`, none after now. */
  hostAvailability(hostId: HostId, maxSamples: number): readonly Sample[];
  /** Measured bandwidth of a cluster's link in bytes/s, oldest first, at most `maxSamples`, none after now. */
  linkBandwidthBps(clusterId: ClusterId, maxSamples: number): readonly Sample[];
  /** Measured latency of a cluster's link in milliseconds, oldest first, at most `maxSamples`, none after now. */
  linkLatencyMs(clusterId: ClusterId, maxSamples: number): readonly Sample[];
  /**
   * Hosts on which this Work's program already failed (real runs): place it elsewhere when another host
   * can take it. Optional; absent means no restriction.
   */
  hostsToAvoid?(workId: WorkId): ReadonlySet<HostId>;
  /**
   * True for an up host that takes no new Work (real runs: a machine removed from the real grid file): it
   * finishes the Work it is computing, then goes away through sched_host_failed, which gives the Works
   * queued on it back to the Works to do. Start nothing on it, and plan nothing new on it. Optional; absent
   * means no host is leaving.
   */
  hostIsLeaving?(hostId: HostId): boolean;
  /**
   * True for a host that has left the run for good (real runs: a machine removed from the real grid file,
   * once it has left), as opposed to one that failed and may come back. A sched_host_failed naming the host
   * says when it turns true, even if the host had already failed. Optional; absent means every host that
   * fails may come back.
   */
  hostRemoved?(hostId: HostId): boolean;
}
