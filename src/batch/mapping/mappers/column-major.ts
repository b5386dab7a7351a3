// Column-major mapping: nodes ordered by x first, then y, then z (the transpose of row-major's z, y, x),
// and the k-th node takes the k-th block of C consecutive ranks. No two nodes share (x, y, z), so there
// are no ties.
import { ranksInNodeOrder, type TaskMapper } from '../mapper.js';

export const columnMajor: TaskMapper = {
  name: 'column-major',
  help: 'ranks fill the nodes ordered by x, then y, then z (z fastest), C ranks a node',
  map({ topology: t, nodes, coresPerNode }) {
    const order = Array.from(nodes).sort((a, b) => t.xs[a]! - t.xs[b]! || t.ys[a]! - t.ys[b]! || t.zs[a]! - t.zs[b]!);
    return ranksInNodeOrder(order, coresPerNode);
  },
};
