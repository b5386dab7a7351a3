// Linear allocators: the curves written out by hand on a 4×4 mesh, the three selections on a hand-made
// free mask, and the contract on random masks.
//
// 4×4 mesh, node = x + 4y:      y=3: 12 13 14 15
//                               y=2:  8  9 10 11
//                               y=1:  4  5  6  7
//                               y=0:  0  1  2  3
import { describe, expect, it } from 'vitest';
import { curveOrder } from '../../../src/batch/machines/node-allocators/curves.js';
import { createNodeAllocator } from '../../../src/batch/machines/node-allocators/registry.js';
import { Topology } from '../../../src/batch/machines/topology.js';
import { Rng } from '../../../src/util/rng.js';
import { expectContractOnRandomStates, freeExcept } from './free-mask.js';

const mesh4 = new Topology('mesh', [4, 4, 1]);

function alloc(spec: string, topology: Topology, busy: number[], count: number): number[] | undefined {
  const got = createNodeAllocator(spec, topology).allocate(freeExcept(topology, busy), count);
  return got === undefined ? undefined : [...got];
}

describe('curves', () => {
  it('row-major is node order; snake turns back on every other row', () => {
    expect([...curveOrder(mesh4, 'row-major')]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    // Row 0 left to right, row 1 right to left, ...
    expect([...curveOrder(mesh4, 'snake')]).toEqual([0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12]);
  });

  it('snake on a 3D mesh goes back down y on odd planes, so each step is one hop', () => {
    // 3×3×2: plane 0 rows y = 0, 1, 2 (x forward, back, forward), plane 1 rows y = 2, 1, 0 (x back,
    // forward, back) — the walk steps from node 8 (2,2,0) straight up to node 17 (2,2,1).
    const t = new Topology('mesh', [3, 3, 2]);
    expect([...curveOrder(t, 'snake')]).toEqual([0, 1, 2, 5, 4, 3, 6, 7, 8, 17, 16, 15, 12, 13, 14, 11, 10, 9]);
  });

  it('hilbert on 4×4 is the classic U of U’s', () => {
    // Quadrants in the order lower-left, upper-left, upper-right, lower-right; the first quadrant is
    // walked transposed (right first: 0 → 1 → 5 → 4, ending next to the upper-left quadrant), the middle
    // two like the whole (up, right, down), the last one mirrored (7 → 6 → 2 → 3), ending at (3, 0).
    expect([...curveOrder(mesh4, 'hilbert')]).toEqual([0, 1, 5, 4, 8, 12, 13, 9, 10, 14, 15, 11, 7, 6, 2, 3]);
  });

  it('hilbert on 8×8×8 steps one hop at a time; on 8×8×4 only inside each 4×4×4 cube', () => {
    const cube = new Topology('mesh', [8, 8, 8]);
    const o = curveOrder(cube, 'hilbert');
    expect(new Set(o).size).toBe(512);
    for (let p = 1; p < o.length; p++) expect(cube.distance(o[p - 1]!, o[p]!)).toBe(1);

    // 8×8×4 lies in the 8-cube's lower half (z < 4). The 8-cube's curve visits its 4-cubes in Gray-code
    // order (x, y, z halves) 000 001 011 010 110 111 101 100; those with z-half 0 come at places 0, 3-4
    // and 7, three stretches, so the skipped upper half leaves exactly two jumps, never inside a 4-cube.
    const slab = new Topology('mesh', [8, 8, 4]);
    const s = curveOrder(slab, 'hilbert');
    expect(new Set(s).size).toBe(256);
    let jumps = 0;
    for (let p = 1; p < s.length; p++) {
      const [a, b] = [s[p - 1]!, s[p]!];
      const sameCube = slab.xs[a]! >> 2 === slab.xs[b]! >> 2 && slab.ys[a]! >> 2 === slab.ys[b]! >> 2;
      if (sameCube) expect(slab.distance(a, b)).toBe(1);
      else if (slab.distance(a, b) !== 1) jumps++;
    }
    expect(jumps).toBe(2);
  });

  it('hilbert on a non-power-of-two mesh still lists every node once', () => {
    const t = new Topology('mesh', [5, 3, 1]);
    expect([...curveOrder(t, 'hilbert')].sort((a, b) => a - b)).toEqual([...Array(15).keys()]);
  });
});

describe('linear selections on 4×4 with nodes 5, 9 and 13 busy', () => {
  const busy = [5, 9, 13];

  it('row-major: runs 0-4 (5), 6-8 (3), 10-12 (3), 14-15 (2)', () => {
    // first-fit: the first run long enough; best-fit: the shortest long enough, earliest of a tie.
    expect(alloc('linear:row-major:first-fit', mesh4, busy, 3)).toEqual([0, 1, 2]);
    expect(alloc('linear:row-major:best-fit', mesh4, busy, 3)).toEqual([6, 7, 8]); // tie with 10-12
    expect(alloc('linear:row-major:best-fit', mesh4, busy, 2)).toEqual([14, 15]);
    expect(alloc('linear:row-major:first-fit', mesh4, busy, 2)).toEqual([0, 1]);
    expect(alloc('linear:row-major:best-fit', mesh4, busy, 4)).toEqual([0, 1, 2, 3]);
    expect(alloc('linear:row-major:free-list', mesh4, busy, 3)).toEqual([0, 1, 2]);
    // No run holds 6: both fall back to the free list, the first 6 free nodes.
    expect(alloc('linear:row-major:best-fit', mesh4, busy, 6)).toEqual([0, 1, 2, 3, 4, 6]);
    expect(alloc('linear:row-major:first-fit', mesh4, busy, 6)).toEqual([0, 1, 2, 3, 4, 6]);
  });

  it('snake: runs 0 1 2 3 7 6 (6), 4 8 (2), 10 11 15 14 (4), 12 (1)', () => {
    expect(alloc('linear:snake', mesh4, busy, 3)).toEqual([10, 11, 15]); // best-fit by default
    expect(alloc('linear:snake:first-fit', mesh4, busy, 3)).toEqual([0, 1, 2]);
    expect(alloc('linear:snake', mesh4, busy, 1)).toEqual([12]);
    expect(alloc('linear:snake', mesh4, busy, 5)).toEqual([0, 1, 2, 3, 7]);
    // Free list: 0 1 2 3 7 6 4 8 in curve order.
    expect(alloc('linear:snake:free-list', mesh4, busy, 8)).toEqual([0, 1, 2, 3, 4, 6, 7, 8]);
  });

  it('hilbert (the default): runs 0 1 (2), 4 8 12 (3), 10 14 15 11 7 6 2 3 (8)', () => {
    expect(alloc('linear', mesh4, busy, 1)).toEqual([0]);
    expect(alloc('linear', mesh4, busy, 3)).toEqual([4, 8, 12]);
    expect(alloc('linear', mesh4, busy, 4)).toEqual([10, 11, 14, 15]);
    expect(alloc('linear:hilbert:first-fit', mesh4, busy, 2)).toEqual([0, 1]);
    expect(alloc('linear:hilbert:first-fit', mesh4, busy, 3)).toEqual([4, 8, 12]);
    // 9 > 8: the free list in curve order, 0 1 4 8 12 10 14 15 11.
    expect(alloc('linear', mesh4, busy, 9)).toEqual([0, 1, 4, 8, 10, 11, 12, 14, 15]);
    expect(alloc('linear', mesh4, busy, 13)).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 10, 11, 12, 14, 15]);
    expect(alloc('linear', mesh4, busy, 14)).toBeUndefined();
    expect(alloc('linear', mesh4, busy, 0)).toEqual([]);
  });

  it('best-fit ties on two equal runs go to the earlier one, also on a 3D mesh', () => {
    // 4×4×2 row-major with 3, 7, 11 and 20 busy: runs 0-2 (3), 4-6 (3), 8-10 (3), 12-19 (8), 21-31 (11).
    const t = new Topology('mesh', [4, 4, 2]);
    expect(alloc('linear:row-major:best-fit', t, [3, 7, 11, 20], 3)).toEqual([0, 1, 2]);
    // Three runs of 3 hold 2 with one to spare: the earliest.
    expect(alloc('linear:row-major:best-fit', t, [3, 7, 11, 20], 2)).toEqual([0, 1]);
    expect(alloc('linear:row-major:best-fit', t, [3, 7, 11, 20], 4)).toEqual([12, 13, 14, 15]);
    expect(alloc('linear:row-major:best-fit', t, [3, 7, 11, 20], 9)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29]);
    // Now 0 busy too: 1-2 (2) comes first, 4-6 is the earliest run of 3.
    expect(alloc('linear:row-major:best-fit', t, [0, 3, 7, 11, 20], 3)).toEqual([4, 5, 6]);
  });
});

