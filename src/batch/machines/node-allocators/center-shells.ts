// The geometry the center-based allocators (center.ts) share: the order in which nodes around a center
// are collected (shells by L∞ or L1 distance), kept as one table of coordinate offsets per topology rather
// than a node-by-node table, and the sum of pairwise L1 distances of a node set computed per axis from
// histograms (no loop over pairs).
//
// Offsets table: every offset (dx, dy, dz) that can separate two nodes, sorted by the collector's distance
// (the shell), then by the other metric (L1 inside an L∞ shell, L∞ inside an L1 shell), then by (dz, dy,
// dx). On a mesh node index = x + X·(y + Y·z) grows with (dz, dy, dx) for a fixed center, so within one
// (shell, other-metric) group the offsets already come in node-index order; on a torus they wrap and the
// collector sorts the few nodes it keeps from the last group. Size (2X−1)(2Y−1)(2Z−1) on a mesh, X·Y·Z on a
// torus: 16,129 entries for a 64×64 mesh.
import type { Topology } from '../topology.js';

export type ShellMetric = 'linf' | 'l1';

export interface ShellOffsets {
  readonly dx: Int32Array;
  readonly dy: Int32Array;
  readonly dz: Int32Array;
  /** Node-index difference dx + X·(dy + Y·dz) (used on a mesh, where nothing wraps). */
  readonly dIndex: Int32Array;
  /** Group g (equal shell and equal other-metric distance) is entries groupStart[g] … groupStart[g+1]−1. */
  readonly groupStart: Int32Array;
  /** The shell (collector distance) of group g. */
  readonly groupShell: Int32Array;
  readonly groups: number;
  /** The shell of each entry. */
  readonly shell: Int32Array;
  /** shellEnd[m]: the first entry whose shell exceeds m (entries before it lie within shell m). */
  readonly shellEnd: Int32Array;
}

const cache = new WeakMap<Topology, Map<ShellMetric, ShellOffsets>>();

/** The offsets table of `topology` for shells by `metric` (built once per topology and metric). */
export function shellOffsets(topology: Topology, metric: ShellMetric): ShellOffsets {
  let byMetric = cache.get(topology);
  if (byMetric === undefined) {
    byMetric = new Map();
    cache.set(topology, byMetric);
  }
  let table = byMetric.get(metric);
  if (table === undefined) {
    table = buildShellOffsets(topology, metric);
    byMetric.set(metric, table);
  }
  return table;
}

function buildShellOffsets(topology: Topology, metric: ShellMetric): ShellOffsets {
  const [X, Y, Z] = topology.dims;
  const range = (size: number): number[] => {
    const out: number[] = [];
    if (topology.wraps) for (let d = 0; d < size; d++) out.push(d);
    else for (let d = -(size - 1); d < size; d++) out.push(d);
    return out;
  };
  const axis = (d: number, size: number): number => topology.axisDistance(0, d < 0 ? -d : d, size);
  const rows: { dx: number; dy: number; dz: number; shell: number; other: number }[] = [];
  for (const dz of range(Z)) {
    for (const dy of range(Y)) {
      for (const dx of range(X)) {
        const ax = axis(dx, X);
        const ay = axis(dy, Y);
        const az = axis(dz, Z);
        const l1 = ax + ay + az;
        const linf = Math.max(ax, ay, az);
        rows.push(metric === 'linf' ? { dx, dy, dz, shell: linf, other: l1 } : { dx, dy, dz, shell: l1, other: linf });
      }
    }
  }
  // Rows were pushed in (dz, dy, dx) order; a stable sort on (shell, other) keeps it within each group.
  rows.sort((a, b) => a.shell - b.shell || a.other - b.other);
  const n = rows.length;
  const dx = new Int32Array(n);
  const dy = new Int32Array(n);
  const dz = new Int32Array(n);
  const dIndex = new Int32Array(n);
  const shell = new Int32Array(n);
  const starts: number[] = [];
  const shells: number[] = [];
  for (let k = 0; k < n; k++) {
    const r = rows[k]!;
    dx[k] = r.dx;
    dy[k] = r.dy;
    dz[k] = r.dz;
    dIndex[k] = r.dx + X * (r.dy + Y * r.dz);
    shell[k] = r.shell;
    const prev = rows[k - 1];
    if (prev === undefined || prev.shell !== r.shell || prev.other !== r.other) {
      starts.push(k);
      shells.push(r.shell);
    }
  }
  starts.push(n);
  const maxShell = n === 0 ? 0 : shell[n - 1]!;
  const shellEnd = new Int32Array(maxShell + 1);
  for (let m = 0, k = 0; m <= maxShell; m++) {
    while (k < n && shell[k]! <= m) k++;
    shellEnd[m] = k;
  }
  return { dx, dy, dz, dIndex, groupStart: Int32Array.from(starts), groupShell: Int32Array.from(shells), groups: shells.length, shell, shellEnd };
}

