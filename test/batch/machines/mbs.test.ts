// Multiple Buddy Strategy, by hand: the request written in base 4 (2D) or 8 (3D), each piece the
// lowest-numbered wholly free aligned block of its size, broken smaller when none is free.
import { describe, expect, it } from 'vitest';
import { createNodeAllocator } from '../../../src/batch/machines/node-allocators/registry.js';
import { Topology } from '../../../src/batch/machines/topology.js';
import { Rng } from '../../../src/util/rng.js';
import { expectContractOnRandomStates, freeExcept } from './free-mask.js';

function mbs(topology: Topology, busy: number[], count: number): number[] | undefined {
  const got = createNodeAllocator('mbs', topology).allocate(freeExcept(topology, busy), count);
  return got === undefined ? undefined : [...got];
}

// 4×4, node = x + 4y. Its 2×2 blocks, numbered row-major: b0 {0 1 4 5}, b1 {2 3 6 7}, b2 {8 9 12 13},
// b3 {10 11 14 15}; one 4×4 block above them.
const mesh4 = new Topology('mesh', [4, 4, 1]);

describe('mbs on 4×4', () => {
  it('5 = one 2×2 block + one node', () => {
    // b0, then the lowest free node outside it: 2.
    expect(mbs(mesh4, [], 5)).toEqual([0, 1, 2, 4, 5]);
  });

  it('skips a block with a busy node, takes single nodes lowest first', () => {
    // 0 and 10 busy; 6 = 1·4 + 2: b0 holds 0, so b1 {2 3 6 7}; then nodes 1 and 4.
    expect(mbs(mesh4, [0, 10], 6)).toEqual([1, 2, 3, 4, 6, 7]);
  });

  it('breaks a 2×2 piece into four nodes when no 2×2 block is free', () => {
    // 0, 6, 12 and 10 busy: one in each block, so 6 = six single nodes, the lowest free ones.
    expect(mbs(mesh4, [0, 6, 10, 12], 6)).toEqual([1, 2, 3, 4, 5, 7]);
  });

  it('takes the whole machine, and refuses more than is free', () => {
    expect(mbs(mesh4, [], 16)).toEqual([...Array(16).keys()]);
    expect(mbs(mesh4, [3], 16)).toBeUndefined();
    expect(mbs(mesh4, [3], 0)).toEqual([]);
  });
});

describe('mbs, larger and odd shapes', () => {
  it('8×8: a 4×4 block, a 2×2 block and a node (21 = 1·16 + 1·4 + 1)', () => {
    // Node 0 busy: the first 4×4 block (x 0-3, y 0-3) is not free, the second (x 4-7, y 0-3) is.
    // Level 2×2: the first block {0 1 8 9} holds 0; the next, {2 3 10 11}, is free. Node: 1.
    const t = new Topology('mesh', [8, 8, 1]);
    expect(mbs(t, [0], 21)).toEqual([1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31]);
  });

  it('5×5: clipped blocks never serve; a 4×4 piece breaks into 2×2 blocks', () => {
    // node = x + 5y. Whole blocks: one 4×4 (x, y < 4); 2×2 blocks b0 {0 1 5 6}, b1 {2 3 7 8},
    // b2 {10 11 15 16}, b3 {12 13 17 18}. Busy 0 1 5 6 (= b0). 17 = 1·16 + 1: the 4×4 is not free, so
    // four 2×2 pieces: b1, b2, b3 (b0 busy), the fourth breaks into 4 nodes; with the final node, 5
    // single nodes, the lowest free ones outside the taken blocks: 4, 9, 14, 19, 20.
    const t = new Topology('mesh', [5, 5, 1]);
    expect(mbs(t, [0, 1, 5, 6], 17)).toEqual([2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    // All free: 5 = one 2×2 (b0) + the lowest other node, 2.
    expect(mbs(t, [], 5)).toEqual([0, 1, 2, 5, 6]);
  });

  it('4×4×2: cubes of 2×2×2 (19 = 2·8 + 3)', () => {
    // node = x + 4y + 16z. Cubes: c0 {0 1 4 5 16 17 20 21}, c1 {2 3 6 7 18 19 22 23},
    // c2 {8 9 12 13 24 25 28 29}, c3 {10 11 14 15 26 27 30 31}. Busy 5 (in c0) and 26 (in c3):
    // c1 and c2, then the three lowest free nodes outside them: 0, 1, 4.
    const t = new Topology('mesh', [4, 4, 2]);
    expect(mbs(t, [5, 26], 19)).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9, 12, 13, 18, 19, 22, 23, 24, 25, 28, 29]);
    // All free, 17 = 2·8 + 1: c0, c1 and node 8.
    expect(mbs(t, [], 17)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 17, 18, 19, 20, 21, 22, 23]);
  });

  it('counts pieces above the largest whole block in that block (16×4: 64 = four 4×4 blocks)', () => {
    // Largest whole block 4×4 (Z = 1, Y = 4). 64 in base 4 is 1000, a 8×8 piece that cannot exist: it
    // is asked as four 4×4 blocks, the whole machine.
    const t = new Topology('mesh', [16, 4, 1]);
    expect(mbs(t, [], 64)).toEqual([...Array(64).keys()]);
    // 48 of 64 with node 0 busy: 3·16, the three 4×4 blocks free, x 4-15.
    const want = [];
    for (let y = 0; y < 4; y++) for (let x = 4; x < 16; x++) want.push(x + 16 * y);
    expect(mbs(t, [0], 48)).toEqual(want.sort((a, b) => a - b));
  });
});

describe('mbs family', () => {
  it('has no parameters', () => {
    expect(createNodeAllocator('mbs', mesh4).name).toBe('mbs');
    expect(() => createNodeAllocator('mbs:x', mesh4)).toThrow(/mbs takes at most 0 parameters/);
  });

  it('keeps the contract on random masks, always places count ≤ free, and answers the same twice', () => {
    const rng = new Rng(97);
    const topologies = [mesh4, new Topology('mesh', [4, 4, 2]), new Topology('mesh', [8, 8, 4]), new Topology('torus', [5, 3, 1]), new Topology('mesh', [7, 6, 3]), new Topology('mesh', [9, 1, 1])];
    for (const topology of topologies) {
      const a = createNodeAllocator('mbs', topology);
      expectContractOnRandomStates(a, topology, rng, { trials: 200, pFreeMin: 0.1, sameTwice: true });
    }
  });
});
