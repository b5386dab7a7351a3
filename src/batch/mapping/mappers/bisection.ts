// Recursive geometric bisection: split the job's nodes in two along the longest axis of their bounding box
// (sorted by that coordinate, ties by node index; the lower ⌊n/2⌋ nodes form one half), split the pattern's
// rank grid the same way along the longest axis of the ranks' bounding box (sorted by that coordinate, ties
// by rank; the lower ⌊n/2⌋·C ranks go with the lower nodes), and recurse until one node holds its C ranks.
// Equal extents go to the lower axis (x, then y, then z). Extents are plain coordinates, not wrapped on a
// torus. A pattern without geometry (grid [R, 1, 1]) is split in rank order. Halves of ranks need not be
// boxes: when the proportion does not divide a row, the cut is a staircase in rank-grid order.
import type { Topology } from '../../machines/topology.js';
import { rankCount, type TaskMapper } from '../mapper.js';

type Coordinate = (item: number, axis: number) => number;

/** The axis (0, 1, 2) along which `items` spread furthest; ties to the lower axis. */
function longestAxis(items: readonly number[], coordinate: Coordinate): number {
  let axis = 0;
  let longest = -1;
  for (let a = 0; a < 3; a++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const i of items) {
      const c = coordinate(i, a);
      if (c < lo) lo = c;
      if (c > hi) hi = c;
    }
    if (hi - lo > longest) {
      longest = hi - lo;
      axis = a;
    }
  }
  return axis;
}

function sortedAlongLongest(items: number[], coordinate: Coordinate): number[] {
  const axis = longestAxis(items, coordinate);
  return items.sort((p, q) => coordinate(p, axis) - coordinate(q, axis) || p - q);
}

function nodeCoordinate(t: Topology): Coordinate {
  return (v, axis) => (axis === 0 ? t.xs[v]! : axis === 1 ? t.ys[v]! : t.zs[v]!);
}

export const bisection: TaskMapper = {
  name: 'bisection',
  help: 'split nodes and the pattern\'s rank grid in halves along their longest axes, recursively (rank order without a grid)',
  map(job) {
    const ranks = rankCount(job);
    const c = job.coresPerNode;
    const [px, py] = job.pattern.grid(ranks);
    const rankCoordinate: Coordinate = (r, axis) => (axis === 0 ? r % px : axis === 1 ? Math.floor(r / px) % py : Math.floor(r / (px * py)));
    const nodeCoord = nodeCoordinate(job.topology);
    const out = new Int32Array(ranks);
    const split = (nodes: number[], rs: number[]): void => {
      if (nodes.length === 1) {
        for (const r of rs) out[r] = nodes[0]!;
        return;
      }
      sortedAlongLongest(nodes, nodeCoord);
      sortedAlongLongest(rs, rankCoordinate);
      const half = Math.floor(nodes.length / 2);
      split(nodes.slice(0, half), rs.slice(0, half * c));
      split(nodes.slice(half), rs.slice(half * c));
    };
    split(Array.from(job.nodes), Array.from({ length: ranks }, (_, r) => r));
    return out;
  },
};