/**
 * Per-center node orders, for machines small enough that nodes² entries are cheap (N ≤ ORDER_TABLE_MAX_NODES:
 * at most 1M entries, 4 MB): entries c·N … c·N+N−1 list every node in the order a collector takes them
 * around center c — shell, other metric, node index — with each entry's shell alongside. Walking it skips
 * nothing, where the offsets table skips offsets that leave a mesh.
 */
export interface ShellOrders {
  readonly nodes: Uint16Array;
  readonly shells: Uint16Array;
}

export const ORDER_TABLE_MAX_NODES = 1024;

const orderCache = new WeakMap<Topology, Map<ShellMetric, ShellOrders>>();

/** The per-center orders of `topology` for `metric` (built once per topology and metric). */
export function shellOrders(topology: Topology, metric: ShellMetric): ShellOrders {
  let byMetric = orderCache.get(topology);
  if (byMetric === undefined) {
    byMetric = new Map();
    orderCache.set(topology, byMetric);
  }
  let orders = byMetric.get(metric);
  if (orders === undefined) {
    orders = buildShellOrders(topology, shellOffsets(topology, metric));
    byMetric.set(metric, orders);
  }
  return orders;
}

function buildShellOrders(topology: Topology, table: ShellOffsets): ShellOrders {
  const n = topology.nodes;
  if (n > 65536) throw new RangeError(`shell orders hold node indices below 65536; ${topology.name} has ${n} nodes`);
  const [X, Y, Z] = topology.dims;
  const nodes = new Uint16Array(n * n);
  const shells = new Uint16Array(n * n);
  const { dx, dy, dz, groupStart, groupShell, groups } = table;
  for (let c = 0; c < n; c++) {
    const cx = topology.xs[c]!;
    const cy = topology.ys[c]!;
    const cz = topology.zs[c]!;
    let k = c * n;
    for (let g = 0; g < groups; g++) {
      const from = k;
      for (let e = groupStart[g]!; e < groupStart[g + 1]!; e++) {
        let x = cx + dx[e]!;
        let y = cy + dy[e]!;
        let z = cz + dz[e]!;
        if (topology.wraps) {
          x %= X;
          y %= Y;
          z %= Z;
        } else if (x < 0 || x >= X || y < 0 || y >= Y || z < 0 || z >= Z) continue;
        nodes[k] = x + X * (y + Y * z);
        shells[k] = groupShell[g]!;
        k++;
      }
      // On a torus a group's nodes need not come in index order (on a mesh they do).
      if (topology.wraps) nodes.subarray(from, k).sort();
    }
  }
  return { nodes, shells };
}

/**
 * Sums of pairwise L1 distances of node sets on one topology, per axis: on a line, the pairs a boundary
 * between coordinates b and b+1 separates are left(b)·right(b), so the axis sum is the sum of those
 * products; on a ring each node's distance sum to all others comes from prefix sums over the doubled
 * ring. O(count + X + Y + Z) per set, less on a mesh where the set is known to lie near a center. Keeps its own scratch histograms.
 */
export class PairwiseL1 {
  /** One histogram for the three axes: x bins at 0 … X−1, y bins at X … X+Y−1, z bins after them. */
  private readonly hist: Int32Array;
  /** Each node's three bins in `hist`, side by side (node v at 3v … 3v+2). */
  private readonly bins: Int32Array;
  /** Ring scratch: prefix counts and prefix coordinate-weighted counts over the doubled axis. */
  private readonly p: Float64Array;
  private readonly q: Float64Array;

