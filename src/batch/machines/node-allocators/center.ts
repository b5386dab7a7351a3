// Center-based processor allocators for mesh and torus machines (Bunde and Leung 2015, §IV-B): for every
// candidate center, collect the free nodes nearest to it shell by shell into a candidate allocation, score
// each candidate, keep the best. Three choices make the family (`center:centers:collector:scorer`):
//   centers   free      — every free node;
//             intersect — every position whose x, y (and z) each equal some free node's (MM's centers;
//                         such a center may itself be busy);
//   collector linf | l1 — shells by L∞ or L1 distance from the center (wrapping on a torus);
//   scorer    center    — the sum of the chosen nodes' shell numbers (MC's score);
//             pairwise  — the sum of pairwise L1 distances between the chosen nodes (Gen-Alg's, MM's).
// Known members: MC1x1 = free:linf:center, Gen-Alg = free:l1:pairwise (the default), MM = intersect:l1:pairwise.
//
// Ties (the paper reports a first MC1x1 that gave 2-node jobs diagonal pairs, and two ports that disagreed
// through their sort routines, so every tie here has one rule):
//   - inside the outermost shell a candidate needs only part of, nodes nearer the center by the other
//     metric come first (L1 inside an L∞ shell — so a 2-node job gets an adjacent pair, not a diagonal
//     one — and L∞ inside an L1 shell), then the lower node index;
//   - between candidates with equal score, the one from the center with the lower node index wins
//     (intersect centers are ordered by the node index of their position);
//   - a 1-node job gets the lowest-index free node (any single node scores 0; for free centers this is
//     also what the rule above gives, for intersect centers it is the rule);
//   - a job asking for every free node gets them all.
// Speed (center-shells.ts): each center's collection order comes from a per-center node table on machines
// of up to 1,024 nodes and from one table of coordinate offsets beyond (no nodes² memory); a walk adds a
// node without branching on whether it is free (isFree holds only 0 and 1, as FreeNodes says); pairwise
// sums come from per-axis histograms over the stretch the candidate spans; a candidate under the center
// scorer stops as soon as its score so far plus the least the rest can add reaches the best one's; 1-node
// and all-free-nodes jobs skip the search. Scratch is typed arrays kept in the allocator.
import {
  AllocatorSpecError,
  parameterValue,
  type FreeNodes,
  type NodeAllocator,
  type NodeAllocatorFamily,
} from '../node-allocator.js';
import type { Topology } from '../topology.js';
import {
  ORDER_TABLE_MAX_NODES,
  PairwiseL1,
  shellOffsets,
  shellOrders,
  type ShellMetric,
  type ShellOffsets,
  type ShellOrders,
} from './center-shells.js';

export type CenterChoice = 'free' | 'intersect';
export type CenterScorer = 'center' | 'pairwise';

export class CenterAllocator implements NodeAllocator {
  readonly contiguous = false;
  private readonly offsets: ShellOffsets;
  /** Per-center orders on machines of up to `orderTableMaxNodes` nodes; the offsets table beyond. */
  private readonly orders: ShellOrders | undefined;
  private readonly pairwise: PairwiseL1;
  /** The candidate being collected, and the best one so far. */
  private readonly candidate: Int32Array;
  private readonly best: Int32Array;
  /** For intersect centers: which x, y, z coordinates some free node has. */
  private readonly hasX: Uint8Array;
  private readonly hasY: Uint8Array;
  private readonly hasZ: Uint8Array;
  private readonly X: number;
  private readonly Y: number;
  private readonly Z: number;
  private readonly wraps: boolean;

  constructor(
    readonly name: string,
    private readonly topology: Topology,
    private readonly centers: CenterChoice,
    collector: ShellMetric,
    private readonly scorer: CenterScorer,
    orderTableMaxNodes = ORDER_TABLE_MAX_NODES,
  ) {
    this.offsets = shellOffsets(topology, collector);
    this.orders = topology.nodes <= orderTableMaxNodes ? shellOrders(topology, collector) : undefined;
    this.pairwise = new PairwiseL1(topology);
    this.candidate = new Int32Array(topology.nodes);
    this.best = new Int32Array(topology.nodes);
    const [X, Y, Z] = topology.dims;
    this.X = X;
    this.Y = Y;
    this.Z = Z;
    this.wraps = topology.wraps;
    this.hasX = new Uint8Array(X);
    this.hasY = new Uint8Array(Y);
    this.hasZ = new Uint8Array(Z);
  }

