// What changed between two versions of a real grid file, as a run can apply it: machines (endpoints)
// added or removed, per cluster. A machine whose settings changed (address, port, slots, arch...) is
// removed and added again. What a run cannot change on the fly (the origin, a cluster's storage, a Slurm
// cluster's settings, a new Slurm cluster) is listed in `notApplied` so that the user hears of it.
import type { ClusterId } from '../model/grid.js';
import type { GridEndpointSpec, RealClusterSpec, RealGrid } from './real-grid-file.js';

export interface EndpointRef {
  readonly cluster: RealClusterSpec;
  readonly endpoint: GridEndpointSpec;
}

export interface RealGridChange {
  /** Machines to take out of the run (they finish their current task first). */
  readonly removed: readonly EndpointRef[];
  /** Machines to bring into the run (after the removed ones of the same name have left). */
  readonly added: readonly EndpointRef[];
  /** Edits the run ignores, one sentence each. */
  readonly notApplied: readonly string[];
  /** `after` as the run now sees it: the origin and each existing cluster's storage kept from `before`. */
  readonly effective: RealGrid;
}

function endpointKey(cluster: ClusterId, e: GridEndpointSpec): string {
  return `${cluster}\u0000${e.name}`;
}

function endpoints(grid: RealGrid): Map<string, EndpointRef> {
  const out = new Map<string, EndpointRef>();
  for (const cluster of grid.clusters) for (const endpoint of cluster.endpoints) out.set(endpointKey(cluster.id, endpoint), { cluster, endpoint });
  return out;
}

/**
 * The change from `before` to `after`. A cluster keeps the storage it had when the run started: a new
 * storage for an existing cluster is not applied (its machines are still compared and changed).
 */
export function diffRealGrids(before: RealGrid, after: RealGrid): RealGridChange {
  const notApplied: string[] = [];
  if (before.originDir !== after.originDir) notApplied.push('the origin directory cannot change during a run; the run keeps the one it started with');
  const beforeClusters = new Map(before.clusters.map((c) => [c.id, c]));
  const storageOf = new Map<ClusterId, RealClusterSpec>();
  for (const c of after.clusters) {
    const old = beforeClusters.get(c.id);
    if (old && (old.storageDir !== c.storageDir || old.kind !== c.kind)) {
      notApplied.push(`cluster ${c.id}: its storage (or kind) cannot change during a run; it keeps ${old.storageDir}`);
      storageOf.set(c.id, old);
    }
  }
  const effective: RealGrid = {
    ...after,
    ...(before.originDir !== undefined ? { originDir: before.originDir } : {}),
    clusters: after.clusters.map((c) => {
      const old = storageOf.get(c.id);
      return old ? { ...c, storageDir: old.storageDir, kind: old.kind } : c;
    }),
  };
  if (before.originDir === undefined && after.originDir !== undefined) {
    // the run started without an origin in the file: it keeps using the sweep's directory
    delete (effective as { originDir?: string }).originDir;
  }
  for (const c of after.clusters) {
    const old = beforeClusters.get(c.id);
    if (c.slurm && !old) notApplied.push(`cluster ${c.id}: a Slurm cluster cannot join a running run; it will be used by the next run`);
    else if (c.slurm && old && JSON.stringify(old.slurm) !== JSON.stringify(c.slurm)) notApplied.push(`cluster ${c.id}: its Slurm settings cannot change during a run; the run keeps submitting pilots as it started`);
  }
  const startedWith = new Set(before.clusters.map((c) => c.id));
  const was = endpoints(before);
  // a Slurm cluster's storage endpoint comes with its pilots, which a running run cannot start
  const now = new Map([...endpoints(effective)].filter(([, ref]) => !ref.cluster.slurm || startedWith.has(ref.cluster.id)));
  const removed: EndpointRef[] = [];
  const added: EndpointRef[] = [];
  for (const [key, ref] of was) {
    const next = now.get(key);
    if (!next || JSON.stringify(next.endpoint) !== JSON.stringify(ref.endpoint)) removed.push(ref);
  }
  for (const [key, ref] of now) {
    const prev = was.get(key);
    if (!prev || JSON.stringify(prev.endpoint) !== JSON.stringify(ref.endpoint)) {
      added.push(ref);
    }
  }
  return { removed, added, notApplied, effective };
}

export function isEmptyChange(change: RealGridChange): boolean {
  return change.removed.length === 0 && change.added.length === 0 && change.notApplied.length === 0;
}
