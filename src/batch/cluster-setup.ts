// Puts a batch cluster's parts together — machine, size, allocator, policy — and refuses the pairs that
// cannot work, with a message that says what would: a bag-of-cores allocator on a mesh (or the reverse),
// a policy that plans by counting cores under contiguous allocation (conservative backfilling), a node
// count that disagrees with the mesh. What `gridsweep trace`, grid files, experiments and the simulator
// share.
import type { Allocator } from './allocators/allocator.js';
import { getAllocator, listAllocators } from './allocators/registry.js';
import { clusterSizeProblem } from './cluster-limits.js';
import { CorePlacement } from './core-placement.js';
import { NodePlacement } from './machines/node-placement.js';
import { AllocatorSpecError, type NodeAllocator } from './machines/node-allocator.js';
import { createNodeAllocator, isNodeAllocatorSpec } from './machines/node-allocators/registry.js';
import { isTopology, machineName, parseMachine, type MachineSpec } from './machines/registry.js';
import type { Topology } from './machines/topology.js';
import type { BatchClusterShape, Placement } from './placement.js';
import { getBatchPolicy, listBatchPolicies } from './policies/registry.js';
import type { BatchPolicy } from './policies/policy.js';

/** The allocator used when none is named: first-fit on the bag, the lowest-numbered free nodes on a mesh. */
export const DEFAULT_BAG_ALLOCATOR = 'first-fit';
export const DEFAULT_NODE_ALLOCATOR = 'linear:row-major:free-list';

export function defaultAllocator(machine: MachineSpec): string {
  return isTopology(machine) ? DEFAULT_NODE_ALLOCATOR : DEFAULT_BAG_ALLOCATOR;
}

/** A machine, allocator or policy that cannot be used (alone or together); the message says what can. */
export class ClusterSetupError extends Error {
  override readonly name = 'ClusterSetupError';
}

/** Checks a machine × allocator × policy choice; throws ClusterSetupError. Returns the allocator's name. */
export function checkClusterChoice(machine: MachineSpec, allocatorName: string | undefined, policyName: string): { policy: BatchPolicy; allocator: string; contiguous: boolean } {
  let policy: BatchPolicy;
  try {
    policy = getBatchPolicy(policyName);
  } catch {
    throw new ClusterSetupError(`unknown batch policy '${policyName}'; expected one of ${listBatchPolicies().map((p) => p.name).join(', ')}`);
  }
  const allocator = allocatorName ?? defaultAllocator(machine);
  if (!isTopology(machine)) {
    if (isNodeAllocatorSpec(allocator)) throw new ClusterSetupError(`allocator '${allocator}' places jobs on a mesh or torus; give a machine such as --machine mesh:8x8x4, or use ${bagNames()} on the bag of cores`);
    bagAllocator(allocator);
    return { policy, allocator, contiguous: false };
  }
  if (listAllocators().some((a) => a.name === allocator)) {
    throw new ClusterSetupError(`allocator '${allocator}' is for the bag of cores; on ${machine.name} use linear:row-major:free-list (the lowest-numbered free nodes), contiguous:${allocator}, or another processor allocator (gridsweep trace --help lists them)`);
  }
  const node = nodeAllocator(allocator, machine);
  if (node.contiguous && !policy.contiguous) {
    const ok = listBatchPolicies().filter((p) => p.contiguous).map((p) => p.name);
    throw new ClusterSetupError(`batch policy '${policy.name}' plans by counting free cores, which contiguous allocation ('${allocator}') cannot promise; use ${ok.join(', ')} with a contiguous allocator, or a non-contiguous allocator with ${policy.name}`);
  }
  return { policy, allocator, contiguous: node.contiguous };
}

/** The placement for a checked choice. */
export function createPlacement(machine: MachineSpec, shape: BatchClusterShape, allocatorName: string): Placement {
  const tooLarge = clusterSizeProblem(shape.nodes, shape.coresPerNode, false);
  if (tooLarge !== undefined) throw new ClusterSetupError(tooLarge);
  if (!isTopology(machine)) return new CorePlacement(shape, bagAllocator(allocatorName));
  if (shape.nodes !== machine.nodes) throw new ClusterSetupError(`${machine.name} has ${machine.nodes} nodes, not ${shape.nodes}`);
  return new NodePlacement(machine, shape.coresPerNode, nodeAllocator(allocatorName, machine));
}

/** `bag` or a mesh/torus name → the machine; throws ClusterSetupError. */
export function machineOf(name: string): MachineSpec {
  try {
    return parseMachine(name);
  } catch (err) {
    throw new ClusterSetupError((err as Error).message);
  }
}

export { machineName };

function bagNames(): string {
  return listAllocators().map((a) => a.name).join(' or ');
}

function bagAllocator(name: string): Allocator {
  try {
    return getAllocator(name);
  } catch {
    throw new ClusterSetupError(`unknown allocator '${name}' for the bag of cores; expected ${bagNames()} (processor allocators such as gen-alg need --machine mesh:XxYxZ)`);
  }
}

function nodeAllocator(name: string, machine: Topology): NodeAllocator {
  try {
    return createNodeAllocator(name, machine);
  } catch (err) {
    if (err instanceof AllocatorSpecError) throw new ClusterSetupError(err.message);
    throw err;
  }
}
