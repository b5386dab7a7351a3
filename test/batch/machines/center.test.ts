// Center-based allocators (MC1x1, Gen-Alg, MM): hand-computed allocations on small meshes, ties inside a
// shell and between centers, a brute-force check against candidates built here independently (sort every
// node per center, no offsets table, pairwise sums over pairs), and properties on random masks.
import { describe, expect, it } from 'vitest';
import type { FreeNodes } from '../../../src/batch/machines/node-allocator.js';
import { CenterAllocator } from '../../../src/batch/machines/node-allocators/center.js';
import { createNodeAllocator } from '../../../src/batch/machines/node-allocators/registry.js';
import { Topology } from '../../../src/batch/machines/topology.js';
import { Rng } from '../../../src/util/rng.js';

function freeNodes(topology: Topology, busy: readonly number[]): FreeNodes {
  const isFree = new Uint8Array(topology.nodes).fill(1);
  for (const b of busy) isFree[b] = 0;
  return { topology, isFree, count: isFree.reduce((a, v) => a + v, 0) };
}

/** Every node except `free`: a mask given by its free nodes. */
function onlyFree(topology: Topology, free: readonly number[]): FreeNodes {
  const busy: number[] = [];
  for (let i = 0; i < topology.nodes; i++) if (!free.includes(i)) busy.push(i);
  return freeNodes(topology, busy);
}

function alloc(spec: string, f: FreeNodes, count: number): number[] | undefined {
  const out = createNodeAllocator(spec, f.topology).allocate(f, count);
  return out === undefined ? undefined : [...out];
}

const mesh = (x: number, y: number, z = 1): Topology => new Topology('mesh', [x, y, z]);

// ---- Independent reference: candidates the slow, obvious way ----
function axisD(t: Topology, a: number, b: number, size: number): number {
  const d = Math.abs(a - b);
  return t.wraps ? Math.min(d, size - d) : d;
}
function dists(t: Topology, cx: number, cy: number, cz: number, v: number): { l1: number; linf: number } {
  const [X, Y, Z] = t.dims;
  const a = [axisD(t, cx, t.xs[v]!, X), axisD(t, cy, t.ys[v]!, Y), axisD(t, cz, t.zs[v]!, Z)];
  return { l1: a[0]! + a[1]! + a[2]!, linf: Math.max(...a) };
}
interface Candidate {
  center: number;
  nodes: number[];
  score: number;
}
function referenceCandidates(f: FreeNodes, count: number, centers: 'free' | 'intersect', collector: 'l1' | 'linf', scorer: 'center' | 'pairwise'): Candidate[] {
  const t = f.topology;
  const [X, Y, Z] = t.dims;
  const free = [...Array(t.nodes).keys()].filter((v) => f.isFree[v] === 1);
  const positions: number[] = [];
  if (centers === 'free') positions.push(...free);
  else {
    const xs = new Set(free.map((v) => t.xs[v]!));
    const ys = new Set(free.map((v) => t.ys[v]!));
    const zs = new Set(free.map((v) => t.zs[v]!));
    for (let v = 0; v < X * Y * Z; v++) if (xs.has(t.xs[v]!) && ys.has(t.ys[v]!) && zs.has(t.zs[v]!)) positions.push(v);
  }
  return positions.map((c) => {
    const key = (v: number): [number, number] => {
      const d = dists(t, t.xs[c]!, t.ys[c]!, t.zs[c]!, v);
      return collector === 'linf' ? [d.linf, d.l1] : [d.l1, d.linf];
    };
    const sorted = [...free].sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1] || a - b);
    const nodes = sorted.slice(0, count);
    let score = 0;
    if (scorer === 'center') for (const v of nodes) score += key(v)[0];
    else for (let i = 0; i < nodes.length; i++) for (let j = i + 1; j < nodes.length; j++) score += t.distance(nodes[i]!, nodes[j]!);
    return { center: c, nodes: nodes.sort((a, b) => a - b), score };
  });
}
function referenceAllocate(f: FreeNodes, count: number, spec: readonly ['free' | 'intersect', 'l1' | 'linf', 'center' | 'pairwise']): number[] {
  const cands = referenceCandidates(f, count, ...spec);
  let best = cands[0]!;
  for (const c of cands) if (c.score < best.score) best = c; // first (lowest center) kept on ties
  return best.nodes;
}
function pairwiseSum(t: Topology, nodes: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < nodes.length; i++) for (let j = i + 1; j < nodes.length; j++) s += t.distance(nodes[i]!, nodes[j]!);
  return s;
}

