// The box a job gets under contiguous allocation. A job asks for a number of nodes, not a shape, so the
// shape follows one documented rule: among the boxes a×b×c that fit the machine (a ≤ X, b ≤ Y, c ≤ Z) and
// hold at least n nodes, the one with the fewest nodes (least waste), then the most cube-like (smallest
// a + b + c), then the longest along x, then along y. The job holds the first n nodes of its box in
// row-major order (x fastest); any others of the box stay free for other jobs.
// An allocator may also try the box's other orientations: boxShapes lists them, the rule's first.
import type { Topology } from './topology.js';

export type BoxShape = readonly [number, number, number];

/** The rule's box for `n` nodes, or undefined if none fits the machine (n larger than the machine). */
export function boxShape(dims: readonly [number, number, number], n: number): BoxShape | undefined {
  const [X, Y, Z] = dims;
  let best: [number, number, number] | undefined;
  for (let a = 1; a <= X; a++) {
    for (let b = 1; b <= Y; b++) {
      const c = Math.ceil(n / (a * b));
      if (c > Z) continue;
      if (c < 1) break;
      if (best === undefined || better([a, b, c], best)) best = [a, b, c];
    }
  }
  return best;
}

function better(p: BoxShape, q: BoxShape): boolean {
  const vp = p[0] * p[1] * p[2];
  const vq = q[0] * q[1] * q[2];
  if (vp !== vq) return vp < vq;
  const sp = p[0] + p[1] + p[2];
  const sq = q[0] + q[1] + q[2];
  if (sp !== sq) return sp < sq;
  if (p[0] !== q[0]) return p[0] > q[0];
  return p[1] > q[1];
}

/** The rule's box for `n` nodes, then its other distinct orientations that fit, in decreasing (a, b, c). */
export function boxShapes(topology: Topology, n: number): BoxShape[] {
  const first = boxShape(topology.dims, n);
  if (first === undefined) return [];
  const [X, Y, Z] = topology.dims;
  const [a, b, c] = first;
  const perms: BoxShape[] = [
    [a, b, c],
    [a, c, b],
    [b, a, c],
    [b, c, a],
    [c, a, b],
    [c, b, a],
  ];
  const others = perms
    .filter((s) => s[0] <= X && s[1] <= Y && s[2] <= Z && !(s[0] === a && s[1] === b && s[2] === c))
    .sort((p, q) => q[0] - p[0] || q[1] - p[1] || q[2] - p[2]);
  const out: BoxShape[] = [first];
  for (const s of others) if (!out.some((o) => o[0] === s[0] && o[1] === s[1] && o[2] === s[2])) out.push(s);
  return out;
}
