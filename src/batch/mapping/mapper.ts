// The task-mapper contract: given one job's allocation (its nodes on a mesh or torus, C cores each) and
// the pattern its ranks communicate in, say which node each of its R = nodes × C ranks runs on — one rank
// per core, so every node takes exactly C ranks. Mappers are pure: the same job gives the same mapping.
import type { Topology } from '../machines/topology.js';
import type { CommunicationPattern } from './patterns.js';

export interface MappingJob {
  readonly topology: Topology;
  /** The job's nodes, increasing node indices. */
  readonly nodes: Int32Array;
  readonly coresPerNode: number;
  readonly pattern: CommunicationPattern;
}

export interface TaskMapper {
  readonly name: string;
  /** One line for --help and the README. */
  readonly help: string;
  /** rank → node index, R = nodes × coresPerNode entries, each node exactly coresPerNode times. */
  map(job: MappingJob): Int32Array;
}

export function rankCount(job: MappingJob): number {
  return job.nodes.length * job.coresPerNode;
}

/** The mapping that gives the k-th node of `order` ranks kC … kC + C − 1. */
export function ranksInNodeOrder(order: ArrayLike<number>, coresPerNode: number): Int32Array {
  const out = new Int32Array(order.length * coresPerNode);
  for (let k = 0; k < order.length; k++) out.fill(order[k]!, k * coresPerNode, (k + 1) * coresPerNode);
  return out;
}
