// How good one job's allocation is on a mesh or torus (Bunde and Leung 2015, §II): the sum and mean of the
// pairwise L1 (hop) distances between its nodes — the hops its messages cross, which tracks its running
// time on real machines — its bounding box, and how many contiguous pieces it is in (nodes joined through
// neighbours at distance 1). All in time linear in the job's nodes plus the machine's sides.
import type { Topology } from './topology.js';

export interface AllocationQuality {
  /** Σ over pairs of nodes of their hop distance. */
  readonly pairwiseHops: number;
  /** pairwiseHops / pairs (0 for a one-node job). */
  readonly meanPairwiseHops: number;
  /** Side lengths of the smallest box holding the nodes (on a torus, the box without wrapping). */
  readonly boundingBox: readonly [number, number, number];
  /** Connected pieces under the machine's neighbour relation (1 = contiguous). */
  readonly pieces: number;
}

export class AllocationQualityMeter {
  private readonly histogram: Int32Array;
  private readonly mark: Uint8Array;
  private readonly stack: Int32Array;

  constructor(private readonly topology: Topology) {
    this.histogram = new Int32Array(Math.max(...topology.dims));
    this.mark = new Uint8Array(topology.nodes);
    this.stack = new Int32Array(topology.nodes);
  }

  measure(nodes: ArrayLike<number>): AllocationQuality {
    const t = this.topology;
    const n = nodes.length;
    const pairwiseHops = this.axisPairs(nodes, t.xs, t.dims[0]) + this.axisPairs(nodes, t.ys, t.dims[1]) + this.axisPairs(nodes, t.zs, t.dims[2]);
    const pairs = (n * (n - 1)) / 2;
    return { pairwiseHops, meanPairwiseHops: pairs > 0 ? pairwiseHops / pairs : 0, boundingBox: this.box(nodes), pieces: this.pieces(nodes) };
  }

  /** Σ over pairs of |coordinate difference| along one axis (the shorter way round on a torus). */
  private axisPairs(nodes: ArrayLike<number>, coord: Int32Array, size: number): number {
    if (size === 1) return 0;
    const h = this.histogram;
    h.fill(0, 0, size);
    for (let i = 0; i < nodes.length; i++) h[coord[nodes[i]!]!]!++;
    if (!this.topology.wraps) {
      // Each pair at u < v crosses the boundaries u|u+1 … v-1|v once: Σ over boundaries of left × right.
      let left = 0;
      let sum = 0;
      for (let v = 0; v < size - 1; v++) {
        left += h[v]!;
        sum += left * (nodes.length - left);
      }
      return sum;
    }
    let sum = 0;
    for (let u = 0; u < size; u++) {
      if (h[u] === 0) continue;
      for (let v = u + 1; v < size; v++) if (h[v] !== 0) sum += h[u]! * h[v]! * Math.min(v - u, size - (v - u));
    }
    return sum;
  }

  private box(nodes: ArrayLike<number>): [number, number, number] {
    const t = this.topology;
    const side = (coord: Int32Array): number => {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < nodes.length; i++) {
        const c = coord[nodes[i]!]!;
        if (c < lo) lo = c;
        if (c > hi) hi = c;
      }
      return nodes.length === 0 ? 0 : hi - lo + 1;
    };
    return [side(t.xs), side(t.ys), side(t.zs)];
  }

  /** Connected components among `nodes`, by a depth-first walk over neighbours. */
  private pieces(nodes: ArrayLike<number>): number {
    const t = this.topology;
    const [X, Y, Z] = t.dims;
    const mark = this.mark;
    for (let i = 0; i < nodes.length; i++) mark[nodes[i]!] = 1;
    let pieces = 0;
    for (let i = 0; i < nodes.length; i++) {
      const start = nodes[i]!;
      if (mark[start] !== 1) continue;
      pieces++;
      let top = 0;
      this.stack[top++] = start;
      mark[start] = 2;
      while (top > 0) {
        const node = this.stack[--top]!;
        const x = t.xs[node]!;
        const y = t.ys[node]!;
        const z = t.zs[node]!;
        const visit = (nx: number, ny: number, nz: number): void => {
          if (t.wraps) {
            nx = (nx + X) % X;
            ny = (ny + Y) % Y;
            nz = (nz + Z) % Z;
          } else if (nx < 0 || ny < 0 || nz < 0 || nx >= X || ny >= Y || nz >= Z) return;
          const m = t.nodeAt(nx, ny, nz);
          if (mark[m] === 1) {
            mark[m] = 2;
            this.stack[top++] = m;
          }
        };
        visit(x - 1, y, z);
        visit(x + 1, y, z);
        visit(x, y - 1, z);
        visit(x, y + 1, z);
        visit(x, y, z - 1);
        visit(x, y, z + 1);
      }
    }
    for (let i = 0; i < nodes.length; i++) mark[nodes[i]!] = 0;
    return pieces;
  }
}
