// Contiguous allocation: every job gets a box of nodes (a sub-mesh), shaped by the rule in
// ../submesh-shape.ts, in any orientation that fits. `first-fit` takes the free box whose corner has the
// lowest node index (at one corner, the orientation first in boxShapes' order); `best-fit` takes the free
// box that touches the most busy nodes and machine edges across its faces — the snuggest place, which
// leaves the largest free regions whole — with ties going to the lower corner, then boxShapes' order.
// On a torus boxes do not wrap.
// A job may fail to be placed although enough nodes are free: the policy asks before starting it, and
// EASY checks its head job's reservation with this allocator (../contiguous-reservation.ts).
// Cost: a prefix sum of busy nodes and the free runs along x per state, O(nodes); then O(1) per candidate
// box (and per face), skipping past any run of free nodes too short for the box's width; and a shape that
// holds a shape found nowhere free in this state is not searched.
import { AllocatorSpecError, parameterValue, type FreeNodes, type NodeAllocator, type NodeAllocatorFamily } from '../node-allocator.js';
import { boxShapes, type BoxShape } from '../submesh-shape.js';
import type { Topology } from '../topology.js';

/** Busy-node counts over boxes in O(1), from a 3D prefix sum rebuilt for each state. */
class BusyCounts {
  /** For each node, how many free nodes run from it along +x (0 when it is busy). */
  readonly freeRunX: Int32Array;
  private readonly sums: Int32Array;
  private readonly sx: number;
  private readonly sxy: number;

  constructor(private readonly topology: Topology) {
    const [X, Y, Z] = topology.dims;
    this.sx = X + 1;
    this.sxy = (X + 1) * (Y + 1);
    this.sums = new Int32Array((X + 1) * (Y + 1) * (Z + 1));
    this.freeRunX = new Int32Array(X * Y * Z);
  }

  load(isFree: Uint8Array): void {
    const [X, Y, Z] = this.topology.dims;
    const s = this.sums;
    for (let row = 0; row < Y * Z; row++) {
      let run = 0;
      for (let x = X - 1; x >= 0; x--) {
        const i = x + X * row;
        run = isFree[i] === 1 ? run + 1 : 0;
        this.freeRunX[i] = run;
      }
    }
    // The sum along x within each row, then along y, then along z: three passes of one addition each.
    const sx = this.sx;
    const sxy = this.sxy;
    for (let z = 1; z <= Z; z++) {
      for (let y = 1; y <= Y; y++) {
        const from = X * (y - 1 + Y * (z - 1));
        let i = 1 + sx * y + sxy * z;
        let row = 0;
        for (let x = 0; x < X; x++, i++) {
          row += 1 - isFree[from + x]!;
          s[i] = row;
        }
      }
    }
    for (let z = 1; z <= Z; z++) for (let y = 2; y <= Y; y++) for (let x = 1, i = 1 + sx * y + sxy * z; x <= X; x++, i++) s[i] = s[i]! + s[i - sx]!;
    for (let z = 2; z <= Z; z++) for (let y = 1; y <= Y; y++) for (let x = 1, i = 1 + sx * y + sxy * z; x <= X; x++, i++) s[i] = s[i]! + s[i - sxy]!;
  }

  /** Busy nodes in [x0, x1) × [y0, y1) × [z0, z1), a box inside the machine (the hot path: no clipping). */
  busyInside(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
    const s = this.sums;
    const sx = this.sx;
    const sxy = this.sxy;
    const a0 = sx * y0 + sxy * z0;
    const a1 = sx * y1 + sxy * z0;
    const a2 = sx * y0 + sxy * z1;
    const a3 = sx * y1 + sxy * z1;
    return s[x1 + a3]! - s[x0 + a3]! - s[x1 + a2]! - s[x1 + a1]! + s[x0 + a2]! + s[x0 + a1]! + s[x1 + a0]! - s[x0 + a0]!;
  }

  /** Busy nodes in [x0, x1) × [y0, y1) × [z0, z1), the box clipped to the machine. */
  busy(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
    const [X, Y, Z] = this.topology.dims;
    x0 = Math.max(0, x0);
    y0 = Math.max(0, y0);
    z0 = Math.max(0, z0);
    x1 = Math.min(X, x1);
    y1 = Math.min(Y, y1);
    z1 = Math.min(Z, z1);
    if (x0 >= x1 || y0 >= y1 || z0 >= z1) return 0;
    const s = this.sums;
    const at = (x: number, y: number, z: number) => s[x + this.sx * y + this.sxy * z]!;
    return at(x1, y1, z1) - at(x0, y1, z1) - at(x1, y0, z1) - at(x1, y1, z0) + at(x0, y0, z1) + at(x0, y1, z0) + at(x1, y0, z0) - at(x0, y0, z0);
  }
}

type Selection = 'first-fit' | 'best-fit';

