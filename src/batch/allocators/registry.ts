// The node allocators, by name: the CLI help, the README table and the experiment tool read this list.
import type { Allocator } from './allocator.js';
import { bestFit } from './best-fit.js';
import { firstFit } from './first-fit.js';

export type { Allocator } from './allocator.js';

const ALLOCATORS: readonly Allocator[] = [firstFit, bestFit];

export function listAllocators(): readonly Allocator[] {
  return ALLOCATORS;
}

export function getAllocator(name: string): Allocator {
  const found = ALLOCATORS.find((a) => a.name === name);
  if (found !== undefined) return found;
  throw new Error(`unknown allocator "${name}"; expected one of: ${ALLOCATORS.map((a) => a.name).join(', ')}`);
}