describe('linear family', () => {
  it('keeps the name as given and names the accepted values of a bad parameter', () => {
    expect(createNodeAllocator('linear:snake', mesh4).name).toBe('linear:snake');
    expect(createNodeAllocator('linear', mesh4).contiguous).toBe(false);
    expect(() => createNodeAllocator('linear:zigzag', mesh4)).toThrow(/unknown curve 'zigzag'; expected one of row-major, snake, hilbert/);
    expect(() => createNodeAllocator('linear:snake:worst-fit', mesh4)).toThrow(/expected one of free-list, first-fit, best-fit/);
    expect(() => createNodeAllocator('linear:snake:best-fit:x', mesh4)).toThrow(/at most 2 parameters/);
  });

  it('keeps the contract on random masks, and answers the same twice', () => {
    const rng = new Rng(2026);
    const topologies = [mesh4, new Topology('mesh', [4, 4, 2]), new Topology('mesh', [8, 8, 4]), new Topology('torus', [5, 3, 1]), new Topology('mesh', [7, 6, 3])];
    for (const topology of topologies) {
      for (const curve of ['row-major', 'snake', 'hilbert']) {
        for (const selection of ['free-list', 'first-fit', 'best-fit']) {
          const a = createNodeAllocator(`linear:${curve}:${selection}`, topology);
          expectContractOnRandomStates(a, topology, rng, { trials: 30, pFreeMin: 0.1, pFreeMax: 0.9, sameTwice: true });
        }
      }
    }
  });
});