class ContiguousAllocator implements NodeAllocator {
  readonly contiguous = true;
  private readonly counts: BusyCounts;
  /** The FreeNodes.version the prefix sums were built for. */
  private loaded: number | undefined;
  /** Box shapes found nowhere free in that state. */
  private readonly failed: BoxShape[] = [];
  private readonly shapes = new Map<number, BoxShape[]>();

  constructor(
    readonly name: string,
    private readonly topology: Topology,
    private readonly selection: Selection,
  ) {
    this.counts = new BusyCounts(topology);
  }

  allocate(free: FreeNodes, count: number): Int32Array | undefined {
    if (count > free.count || count < 1) return undefined;
    let shapes = this.shapes.get(count);
    if (shapes === undefined) {
      shapes = boxShapes(this.topology, count);
      this.shapes.set(count, shapes);
    }
    if (shapes.length === 0) return undefined;
    if (free.version === undefined || free.version !== this.loaded) {
      this.counts.load(free.isFree);
      this.failed.length = 0;
    }
    this.loaded = free.version;
    // A box that holds a box already found nowhere free cannot be free either.
    const open = shapes.filter((s) => !this.failed.some((f) => f[0] <= s[0] && f[1] <= s[1] && f[2] <= s[2]));
    if (open.length === 0) return undefined;
    const [X, Y, Z] = this.topology.dims;
    const runs = this.counts.freeRunX;
    let best: { at: number; shape: BoxShape } | undefined;
    let bestContact = -1;
    for (const shape of open) {
      const [a, b, c] = shape;
      let foundHere = false;
      scan: for (let z = 0; z + c <= Z; z++) {
        for (let y = 0; y + b <= Y; y++) {
          for (let x = 0; x + a <= X; ) {
            const at = this.topology.nodeAt(x, y, z);
            // Free nodes from here along x: a shorter run means no box of width a starts before its end.
            const run = runs[at]!;
            if (run < a) {
              x += run + 1;
              continue;
            }
            if (this.counts.busyInside(x, y, z, x + a, y + b, z + c) !== 0) {
              x++;
              continue;
            }
            foundHere = true;
            if (this.selection === 'first-fit') {
              if (best === undefined || at < best.at) best = { at, shape };
              break scan;
            }
            const contact = this.contact(x, y, z, shape);
            if (contact > bestContact || (contact === bestContact && at < best!.at)) {
              bestContact = contact;
              best = { at, shape };
            }
            x++;
          }
        }
      }
      if (!foundHere && free.version !== undefined) this.failed.push(shape);
    }
    if (best === undefined) return undefined;
    const t = this.topology;
    return this.take(t.xs[best.at]!, t.ys[best.at]!, t.zs[best.at]!, best.shape, count);
  }

  /** Face cells of the box at (x, y, z) that are busy or beyond the machine's edge. */
  private contact(x: number, y: number, z: number, [a, b, c]: BoxShape): number {
    const [X, Y, Z] = this.topology.dims;
    const face = (outside: boolean, area: number, busy: () => number): number => (outside ? area : busy());
    return (
      face(x === 0, b * c, () => this.counts.busy(x - 1, y, z, x, y + b, z + c)) +
      face(x + a === X, b * c, () => this.counts.busy(x + a, y, z, x + a + 1, y + b, z + c)) +
      face(y === 0, a * c, () => this.counts.busy(x, y - 1, z, x + a, y, z + c)) +
      face(y + b === Y, a * c, () => this.counts.busy(x, y + b, z, x + a, y + b + 1, z + c)) +
      face(z === 0, a * b, () => this.counts.busy(x, y, z - 1, x + a, y + b, z)) +
      face(z + c === Z, a * b, () => this.counts.busy(x, y, z + c, x + a, y + b, z + c + 1))
    );
  }

  /** The first `count` nodes of the box in row-major order, as increasing node indices. */
  private take(x: number, y: number, z: number, [a, b, c]: BoxShape, count: number): Int32Array {
    const out = new Int32Array(count);
    let k = 0;
    for (let dz = 0; dz < c && k < count; dz++) {
      for (let dy = 0; dy < b && k < count; dy++) {
        for (let dx = 0; dx < a && k < count; dx++) out[k++] = this.topology.nodeAt(x + dx, y + dy, z + dz);
      }
    }
    return out.sort();
  }
}

export const contiguousFamily: NodeAllocatorFamily = {
  name: 'contiguous',
  help: 'a box (sub-mesh) per job, shaped by a fixed rule; first-fit or best-fit placement; may leave a job waiting although enough nodes are free',
  parameters: [{ name: 'selection', values: ['first-fit', 'best-fit'], default: 'first-fit' }],
  contiguous: true,
  create(params, topology) {
    const selection = parameterValue(this, params, 0) as Selection;
    if (topology.nodes < 1) throw new AllocatorSpecError('contiguous: the machine has no nodes');
    return new ContiguousAllocator(['contiguous', ...params].join(':'), topology, selection);
  },
};
