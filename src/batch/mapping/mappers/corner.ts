// Corner mapping: a greedy walk through the allocation. It starts at the node nearest (L1, coordinates as
// they are, no wrapping) to the low corner (min x, min y, min z) of the allocation's bounding box, then
// repeatedly steps to the unmapped node nearest the previous one (Topology.distance, so wrapping on a
// torus); every tie goes to the lower node index. The k-th node visited takes the k-th block of C ranks.
// O(n²) in the job's nodes.
import { ranksInNodeOrder, type TaskMapper } from '../mapper.js';

export const corner: TaskMapper = {
  name: 'corner',
  help: 'start at the node nearest the allocation\'s low corner, then walk to the nearest unmapped node (ties: lower index)',
  map({ topology: t, nodes, coresPerNode }) {
    const n = nodes.length;
    let minX = Infinity;
    let minY = Infinity;
    let minZ = Infinity;
    for (const v of nodes) {
      minX = Math.min(minX, t.xs[v]!);
      minY = Math.min(minY, t.ys[v]!);
      minZ = Math.min(minZ, t.zs[v]!);
    }
    const used = new Uint8Array(n);
    const order = new Int32Array(n);
    // nodes are increasing, so a strict < keeps the lower index on a tie.
    let at = 0;
    let best = Infinity;
    for (let k = 0; k < n; k++) {
      const v = nodes[k]!;
      const d = t.xs[v]! - minX + (t.ys[v]! - minY) + (t.zs[v]! - minZ);
      if (d < best) {
        best = d;
        at = k;
      }
    }
    for (let step = 0; step < n; step++) {
      used[at] = 1;
      order[step] = nodes[at]!;
      let next = -1;
      best = Infinity;
      for (let k = 0; k < n; k++) {
        if (used[k] === 1) continue;
        const d = t.distance(nodes[at]!, nodes[k]!);
        if (d < best) {
          best = d;
          next = k;
        }
      }
      at = next;
    }
    return ranksInNodeOrder(order, coresPerNode);
  },
};
