// Meshes and tori, the contiguous allocators and the allocation-quality meter, by hand (the working is in
// the comments). Node i of an X×Y×Z machine sits at x = i mod X, y = (i div X) mod Y, z = i div XY.
import { describe, expect, it } from 'vitest';
import { AllocationQualityMeter } from '../../../src/batch/machines/allocation-quality.js';
import { createNodeAllocator } from '../../../src/batch/machines/node-allocators/registry.js';
import { MachineSpecError, parseMachine } from '../../../src/batch/machines/registry.js';
import { boxShape } from '../../../src/batch/machines/submesh-shape.js';
import { Topology } from '../../../src/batch/machines/topology.js';
import { freeExcept } from './free-mask.js';


describe('machines', () => {
  it('places nodes row-major and counts hops by L1 distance, wrapping on a torus', () => {
    const mesh = parseMachine('mesh:4x4x2') as Topology;
    expect(mesh.nodes).toBe(32);
    // Node 21 = 1 + 4·(1 + 4·1): (1, 1, 1). Node 2: (2, 0, 0). Hops 1 + 1 + 1.
    expect([mesh.xs[21], mesh.ys[21], mesh.zs[21]]).toEqual([1, 1, 1]);
    expect(mesh.distance(21, 2)).toBe(3);
    // (0,0) to (3,3) on a 4×4: 6 hops on the mesh, 1 + 1 on the torus (each axis the short way round).
    expect(mesh.distance(0, 15)).toBe(6);
    expect((parseMachine('torus:4x4') as Topology).distance(0, 15)).toBe(2);
    expect((parseMachine('torus:4x4') as Topology).name).toBe('torus:4x4');
  });

  it('refuses a machine it cannot read, saying what it expects', () => {
    expect(() => parseMachine('mesh:8x8x')).toThrow(MachineSpecError);
    expect(() => parseMachine('hypercube:4')).toThrow(/expected bag, mesh:XxY\[xZ\] or torus:XxY\[xZ\]/);
    expect(() => parseMachine('mesh:0x4')).toThrow(/at least 1/);
  });
});

describe('the box a contiguous job gets', () => {
  it('takes the fewest nodes, then the most cube-like box, then the longest along x', () => {
    // 3 nodes on 8×8×4: 3×1×1, 1×3×1 and 1×1×3 all hold exactly 3 and sum to 5; the longest x wins.
    expect(boxShape([8, 8, 4], 3)).toEqual([3, 1, 1]);
    // 4 nodes on 4×4: 2×2 (sum 4) beats 4×1 and 1×4 (sum 5).
    expect(boxShape([4, 4, 1], 4)).toEqual([2, 2, 1]);
    // 5 nodes on 4×4: no box of 5 fits (5×1 is too long), so 6 nodes: 3×2 beats 2×3 (longer x).
    expect(boxShape([4, 4, 1], 5)).toEqual([3, 2, 1]);
    expect(boxShape([4, 4, 1], 17)).toBeUndefined();
  });
});

describe('contiguous allocators on a 4×4 mesh with nodes 1 and 6 busy', () => {
  //   y=0:  0  [1]  2   3
  //   y=1:  4   5  [6]  7
  //   y=2:  8   9  10  11
  //   y=3: 12  13  14  15
  const mesh = parseMachine('mesh:4x4') as Topology;
  const state = freeExcept(mesh, [1, 6]);

  it('first-fit takes the free 2×2 box with the lowest corner', () => {
    // Corners 0, 1, 2 and 5 each hold a busy node; corner 4 (nodes 4, 5, 8, 9) is the first free box.
    expect([...createNodeAllocator('contiguous:first-fit', mesh).allocate(state, 4)!]).toEqual([4, 5, 8, 9]);
    expect(state.isFree[1]).toBe(0);
    expect(state.count).toBe(14);
  });

  it('best-fit takes the free 2×2 box touching the most busy nodes and edges', () => {
    // Faces (left, right, top, bottom, and the two z faces of a 2D mesh: 4 cells each, always edges):
    // corner 4: 2 + 1 (node 6) + 1 (node 1) + 0 + 8 = 12; corner 8: 2 + 0 + 0 + 2 + 8 = 12;
    // corner 9: 0 + 0 + 1 (node 6) + 2 + 8 = 11; corner 10: 0 + 2 + 1 (node 6) + 2 + 8 = 13 — the best.
    expect([...createNodeAllocator('contiguous:best-fit', mesh).allocate(state, 4)!]).toEqual([10, 11, 14, 15]);
  });

  it('a job of 5 nodes gets the first 5 of a 3×2 box, turned where that fits at a lower corner', () => {
    // The rule's box is 3×2; its first free corner is 8 (corners 0–5 hold node 1 or 6). Turned 2×3, it is
    // free at corner 4 (nodes 4, 5, 8, 9, 12, 13), which is lower: the first five in row-major order.
    expect([...createNodeAllocator('contiguous', mesh).allocate(state, 5)!]).toEqual([4, 5, 8, 9, 12]);
  });

  it('cannot place a job although enough nodes are free, where a non-contiguous allocator can', () => {
    // A checkerboard: 8 free nodes, no two of them neighbours.
    const board = freeExcept(mesh, [0, 2, 5, 7, 8, 10, 13, 15]);
    expect(createNodeAllocator('contiguous', mesh).allocate(board, 2)).toBeUndefined();
    expect([...createNodeAllocator('linear:row-major:free-list', mesh).allocate(board, 2)!]).toEqual([1, 3]);
  });
});

describe('allocation quality', () => {
  const mesh = parseMachine('mesh:4x4') as Topology;
  const meter = new AllocationQualityMeter(mesh);

  it('sums pairwise hops, and finds the bounding box and the pieces', () => {
    // Nodes 0 (0,0), 1 (1,0), 5 (1,1): pairs 0–1 1 hop, 0–5 2, 1–5 1: 4 in all, mean 4/3; one piece.
    expect(meter.measure([0, 1, 5])).toEqual({ pairwiseHops: 4, meanPairwiseHops: 4 / 3, boundingBox: [2, 2, 1], pieces: 1 });
    // Nodes 0 and 2 are two hops apart, not neighbours: two pieces.
    expect(meter.measure([0, 2])).toMatchObject({ pairwiseHops: 2, pieces: 2, boundingBox: [3, 1, 1] });
    // Nodes 0, 3, 12, 15 (the corners): along each axis two sit at 0 and two at 3, so 4 pairs differ by
    // 3: 12 hops per axis, 24 in all.
    expect(meter.measure([0, 3, 12, 15])).toMatchObject({ pairwiseHops: 24, pieces: 4 });
  });

  it('goes the short way round on a torus, where the corners are neighbours', () => {
    const torus = parseMachine('torus:4x4') as Topology;
    // On the torus each corner pair along an axis is 1 hop apart: 4 pairs × 1 per axis = 8; one piece.
    expect(new AllocationQualityMeter(torus).measure([0, 3, 12, 15])).toMatchObject({ pairwiseHops: 8, pieces: 1 });
  });
});
