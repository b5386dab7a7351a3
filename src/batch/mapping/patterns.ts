// The communication patterns task mapping is scored against (Bunde and Leung 2015, §III-B): which of a
// job's R ranks exchange messages, as undirected edges (rankA < rankB, one edge per communicating pair,
// 1 unit of bytes each; `gridsweep map --message-bytes` scales the unit). Each pattern also gives its rank
// grid — extents [px, py, pz], rank r at (r mod px, ⌊r/px⌋ mod py, ⌊r/(px·py)⌋) — which geometric mappers
// (bisection) split; a pattern with no geometry has the grid [R, 1, 1], i.e. rank order.
// Adding a pattern is one entry in PATTERNS.

/** One communicating pair: ranks a < b, and the bytes between them (in units of --message-bytes). */
export type Edge = readonly [a: number, b: number, bytes: number];

export type Extents = readonly [number, number, number];

export interface CommunicationPattern {
  readonly name: string;
  /** One line for --help and the README. */
  readonly help: string;
  /** The rank grid of R ranks (its extents multiply to R). */
  grid(ranks: number): Extents;
  /** Every communicating pair of ranks 0…R−1, each once, with a < b. */
  edges(ranks: number): Edge[];
}

/** Raised when a job's pattern would list more edges than MAX_EDGES; the message says how to avoid it. */
export class PatternTooLargeError extends Error {
  override readonly name = 'PatternTooLargeError';
}

/** The most edges one job's pattern is enumerated with (memory: about 50 bytes an edge). */
export const MAX_EDGES = 1 << 22;

/**
 * The most-square px × py = R with px ≤ py: px is the largest divisor of R not above √R. A prime R has
 * only 1 × R — a line of ranks, which is what a 2D stencil over a prime count of ranks degenerates to.
 */
export function squarestGrid(ranks: number): [number, number] {
  let px = 1;
  for (let d = 1; d * d <= ranks; d++) if (ranks % d === 0) px = d;
  return [px, ranks / px];
}

/**
 * The most cube-like px × py × pz = R with px ≤ py ≤ pz: the one with the least surface px·py + py·pz +
 * pz·px (so the most 6-neighbour edges), ties to the smaller pz. A prime R gives 1 × 1 × R.
 */
export function cubiestGrid(ranks: number): [number, number, number] {
  let best: [number, number, number] = [1, 1, ranks];
  let bestSurface = Infinity;
  for (let px = 1; px * px * px <= ranks; px++) {
    if (ranks % px !== 0) continue;
    const rest = ranks / px;
    for (let py = px; py * py <= rest; py++) {
      if (rest % py !== 0) continue;
      const pz = rest / py;
      const surface = px * py + py * pz + pz * px;
      if (surface < bestSurface || (surface === bestSurface && pz < best[2])) {
        best = [px, py, pz];
        bestSurface = surface;
      }
    }
  }
  return best;
}

/** Nearest-neighbour edges of a non-periodic grid (4 neighbours in 2D, 6 in 3D), in increasing (a, b). */
function gridEdges([px, py, pz]: Extents): Edge[] {
  const out: Edge[] = [];
  for (let r = 0; r < px * py * pz; r++) {
    const x = r % px;
    const y = Math.floor(r / px) % py;
    const z = Math.floor(r / (px * py));
    if (x + 1 < px) out.push([r, r + 1, 1]);
    if (y + 1 < py) out.push([r, r + px, 1]);
    if (z + 1 < pz) out.push([r, r + px * py, 1]);
  }
  return out;
}

const line = (ranks: number): Extents => [ranks, 1, 1];

export const stencil2d: CommunicationPattern = {
  name: 'stencil2d',
  help: 'ranks on the most-square px×py grid (px ≤ py; a prime count is 1×R), each talks to its 4 neighbours, no wrap',
  grid: (ranks) => [...squarestGrid(ranks), 1],
  edges: (ranks) => gridEdges([...squarestGrid(ranks), 1]),
};

export const stencil3d: CommunicationPattern = {
  name: 'stencil3d',
  help: 'ranks on the most cube-like px×py×pz grid (least surface), each talks to its 6 neighbours, no wrap',
  grid: (ranks) => cubiestGrid(ranks),
  edges: (ranks) => gridEdges(cubiestGrid(ranks)),
};

export const ring: CommunicationPattern = {
  name: 'ring',
  help: 'rank r talks to r+1, and R−1 to 0 (2 ranks: one edge; 1 rank: none)',
  grid: line,
  edges(ranks) {
    const out: Edge[] = [];
    for (let r = 0; r + 1 < ranks; r++) out.push([r, r + 1, 1]);
    if (ranks > 2) out.push([0, ranks - 1, 1]);
    return out;
  },
};

export const allToAll: CommunicationPattern = {
  name: 'all-to-all',
  help: 'every pair of ranks exchanges one message: R(R−1)/2 edges',
  grid: line,
  edges(ranks) {
    const count = (ranks * (ranks - 1)) / 2;
    if (count > MAX_EDGES) {
      throw new PatternTooLargeError(`all-to-all over ${ranks} ranks is ${count} messages, more than the ${MAX_EDGES} one job may have; map a log of smaller jobs or use another --pattern`);
    }
    const out: Edge[] = [];
    for (let a = 0; a < ranks; a++) for (let b = a + 1; b < ranks; b++) out.push([a, b, 1]);
    return out;
  },
};

const PATTERNS: readonly CommunicationPattern[] = [stencil2d, stencil3d, ring, allToAll];

export function listPatterns(): readonly CommunicationPattern[] {
  return PATTERNS;
}

/** The pattern named `name`, or undefined. */
export function findPattern(name: string): CommunicationPattern | undefined {
  return PATTERNS.find((p) => p.name === name);
}