  allocate(free: FreeNodes, count: number): Int32Array | undefined {
    const isFree = free.isFree;
    if (isFree.length !== this.topology.nodes) {
      throw new RangeError(`${this.name}: the free-node mask has ${isFree.length} entries, expected ${this.topology.nodes} (one per node of ${this.topology.name})`);
    }
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`${this.name}: a job asks for a whole number of nodes ≥ 0, got ${count}`);
    if (count > free.count) return undefined;
    if (count === 0) return new Int32Array(0);
    if (count === 1) {
      const out = new Int32Array(1);
      out[0] = isFree.indexOf(1);
      return out;
    }
    if (count === free.count) return allFree(isFree, count);

    let bestScore = Infinity;
    const { X, Y, Z } = this;
    if (this.centers === 'free') {
      const { xs, ys, zs } = this.topology;
      for (let c = 0; c < isFree.length; c++) {
        if (isFree[c] !== 1) continue;
        const score = this.collect(isFree, count, xs[c]!, ys[c]!, zs[c]!, c, bestScore);
        if (score < bestScore) {
          bestScore = score;
          this.best.set(this.candidate.subarray(0, count));
        }
      }
    } else {
      const { hasX, hasY, hasZ } = this;
      hasX.fill(0);
      hasY.fill(0);
      hasZ.fill(0);
      const { xs, ys, zs } = this.topology;
      for (let i = 0; i < isFree.length; i++) {
        if (isFree[i] !== 1) continue;
        hasX[xs[i]!] = 1;
        hasY[ys[i]!] = 1;
        hasZ[zs[i]!] = 1;
      }
      // z, then y, then x ascending: increasing node index.
      for (let z = 0; z < Z; z++) {
        if (hasZ[z] !== 1) continue;
        for (let y = 0; y < Y; y++) {
          if (hasY[y] !== 1) continue;
          for (let x = 0; x < X; x++) {
            if (hasX[x] !== 1) continue;
            const score = this.collect(isFree, count, x, y, z, x + X * (y + Y * z), bestScore);
            if (score < bestScore) {
              bestScore = score;
              this.best.set(this.candidate.subarray(0, count));
            }
          }
        }
      }
    }
    return this.best.slice(0, count).sort();
  }

  /**
   * Collects into `candidate` the `count` free nodes nearest the center (cx, cy, cz) = node c and returns
   * their score, or Infinity as soon as the score cannot get below `bound` (center scorer only).
   */
  private collect(isFree: Uint8Array, count: number, cx: number, cy: number, cz: number, c: number, bound: number): number {
    if (this.orders !== undefined) return this.collectByOrder(isFree, count, cx, cy, cz, c, bound);
    if (!this.wraps) return this.collectOnMesh(isFree, count, cx, cy, cz, c, bound);
    // Torus: every offset lands in the machine, but a (shell, other-metric) group's nodes need not come
    // in index order, so the part of the last group that is needed is sorted.
    const { dx, dy, dz, groupStart, groupShell, groups } = this.offsets;
    const { X, Y, Z } = this;
    const byCenter = this.scorer === 'center';
    const cand = this.candidate;
    let len = 0;
    let score = 0;
    for (let g = 0; g < groups; g++) {
      const shell = groupShell[g]!;
      if (byCenter && score + (count - len) * shell >= bound) return Infinity;
      const from = len;
      const end = groupStart[g + 1]!;
      for (let k = groupStart[g]!; k < end; k++) {
        let x = cx + dx[k]!;
        if (x >= X) x -= X;
        let y = cy + dy[k]!;
        if (y >= Y) y -= Y;
        let z = cz + dz[k]!;
        if (z >= Z) z -= Z;
        const v = x + X * (y + Y * z);
        cand[len] = v;
        len += isFree[v]!;
      }
      if (len >= count) {
        // The last group is only partly needed: lower node index first.
        if (len > count) insertionSort(cand, from, len);
        score += (count - from) * shell;
        break;
      }
      score += (len - from) * shell;
    }
    return byCenter ? score : this.pairwise.sum(cand, count, cx, cy, cz, Infinity);
  }

  /**
   * collect() on a mesh without per-center orders. The offsets table's order (shell, other metric, dz,
   * dy, dx) is the collection order itself here (the node index grows with (dz, dy, dx) around a fixed
   * center), so the first `count` free nodes it reaches are the candidate. Shells up to `margin` (the
   * center's distance to the nearest face, over the axes longer than 1) lie wholly inside the machine and
   * are walked without bounds checks.
   */
  private collectOnMesh(isFree: Uint8Array, count: number, cx: number, cy: number, cz: number, c: number, bound: number): number {
    const { dx, dy, dz, dIndex, shell, shellEnd } = this.offsets;
    const { X, Y, Z } = this;
    const byCenter = this.scorer === 'center';
    const cand = this.candidate;
    let margin = X > 1 ? Math.min(cx, X - 1 - cx) : Infinity;
    if (Y > 1) margin = Math.min(margin, cy, Y - 1 - cy);
    if (Z > 1) margin = Math.min(margin, cz, Z - 1 - cz);
    const inside = margin >= shellEnd.length ? shellEnd[shellEnd.length - 1]! : shellEnd[margin]!;
    let len = 0;
    let score = 0;
    for (let k = 0; ; k++) {
      let v: number;
      if (k < inside) v = c + dIndex[k]!;
      else {
        const x = cx + dx[k]!;
        if (x < 0 || x >= X) continue;
        const y = cy + dy[k]!;
        if (y < 0 || y >= Y) continue;
        const z = cz + dz[k]!;
        if (z < 0 || z >= Z) continue;
        v = c + dIndex[k]!;
      }
      // Branch-free on whether v is free (the branch would be a coin toss on a half-full machine).
      const f = isFree[v]!;
      cand[len] = v;
      len += f;
      if (byCenter) {
        const s = shell[k]!;
        score += f * s;
        if (len === count) return score;
        // Every node still to come lies in shell s or beyond.
        if (score + (count - len) * s >= bound) return Infinity;
      } else if (len === count) return this.pairwise.sum(cand, count, cx, cy, cz, shell[k]!);
    }
  }

  /** collect() on a machine with per-center orders: the first `count` free nodes of center c's order. */
  private collectByOrder(isFree: Uint8Array, count: number, cx: number, cy: number, cz: number, c: number, bound: number): number {
    const { nodes, shells } = this.orders!;
    const cand = this.candidate;
    let len = 0;
    if (this.scorer === 'center') {
      let score = 0;
      for (let k = c * isFree.length; ; k++) {
        const v = nodes[k]!;
        const f = isFree[v]!;
        const shell = shells[k]!;
        cand[len] = v;
        len += f;
        score += f * shell;
        if (len === count) return score;
        if (score + (count - len) * shell >= bound) return Infinity;
      }
    }
    for (let k = c * isFree.length; ; k++) {
      const v = nodes[k]!;
      cand[len] = v;
      len += isFree[v]!;
      if (len === count) return this.pairwise.sum(cand, count, cx, cy, cz, shells[k]!);
    }
  }
}