describe('center-based allocators by hand', () => {
  it('MC1x1 gives a 2-node job the adjacent pair inside the L∞ shell, not the diagonal one', () => {
    // 4x4 mesh, free {1, 4, 5}: node 1 = (1,0), 4 = (0,1), 5 = (1,1).
    // Center 1: its L∞ shell 1 holds free 4 (diagonal, L1 2) and 5 (adjacent, L1 1); one is needed, the
    // L1-nearer wins: {1, 5}, score 0 + 1 = 1. No center can do better than 1, so center 1 (the lowest)
    // keeps it. By node index alone the shell would give 4: the diagonal pair {1, 4}.
    const f = onlyFree(mesh(4, 4), [1, 4, 5]);
    expect(alloc('mc1x1', f, 2)).toEqual([1, 5]);
  });

  it('MC1x1 prefers L1-near nodes inside a shell for a 3-node job as well', () => {
    // 4x4 mesh, free {0, 5, 6, 9}: 0 = (0,0), 5 = (1,1), 6 = (2,1), 9 = (1,2).
    // Center 0: shell 1 has only 5; shell 2 holds 6 and 9 (both L1 3) → lower index 6: score 0+1+2 = 3.
    // Center 5: shell 1 holds 0 (L1 2), 6 (L1 1), 9 (L1 1); two needed → 6, 9: score 0+1+1 = 2.
    // Centers 6 and 9 also reach 2 but come later. Index order alone would have taken {0, 5, 6}.
    const f = onlyFree(mesh(4, 4), [0, 5, 6, 9]);
    expect(alloc('mc1x1', f, 3)).toEqual([5, 6, 9]);
  });

  it('between candidates with equal score the lower center wins (MC1x1, Gen-Alg, MM)', () => {
    // 5x5 mesh, free {0, 1} and {23, 24}: centers 0 and 23 (and 1, 24) all give a pair at distance 1.
    // Center 0 is the lowest: {0, 1}. (For MM, intersect centers are x ∈ {0,1,3,4}, y ∈ {0,4}; center 0
    // again gives {0, 1} with pairwise sum 1 and no center gets below 1.)
    const f = onlyFree(mesh(5, 5), [0, 1, 23, 24]);
    expect(alloc('mc1x1', f, 2)).toEqual([0, 1]);
    expect(alloc('gen-alg', f, 2)).toEqual([0, 1]);
    expect(alloc('mm', f, 2)).toEqual([0, 1]);
  });

  it('Gen-Alg: two centers reach the same pairwise sum with different sets; the lower center wins', () => {
    // 5x5 mesh, busy column x = 2 and row y = 2 except their crossing 12 = (2,2): free are the four 2x2
    // corner blocks and 12. Job of 5 nodes.
    // Center 0 = (0,0): L1 shell 1 → 1, 5; shell 2, L∞ 1 first → 6 = (1,1) (then 2, 10 busy); shell 3:
    // 7 and 11 busy, (3,0) = 3 and (0,3) = 15 both L∞ 3 → lower index 3. {0, 1, 3, 5, 6}: the block's six
    // pairs 1+1+2+2+1+1 = 8, node 3 to 0, 1, 5, 6 = 3+2+4+3 = 12; total 20.
    // Center 6 = (1,1): shell 1 → 1, 5 (7, 11 busy); shell 2, L∞ 1 group → 0 and 12 (2, 10 busy):
    // {0, 1, 5, 6, 12}: block 8, node 12 to 0, 1, 5, 6 = 4+3+3+2 = 12; total 20 as well.
    // Center 12: shell 1 empty; shell 2, L∞ 1 → 6, 8, 16, 18: {6, 8, 12, 16, 18} = 4·2 + (2+2+4+4+2+2) = 24.
    // Every other center's candidate scores 20 or more (checked against the reference candidates), so the
    // tie goes to center 0, the lowest.
    const busy = [2, 7, 17, 22, 10, 11, 13, 14];
    const f = freeNodes(mesh(5, 5), busy);
    expect(alloc('gen-alg', f, 5)).toEqual([0, 1, 3, 5, 6]);
    expect(pairwiseSum(f.topology, [0, 1, 3, 5, 6])).toBe(20);
    expect(pairwiseSum(f.topology, [0, 1, 5, 6, 12])).toBe(20);
    expect(Math.min(...referenceCandidates(f, 5, 'free', 'l1', 'pairwise').map((c) => c.score))).toBe(20);
  });

  it('MM finds a better allocation around a busy center than Gen-Alg', () => {
    // 4x4 mesh, free 1 = (1,0), 4 = (0,1), 6 = (2,1), 8 = (0,2), 10 = (2,2). Job of 4.
    // Gen-Alg (free centers): center 1: L1 shell 1 none (0, 2, 5 busy); shell 2, L∞ 1 → 4, 6 (3, 9 in its
    // L∞ 2 group are busy); shell 3 holds 8 = (0,2) and 10 = (2,2), both L∞ 2 → lower index 8: {1, 4, 6, 8};
    // pairs 1-4 2, 1-6 2, 1-8 3, 4-6 2, 4-8 1, 6-8 3 → 13. Center 4 gives {1, 4, 6, 8} (shell 1: 8; shell
    // 2: 1; shell 2, L∞ 2: 6) → 13; the best Gen-Alg candidate is 13 (checked against the reference).
    // MM adds busy centers x, y ∈ {0, 1, 2}: center 5 = (1,1) takes 1, 4, 6 (shell 1) and 8 (shell 2, lower
    // index than 10) → 13; center 9 = (1,2) takes 8, 10 (shell 1) and 4, 6 (shell 2, L∞ 1) → {4, 6, 8, 10}:
    // pairs 4-6 2, 4-8 1, 4-10 3, 6-8 3, 6-10 1, 8-10 2 → 12, and no intersect center gets below 12.
    const f = onlyFree(mesh(4, 4), [1, 4, 6, 8, 10]);
    expect(alloc('gen-alg', f, 4)).toEqual([1, 4, 6, 8]);
    expect(Math.min(...referenceCandidates(f, 4, 'free', 'l1', 'pairwise').map((c) => c.score))).toBe(13);
    expect(alloc('mm', f, 4)).toEqual([4, 6, 8, 10]);
    expect(Math.min(...referenceCandidates(f, 4, 'intersect', 'l1', 'pairwise').map((c) => c.score))).toBe(12);
  });

  it('on a 3x3x2 mesh MC1x1 and Gen-Alg take the block around the lowest good center', () => {
    // 3x3x2: node = x + 3y + 9z. Busy: the whole lower layer z = 0 except 4 = (1,1,0), and 13 = (1,1,1).
    // Free: 4, and the upper layer except its middle: 9, 10, 11, 12, 14, 15, 16, 17. Job of 3.
    // MC1x1 center 4: L∞ shell 1 is the whole machine; by L1: 10, 12, 14, 16 (L1 2), then the corners
    // (L1 3): two of L1 2 → 10, 12: {4, 10, 12}, score 2. Center 9 = (0,0,1): shell 1 holds 10, 12 (L1 1),
    // 4 (L1 2; (1,1,0)): 10, 12 → {9, 10, 12}, score 2 — a tie, center 4 is lower and wins.
    // Gen-Alg center 4: L1 shell 1 none; shell 2 L∞ 1 → 10, 12, 14, 16 → 10, 12: pairwise 2+2+2 = 6.
    // Center 9: shell 1 → 10, 12: pairwise 1+1+2 = 4; no 3 nodes do better (a straight line of 3 is 4 too,
    // an L-shape is 4), so the lowest center reaching 4 wins: 9 gives {9, 10, 12}.
    const t = mesh(3, 3, 2);
    const busy = [0, 1, 2, 3, 5, 6, 7, 8, 13];
    const f = freeNodes(t, busy);
    expect(alloc('mc1x1', f, 3)).toEqual([4, 10, 12]);
    expect(alloc('gen-alg', f, 3)).toEqual([9, 10, 12]);
  });

  it('follows the contract: too many nodes, one node, all free nodes, mask untouched', () => {
    const f = freeNodes(mesh(4, 4), [0, 3, 5]);
    const before = Uint8Array.from(f.isFree);
    for (const spec of ['mc1x1', 'gen-alg', 'mm', 'center']) {
      expect(alloc(spec, f, 14)).toBeUndefined();
      expect(alloc(spec, f, 1)).toEqual([1]);
      expect(alloc(spec, f, 13)).toEqual([1, 2, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
      expect(alloc(spec, f, 0)).toEqual([]);
    }
    expect(f.isFree).toEqual(before);
  });

  it('names its parameters when one is wrong', () => {
    expect(() => createNodeAllocator('center:everywhere', mesh(2, 2))).toThrow(/unknown centers 'everywhere'; expected one of free, intersect/);
    expect(() => createNodeAllocator('center:free:l2', mesh(2, 2))).toThrow(/expected one of linf, l1/);
    expect(createNodeAllocator('mm', mesh(2, 2)).name).toBe('mm');
  });
});

describe('center-based allocators against candidates built independently', () => {
  it('Gen-Alg on 3x3: every mask and count gives the minimum pairwise sum among its own candidates', () => {
    const t = mesh(3, 3);
    for (let mask = 1; mask < 1 << 9; mask++) {
      const free = [...Array(9).keys()].filter((v) => (mask >> v) & 1);
      const f = onlyFree(t, free);
      for (let count = 1; count <= free.length; count++) {
        const got = alloc('gen-alg', f, count)!;
        const cands = referenceCandidates(f, count, 'free', 'l1', 'pairwise');
        const min = Math.min(...cands.map((c) => c.score));
        expect(pairwiseSum(t, got)).toBe(min);
        // and the lowest center among those reaching the minimum (1-node jobs: the lowest free node)
        expect(got).toEqual(cands.find((c) => c.score === min)!.nodes);
      }
    }
  });

  const specs = [
    ['mc1x1', ['free', 'linf', 'center']],
    ['gen-alg', ['free', 'l1', 'pairwise']],
    ['mm', ['intersect', 'l1', 'pairwise']],
    ['center:intersect:linf:center', ['intersect', 'linf', 'center']],
    ['center:free:linf:pairwise', ['free', 'linf', 'pairwise']],
    ['center:free:l1:center', ['free', 'l1', 'center']],
  ] as const;

  for (const kind of ['mesh', 'torus'] as const) {
    for (const dims of [[4, 4, 1], [5, 3, 1], [3, 3, 2], [4, 3, 3], [6, 1, 1], [1, 4, 2], [9, 7, 1], [5, 4, 3]] as const) {
      it(`random masks on a ${kind} ${dims.join('x')}: same as the reference, distinct free ascending nodes, mask unchanged`, () => {
        const t = new Topology(kind, [...dims]);
        const rng = new Rng(1000 + dims[0] * 100 + dims[1] * 10 + dims[2] + (kind === 'torus' ? 7 : 0));
        for (let trial = 0; trial < 60; trial++) {
          const isFree = new Uint8Array(t.nodes);
          const p = rng.next();
          for (let i = 0; i < t.nodes; i++) isFree[i] = rng.next() < p ? 1 : 0;
          const f: FreeNodes = { topology: t, isFree, count: isFree.reduce((a, v) => a + v, 0) };
          const before = Uint8Array.from(isFree);
          const count = rng.int(f.count + 2);
          for (const [spec, params] of specs) {
            const got = alloc(spec, f, count);
            if (count > f.count) {
              expect(got).toBeUndefined();
              continue;
            }
            expect(got).toHaveLength(count);
            for (let k = 0; k < got!.length; k++) {
              expect(isFree[got![k]!]).toBe(1);
              if (k > 0) expect(got![k]!).toBeGreaterThan(got![k - 1]!);
            }
            if (count >= 2 && count < f.count) expect(got).toEqual(referenceAllocate(f, count, params));
            // The offsets-table walk (used above ORDER_TABLE_MAX_NODES nodes) gives the same answer.
            const viaOffsets = new CenterAllocator(spec, t, params[0], params[1], params[2], 0).allocate(f, count);
            expect(viaOffsets === undefined ? undefined : [...viaOffsets]).toEqual(got);
          }
          expect(isFree).toEqual(before);
        }
      });
    }
  }
});
