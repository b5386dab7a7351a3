// The processor allocators of mesh and torus machines, by family: the CLI help, the README table, grid
// files and the experiment tool read this list. Adding a family is one file in this folder and one line
// below; a well-known combination of a family's parameters gets a short name in ALIASES.
import { AllocatorSpecError, type NodeAllocator, type NodeAllocatorFamily } from '../node-allocator.js';
import type { Topology } from '../topology.js';
import { centerFamily } from './center.js';
import { contiguousFamily } from './contiguous.js';
import { linearFamily } from './linear.js';
import { mbsFamily } from './mbs.js';
import { randomFamily } from './random.js';

const FAMILIES: readonly NodeAllocatorFamily[] = [linearFamily, centerFamily, mbsFamily, randomFamily, contiguousFamily];

/** Short names for well-known parameter choices: name → the full spec it stands for. */
const ALIASES: Readonly<Record<string, string>> = {
  mc1x1: 'center:free:linf:center',
  'gen-alg': 'center:free:l1:pairwise',
  mm: 'center:intersect:l1:pairwise',
};

export function listNodeAllocatorFamilies(): readonly NodeAllocatorFamily[] {
  return FAMILIES;
}

export function listNodeAllocatorAliases(): Readonly<Record<string, string>> {
  return ALIASES;
}

/** Every name a user may give alone (families with their defaults, and aliases). */
export function nodeAllocatorNames(): string[] {
  return [...FAMILIES.map((f) => f.name), ...Object.keys(ALIASES)];
}

/**
 * The allocators an experiment's "all" runs on a mesh: each family with its defaults, and each short
 * name, leaving out a family whose defaults a short name already stands for (center = gen-alg).
 */
export function nodeAllocatorShortNames(): string[] {
  const aliased = new Set(Object.values(ALIASES));
  const families = FAMILIES.filter((f) => !aliased.has([f.name, ...f.parameters.map((p) => p.default)].join(':'))).map((f) => f.name);
  return [...families, ...Object.keys(ALIASES)];
}

/** The family a spec names (`gen-alg`, `linear:hilbert:best-fit`), or undefined. */
export function nodeAllocatorFamilyOf(spec: string): NodeAllocatorFamily | undefined {
  const full = ALIASES[spec] ?? spec;
  const name = full.split(':')[0]!;
  return FAMILIES.find((f) => f.name === name);
}

/** Whether `spec` names a node allocator (aliases and parameters allowed); checks nothing else. */
export function isNodeAllocatorSpec(spec: string): boolean {
  return nodeAllocatorFamilyOf(spec) !== undefined;
}

/** The allocator `spec` names, on `topology`. Throws AllocatorSpecError naming what was expected. */
export function createNodeAllocator(spec: string, topology: Topology): NodeAllocator {
  const full = ALIASES[spec] ?? spec;
  const [name, ...params] = full.split(':');
  const family = FAMILIES.find((f) => f.name === name);
  if (family === undefined) throw new AllocatorSpecError(`unknown allocator '${spec}' for a ${topology.kind}; expected one of ${nodeAllocatorNames().join(', ')}`);
  if (params.length > family.parameters.length) throw new AllocatorSpecError(`${family.name} takes at most ${family.parameters.length} parameter${family.parameters.length === 1 ? '' : 's'} (${family.parameters.map((p) => p.name).join(':') || 'none'}), got '${spec}'`);
  const allocator = family.create(params, topology);
  if (spec === allocator.name) return allocator;
  return { name: spec, contiguous: allocator.contiguous, allocate: (free, count) => allocator.allocate(free, count) };
}
