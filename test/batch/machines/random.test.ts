// Random allocation: the contract on random masks, the same stream for the same seed, and a uniform
// spread (a statistical check with a fixed seed, so it is deterministic).
import { describe, expect, it } from 'vitest';
import { createNodeAllocator } from '../../../src/batch/machines/node-allocators/registry.js';
import { Topology } from '../../../src/batch/machines/topology.js';
import { Rng } from '../../../src/util/rng.js';
import { expectContractOnRandomStates, freeExcept } from './free-mask.js';

const mesh4 = new Topology('mesh', [4, 4, 1]);

describe('random', () => {
  it('draws only free nodes; all of them when the job asks for all', () => {
    const free = freeExcept(mesh4, [0, 5, 10, 15]);
    expect([...createNodeAllocator('random', mesh4).allocate(free, 12)!]).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14]);
    expect(createNodeAllocator('random', mesh4).allocate(free, 13)).toBeUndefined();
    expect([...createNodeAllocator('random', mesh4).allocate(free, 0)!]).toEqual([]);
  });

  it('repeats its stream for the same seed, and another seed gives another stream', () => {
    const free = freeExcept(mesh4, [3, 7]);
    const draws = (spec: string) => {
      const a = createNodeAllocator(spec, mesh4);
      return Array.from({ length: 20 }, () => [...a.allocate(free, 4)!].join(' '));
    };
    expect(draws('random:7')).toEqual(draws('random:7'));
    expect(draws('random')).toEqual(draws('random:1'));
    expect(draws('random:7')).not.toEqual(draws('random:8'));
    // Each call advances the generator: 20 draws of 4 from 14 are not all the same.
    expect(new Set(draws('random:7')).size).toBeGreaterThan(1);
  });

  it('spreads single draws evenly over the free nodes', () => {
    // 4 free nodes, 4000 single draws: each expected 1000 times, standard deviation about 27; allow 150.
    const free = freeExcept(mesh4, [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14]);
    const a = createNodeAllocator('random:42', mesh4);
    const hits = new Map<number, number>();
    for (let i = 0; i < 4000; i++) {
      const n = a.allocate(free, 1)![0]!;
      hits.set(n, (hits.get(n) ?? 0) + 1);
    }
    expect([...hits.keys()].sort((x, y) => x - y)).toEqual([3, 7, 11, 15]);
    for (const h of hits.values()) expect(Math.abs(h - 1000)).toBeLessThan(150);
  });

  it('makes every pair of free nodes equally likely', () => {
    // 4 free nodes, count 2: 6 pairs, 6000 draws, each expected 1000 times (deviation about 29).
    // A naive shuffle (swapping with any place, not only later ones) is off by far more.
    const free = freeExcept(mesh4, [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14]);
    const a = createNodeAllocator('random:9', mesh4);
    const hits = new Map<string, number>();
    for (let i = 0; i < 6000; i++) {
      const key = [...a.allocate(free, 2)!].join(' ');
      hits.set(key, (hits.get(key) ?? 0) + 1);
    }
    expect(hits.size).toBe(6);
    for (const h of hits.values()) expect(Math.abs(h - 1000)).toBeLessThan(150);
  });

  it('names what a seed must be', () => {
    expect(createNodeAllocator('random:12', mesh4).name).toBe('random:12');
    for (const bad of ['-1', 'x', '1.5', '4294967296', '']) {
      expect(() => createNodeAllocator(`random:${bad}`, mesh4)).toThrow(/seed '.*' is not a non-negative integer below 2\^32; write e.g. random:7/);
    }
  });

  it('keeps the contract on random masks', () => {
    const rng = new Rng(5);
    for (const topology of [mesh4, new Topology('mesh', [8, 8, 4]), new Topology('torus', [5, 3, 1])]) {
      const a = createNodeAllocator('random:3', topology);
      expectContractOnRandomStates(a, topology, rng, { trials: 200, pFreeMin: 0.1, sameTwice: false });
    }
  });
});
