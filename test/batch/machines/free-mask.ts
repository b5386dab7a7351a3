// Test helpers for the node allocators: a machine state from a list of busy nodes, or a random one.
import { expect } from 'vitest';
import type { FreeNodes, NodeAllocator } from '../../../src/batch/machines/node-allocator.js';
import type { Topology } from '../../../src/batch/machines/topology.js';
import type { Rng } from '../../../src/util/rng.js';

export function freeExcept(topology: Topology, busy: readonly number[]): FreeNodes {
  const isFree = new Uint8Array(topology.nodes).fill(1);
  for (const b of busy) isFree[b] = 0;
  return { topology, isFree, count: isFree.reduce((a, v) => a + v, 0) };
}

/** Each node free with probability `pFree`. */
export function randomFree(topology: Topology, rng: Rng, pFree: number): FreeNodes {
  const isFree = new Uint8Array(topology.nodes);
  let count = 0;
  for (let i = 0; i < topology.nodes; i++) if (rng.next() < pFree) (isFree[i] = 1), count++;
  return { topology, isFree, count };
}

/** Checks the contract: `count` distinct free nodes in increasing order. Returns a problem or ''. */
export function contractProblem(free: FreeNodes, count: number, got: Int32Array | undefined): string {
  if (got === undefined) return `no allocation for ${count} of ${free.count} free`;
  if (got.length !== count) return `got ${got.length} nodes, wanted ${count}`;
  for (let k = 0; k < got.length; k++) {
    if (free.isFree[got[k]!] !== 1) return `node ${got[k]} is busy`;
    if (k > 0 && got[k - 1]! >= got[k]!) return `not strictly increasing at ${k}`;
  }
  return '';
}

/**
 * `trials` random states of `topology` (each node free with a probability drawn from [pFreeMin, 1) — or
 * up to 0.9 when `pFreeMax` says so), a random count up to one more than is free: the contract holds, the
 * state is left as it was, and (when `sameTwice`) the same state gives the same answer again.
 */
export function expectContractOnRandomStates(a: NodeAllocator, topology: Topology, rng: Rng, o: { trials: number; pFreeMin: number; pFreeMax?: number; sameTwice: boolean }): void {
  for (let trial = 0; trial < o.trials; trial++) {
    const free = randomFree(topology, rng, rng.uniform(o.pFreeMin, o.pFreeMax ?? 1));
    const before = free.isFree.slice();
    const count = rng.int(free.count + 2);
    const got = a.allocate(free, count);
    expect(free.isFree).toEqual(before);
    if (count > free.count) {
      expect(got).toBeUndefined();
      continue;
    }
    expect(contractProblem(free, count, got)).toBe('');
    if (o.sameTwice) expect(a.allocate(free, count)).toEqual(got);
  }
}
