// Where a batch cluster's nodes are, for the machines that have a geometry: a mesh or a torus of X×Y×Z
// nodes (a 2D machine has Z = 1). Node i sits at (x, y, z) with i = x + X·(y + Y·z) — row-major, x
// fastest — and a message between two nodes crosses their L1 (Manhattan) distance in hops; on a torus
// every axis wraps, so the distance along an axis is the shorter way round.
// (The bag of cores, the default machine, has no geometry and no Topology.)

export type TopologyKind = 'mesh' | 'torus';

export class Topology {
  readonly nodes: number;
  readonly wraps: boolean;
  /** Each node's coordinates, by node index. */
  readonly xs: Int32Array;
  readonly ys: Int32Array;
  readonly zs: Int32Array;

  constructor(
    readonly kind: TopologyKind,
    readonly dims: readonly [number, number, number],
  ) {
    const [X, Y, Z] = dims;
    this.nodes = X * Y * Z;
    this.wraps = kind === 'torus';
    this.xs = new Int32Array(this.nodes);
    this.ys = new Int32Array(this.nodes);
    this.zs = new Int32Array(this.nodes);
    for (let i = 0; i < this.nodes; i++) {
      this.xs[i] = i % X;
      this.ys[i] = Math.floor(i / X) % Y;
      this.zs[i] = Math.floor(i / (X * Y));
    }
  }

  /** As written on the command line: `mesh:8x8x4`, `torus:16x16` (Z = 1 is left out). */
  get name(): string {
    const [X, Y, Z] = this.dims;
    return `${this.kind}:${X}x${Y}${Z === 1 ? '' : `x${Z}`}`;
  }

  /** The node at (x, y, z); the coordinates must lie in the machine. */
  nodeAt(x: number, y: number, z: number): number {
    return x + this.dims[0] * (y + this.dims[1] * z);
  }

  /** Hops between coordinates `a` and `b` along an axis of `size` nodes. */
  axisDistance(a: number, b: number, size: number): number {
    const d = a > b ? a - b : b - a;
    return this.wraps && size - d < d ? size - d : d;
  }

  /** Hops between two nodes: the L1 distance (wrapping on a torus). */
  distance(a: number, b: number): number {
    const [X, Y, Z] = this.dims;
    return this.axisDistance(this.xs[a]!, this.xs[b]!, X) + this.axisDistance(this.ys[a]!, this.ys[b]!, Y) + this.axisDistance(this.zs[a]!, this.zs[b]!, Z);
  }
}