function insertionSort(a: Int32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const v = a[i]!;
    let j = i - 1;
    while (j >= from && a[j]! > v) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = v;
  }
}

function allFree(isFree: Uint8Array, count: number): Int32Array {
  const out = new Int32Array(count);
  let k = 0;
  for (let i = 0; i < isFree.length; i++) if (isFree[i] === 1) out[k++] = i;
  return out;
}

export const centerFamily: NodeAllocatorFamily = {
  name: 'center',
  help: 'center-based: best of the nearest free nodes around each candidate center (MC1x1, Gen-Alg, MM; Bunde and Leung 2015)',
  parameters: [
    { name: 'centers', values: ['free', 'intersect'], default: 'free' },
    { name: 'collector', values: ['linf', 'l1'], default: 'l1' },
    { name: 'scorer', values: ['center', 'pairwise'], default: 'pairwise' },
  ],
  contiguous: false,
  create(params: readonly string[], topology: Topology): NodeAllocator {
    const centers = parameterValue(centerFamily, params, 0) as CenterChoice;
    const collector = parameterValue(centerFamily, params, 1) as ShellMetric;
    const scorer = parameterValue(centerFamily, params, 2) as CenterScorer;
    if (topology.nodes < 1) throw new AllocatorSpecError(`center: the machine has no nodes; give a mesh or torus of at least 1x1`);
    return new CenterAllocator(`center:${centers}:${collector}:${scorer}`, topology, centers, collector, scorer);
  },
};
