// The grid model (Berman et al. 1999, §4, §7.2.1): clusters (a link + a shared storage, the paper's "Disk") holding
// hosts, described as a time-ordered list of events; resource performance comes from behaviour series.

export type ClusterId = string;
export type HostId = string;

/** Where a token came from, for error messages and warnings. Lines and columns start at 1. */
export interface SourcePos {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

interface EventBase {
  readonly timeS: number;
  /** Position in the grid description file; absent for events built in code. */
  readonly pos?: SourcePos;
}

export interface AddCluster extends EventBase {
  readonly kind: 'ADD_CLUSTER';
  readonly cluster: ClusterId;
  readonly behavior: string;
  readonly offset: number;
}
export interface AddHost extends EventBase {
  readonly kind: 'ADD_HOST';
  readonly cluster: ClusterId;
  readonly host: HostId;
  readonly behavior: string;
  readonly offset: number;
  /** Architecture index into each Work's run-time list. */
  readonly arch: number;
  /** A host known to leave at this time (the core of a batch pilot, until its walltime ends). */
  readonly leavesAtS?: number;
}
export interface RemoveCluster extends EventBase {
  readonly kind: 'REMOVE_CLUSTER';
  readonly cluster: ClusterId;
}
export interface RemoveHost extends EventBase {
  readonly kind: 'REMOVE_HOST';
  readonly host: HostId;
}
export interface ChangeHostBehavior extends EventBase {
  readonly kind: 'CHANGE_HOST_BEHAVIOR';
  readonly host: HostId;
  readonly behavior: string;
  readonly offset: number;
}
export interface ChangeClusterBehavior extends EventBase {
  readonly kind: 'CHANGE_CLUSTER_BEHAVIOR';
  readonly cluster: ClusterId;
  readonly behavior: string;
  readonly offset: number;
}

/**
 * A cluster whose cores a batch system hands out (src/batch): `nodes` × `coresPerNode` cores under a batch
 * policy and a node allocator, optionally loaded by other users' jobs from an SWF workload (submit times
 * shifted by `offsetS`). The sweep reaches its cores only through the jobs it submits (pilots): each core
 * of a running pilot is a host (`hostBehavior`, `arch`) until the pilot's walltime ends.
 */
export interface AddBatchCluster extends EventBase {
  readonly kind: 'ADD_BATCH_CLUSTER';
  readonly cluster: ClusterId;
  /** The link's behaviour, as ADD_CLUSTER's. */
  readonly behavior: string;
  readonly offset: number;
  readonly nodes: number;
  /** A mesh or torus (`mesh:8x8x4`), when the cluster has one; absent for the bag of cores. */
  readonly machine?: string;
  readonly coresPerNode: number;
  readonly policy: string;
  /** The allocator's name, parameters included (`linear:hilbert:best-fit`). */
  readonly allocator: string;
  readonly hostBehavior: string;
  readonly arch: number;
  /** The background workload: the SWF file's path (resolved against the grid file's folder). */
  readonly workload?: { readonly path: string; readonly offsetS: number };
  /**
   * Gang-scheduled (`gang:MPL`): up to this many jobs share each core (src/batch/gang-cluster.ts); absent
   * for space sharing.
   */
  readonly gangMpl?: number;
}

export type GridEvent =
  | AddCluster
  | AddHost
  | RemoveCluster
  | RemoveHost
  | ChangeHostBehavior
  | ChangeClusterBehavior
  | AddBatchCluster;

export type GridEventKind = GridEvent['kind'];

/** One sample of a link's behaviour. */
export interface LinkSample {
  readonly latencyMs: number;
  readonly bandwidthBps: number;
}

/** A circular series of link samples (latency ms, bandwidth bytes/s). */
export interface LinkBehavior {
  readonly kind: 'link';
  readonly name: string;
  readonly samples: readonly LinkSample[];
}

/** A circular series of CPU availability percentages (0–100). */
export interface HostBehavior {
  readonly kind: 'host';
  readonly name: string;
  readonly availabilityPct: readonly number[];
}

export type Behavior = LinkBehavior | HostBehavior;

/**
 * A grid description with every behaviour it names loaded. Events are sorted by time (stable); the
 * behaviours are keyed by the name the events use (which is also the file name, relative to the grid file).
 */
export interface GridDescription {
  readonly version: string;
  readonly events: readonly GridEvent[];
  readonly linkBehaviors: ReadonlyMap<string, LinkBehavior>;
  readonly hostBehaviors: ReadonlyMap<string, HostBehavior>;
}

/** The default spacing of behaviour samples (Berman et al. 1999, §7.2.1); configurable per simulation. */
export const DEFAULT_SAMPLE_PERIOD_S = 5;
