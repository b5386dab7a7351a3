// One-dimensional orders of a mesh's nodes, for the linear allocators (Leung et al. 2002, as summarised
// in Bunde and Leung 2015 §IV-C): nodes close along the order should be close in the machine.
//
// - row-major: node index order (x fastest, then y, then z).
// - snake: boustrophedon. Rows are visited plane by plane; inside a plane the rows go up y on even planes
//   and down y on odd planes, and x runs forward on every even-numbered row visited (counting rows over
//   the whole walk, from 0) and backward on odd ones — so two consecutive nodes are always neighbours.
// - hilbert: position along a Hilbert curve (2D when Z = 1, 3D otherwise) through the enclosing
//   power-of-two square or cube, starting at the origin; nodes outside the machine are skipped. The index
//   comes from Skilling's transposition (J. Skilling, "Programming the Hilbert curve", 2004), written
//   here from the description: coordinates → transposed index → bits interleaved, x's bit first.
import type { Topology } from '../topology.js';

export const CURVES = ['row-major', 'snake', 'hilbert'] as const;
export type Curve = (typeof CURVES)[number];

/** The nodes of `topology` in `curve` order: entry p is the node at position p. */
export function curveOrder(topology: Topology, curve: Curve): Int32Array {
  switch (curve) {
    case 'row-major':
      return Int32Array.from({ length: topology.nodes }, (_, i) => i);
    case 'snake':
      return snakeOrder(topology);
    case 'hilbert':
      return hilbertOrder(topology);
  }
}

function snakeOrder(topology: Topology): Int32Array {
  const [X, Y, Z] = topology.dims;
  const out = new Int32Array(topology.nodes);
  let p = 0;
  let row = 0;
  for (let z = 0; z < Z; z++) {
    for (let step = 0; step < Y; step++, row++) {
      const y = z % 2 === 0 ? step : Y - 1 - step;
      for (let k = 0; k < X; k++) {
        const x = row % 2 === 0 ? k : X - 1 - k;
        out[p++] = topology.nodeAt(x, y, z);
      }
    }
  }
  return out;
}

/**
 * Skilling's transposition, in place: `axes` holds the coordinates (each below 2^bits) and becomes the
 * "transposed" Hilbert index — bit j of the index's digit at level b is bit b of axes[j].
 */
export function axesToTransposed(axes: Int32Array | number[], bits: number): void {
  const n = axes.length;
  const top = 1 << (bits - 1);
  // Undo the excess work: per level from the top, reflect or swap lower bits.
  for (let q = top; q > 1; q >>= 1) {
    const lower = q - 1;
    for (let i = 0; i < n; i++) {
      if ((axes[i]! & q) !== 0) {
        axes[0] = axes[0]! ^ lower;
      } else {
        const t = (axes[0]! ^ axes[i]!) & lower;
        axes[0] = axes[0]! ^ t;
        axes[i] = axes[i]! ^ t;
      }
    }
  }
  // Gray encode.
  for (let i = 1; i < n; i++) axes[i] = axes[i]! ^ axes[i - 1]!;
  let t = 0;
  for (let q = top; q > 1; q >>= 1) if ((axes[n - 1]! & q) !== 0) t ^= q - 1;
  for (let i = 0; i < n; i++) axes[i] = axes[i]! ^ t;
}

/** The Hilbert index of a point as a bigint: the transposed digits read level by level, axis 0 first. */
export function hilbertIndex(coords: readonly number[], bits: number): bigint {
  const axes = coords.slice();
  if (bits > 0) axesToTransposed(axes, bits);
  let h = 0n;
  for (let b = bits - 1; b >= 0; b--) for (let i = 0; i < axes.length; i++) h = (h << 1n) | BigInt((axes[i]! >> b) & 1);
  return h;
}

function hilbertOrder(topology: Topology): Int32Array {
  const [X, Y, Z] = topology.dims;
  const n = Z === 1 ? 2 : 3;
  const side = Math.max(X, Y, Z);
  let bits = 0;
  while (1 << bits < side) bits++;
  const nodes = topology.nodes;
  const order = Int32Array.from({ length: nodes }, (_, i) => i);
  if (bits === 0) return order;
  const axes = new Int32Array(n);
  if (bits * n <= 52) {
    // The index fits a double exactly: read the interleaved bits into a number.
    const keys = new Float64Array(nodes);
    for (let i = 0; i < nodes; i++) {
      axes[0] = topology.xs[i]!;
      axes[1] = topology.ys[i]!;
      if (n === 3) axes[2] = topology.zs[i]!;
      axesToTransposed(axes, bits);
      let h = 0;
      for (let b = bits - 1; b >= 0; b--) for (let a = 0; a < n; a++) h = h * 2 + ((axes[a]! >> b) & 1);
      keys[i] = h;
    }
    return order.sort((a, b) => keys[a]! - keys[b]!);
  }
  // Very elongated machines (a huge enclosing cube): exact bigint keys, slower but only at create().
  const big: bigint[] = [];
  for (let i = 0; i < nodes; i++) {
    const c = n === 2 ? [topology.xs[i]!, topology.ys[i]!] : [topology.xs[i]!, topology.ys[i]!, topology.zs[i]!];
    big.push(hilbertIndex(c, bits));
  }
  return order.sort((a, b) => (big[a]! < big[b]! ? -1 : big[a]! > big[b]! ? 1 : 0));
}