  constructor(private readonly topology: Topology) {
    const [X, Y, Z] = topology.dims;
    this.hist = new Int32Array(X + Y + Z);
    this.bins = new Int32Array(3 * topology.nodes);
    for (let v = 0; v < topology.nodes; v++) {
      this.bins[3 * v] = topology.xs[v]!;
      this.bins[3 * v + 1] = X + topology.ys[v]!;
      this.bins[3 * v + 2] = X + Y + topology.zs[v]!;
    }
    const longest = Math.max(X, Y, Z);
    this.p = new Float64Array(2 * longest + 1);
    this.q = new Float64Array(2 * longest + 1);
  }

  /**
   * The sum over unordered pairs of nodes[0 … count−1] of their L1 distance (wrapping on a torus). On a
   * mesh the nodes must lie within `radius` of (cx, cy, cz) along every axis (true of nodes taken from
   * shells up to `radius` around that center, by either metric): only that stretch of each axis is summed.
   */
  sum(nodes: Int32Array, count: number, cx: number, cy: number, cz: number, radius: number): number {
    const { hist, bins } = this;
    for (let i = 0; i < count; i++) {
      const b = 3 * nodes[i]!;
      hist[bins[b]!]!++;
      hist[bins[b + 1]!]!++;
      hist[bins[b + 2]!]!++;
    }
    const [X, Y, Z] = this.topology.dims;
    if (!this.topology.wraps) {
      return (
        line(hist, Math.max(0, cx - radius), Math.min(X - 1, cx + radius), count) +
        line(hist, X + Math.max(0, cy - radius), X + Math.min(Y - 1, cy + radius), count) +
        line(hist, X + Y + Math.max(0, cz - radius), X + Y + Math.min(Z - 1, cz + radius), count)
      );
    }
    return this.ring(0, X, count) + this.ring(X, Y, count) + this.ring(X + Y, Z, count);
  }

  /**
   * The pairwise distance sum along one axis of a torus, from the histogram of `count` nodes at
   * hist[from … from+size−1]; clears those bins.
   */
  private ring(from: number, size: number, count: number): number {
    const h = this.hist;
    if (size <= 2) {
      // On a ring of 1 or 2 positions the distance is the same as on a line.
      return line(h, from, from + size - 1, count);
    }
    // Ring: F(i) = Σ_j h_j·min(d, size−d) with d = (j − i) mod size, over the doubled axis k = i+1 … i+size−1:
    // offsets d ≤ half weigh d, the rest weigh size − d. total = ½ Σ_i h_i·F(i).
    const { p, q } = this;
    const n2 = 2 * size;
    p[0] = 0;
    q[0] = 0;
    for (let k = 0; k < n2; k++) {
      const c = h[from + (k < size ? k : k - size)]!;
      p[k + 1] = p[k]! + c;
      q[k + 1] = q[k]! + c * k;
    }
    const half = Math.floor(size / 2);
    let twice = 0;
    for (let i = 0; i < size; i++) {
      const hi = h[from + i]!;
      if (hi === 0) continue;
      h[from + i] = 0;
      // Near side: k in [i+1, i+half], weight k − i.
      const nearCount = p[i + half + 1]! - p[i + 1]!;
      const nearSum = q[i + half + 1]! - q[i + 1]! - i * nearCount;
      // Far side: k in [i+half+1, i+size−1], weight size − (k − i).
      const farCount = p[i + size]! - p[i + half + 1]!;
      const farSum = (size + i) * farCount - (q[i + size]! - q[i + half + 1]!);
      twice += hi * (nearSum + farSum);
    }
    return twice / 2;
  }
}

/**
 * The pairwise distance sum along a line of the histogram `h` of `count` nodes, all at coordinates lo … hi:
 * each boundary b | b+1 is crossed by left(b)·right(b) pairs. Clears h[lo … hi] for the next set.
 */
function line(h: Int32Array, lo: number, hi: number, count: number): number {
  let total = 0;
  let left = 0;
  for (let b = lo; b < hi; b++) {
    left += h[b]!;
    h[b] = 0;
    total += left * (count - left);
  }
  h[hi] = 0;
  return total;
}
