// The contract between a mesh or torus machine and its processor allocators (Bunde and Leung's PReMAS
// split, 2015): the allocator decides whether a job can be placed now and which nodes it gets, without
// changing the machine's state, so a policy may ask about several jobs before starting one; the cluster
// then takes the nodes. On these machines a job holds whole nodes.
//
// Non-contiguous allocators can place any job that asks for no more nodes than are free. Contiguous ones
// (a sub-mesh per job) may not: there "can this job start?" is the allocator's question, and a policy
// that plans ahead (EASY) must ask it too (see src/batch/machines/contiguous-shadow.ts).
import type { Topology } from './topology.js';

/** The machine's state as an allocator reads it. */
export interface FreeNodes {
  readonly topology: Topology;
  /** 1 where the node is free, 0 where a job holds it. */
  readonly isFree: Uint8Array;
  /** How many entries of isFree are 1. */
  readonly count: number;
  /**
   * Changes whenever isFree does, and no two states anywhere share one (take each from newStateVersion()),
   * so an allocator may keep what it derived from the last state it saw; undefined: derive afresh.
   */
  readonly version?: number;
}

let lastVersion = 0;

/** A version number no other FreeNodes state has had (see FreeNodes.version). */
export function newStateVersion(): number {
  return ++lastVersion;
}

export interface NodeAllocator {
  /** The full name as given, parameters included (`linear:hilbert:best-fit`). */
  readonly name: string;
  /** A contiguous allocator may fail to place a job although enough nodes are free. */
  readonly contiguous: boolean;
  /**
   * The `count` nodes a job would get now, in increasing node order, or undefined when it cannot be
   * placed (always when count > free.count). Must not change `free`, and must give the same answer for
   * the same state (ties broken by a documented rule; a random allocator draws from its own seeded
   * generator, so the cluster asks once per start).
   */
  allocate(free: FreeNodes, count: number): Int32Array | undefined;
}

/** One parameter of an allocator family, for --help and the README. */
export interface AllocatorParameter {
  readonly name: string;
  /** The accepted values, or a description when free-form (a seed). */
  readonly values: readonly string[] | string;
  readonly default: string;
}

/** A registered family: `name[:param[:param…]]` on the command line, in grid files and experiments. */
export interface NodeAllocatorFamily {
  readonly name: string;
  /** One line for --help and the README. */
  readonly help: string;
  readonly parameters: readonly AllocatorParameter[];
  readonly contiguous: boolean;
  /**
   * The allocator for `params` (as written after the family's name, split at ':', possibly fewer than
   * parameters: the rest take their defaults) on `topology`. Throws AllocatorSpecError on a bad value.
   */
  create(params: readonly string[], topology: Topology): NodeAllocator;
}

/** A bad allocator name or parameter: the message names what was expected. */
export class AllocatorSpecError extends Error {
  override readonly name = 'AllocatorSpecError';
}

/** The value of parameter `i` of `family`, checked against its accepted values (or its default). */
export function parameterValue(family: NodeAllocatorFamily, params: readonly string[], i: number): string {
  const p = family.parameters[i]!;
  const value = params[i] ?? p.default;
  if (Array.isArray(p.values) && !p.values.includes(value)) {
    throw new AllocatorSpecError(`${family.name}: unknown ${p.name} '${value}'; expected one of ${p.values.join(', ')}`);
  }
  return value;
}

/** The ascending node list of a set given as a 0/1 mask. */
export function nodesOfMask(mask: Uint8Array, count: number): Int32Array {
  const out = new Int32Array(count);
  let k = 0;
  for (let i = 0; k < count && i < mask.length; i++) if (mask[i] === 1) out[k++] = i;
  return out;
}
