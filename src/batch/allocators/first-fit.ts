// First-fit: the lowest-numbered nodes with free cores, each filled before the next is used.
// A plain loop rather than takeInOrder(): this runs once per job started, and the generic version cost
// about 40 % of a million-job simulation. It starts at the first node that may have free cores (the
// placement keeps that bound): on a busy machine the full nodes before it were most of the walk.
import type { Allocator } from './allocator.js';

export const firstFit: Allocator = {
  name: 'first-fit',
  help: 'lowest-numbered nodes first, each filled before the next',
  allocate(freeByNode, cores, fullBelow = 0) {
    const pairs: number[] = [];
    let left = cores;
    for (let node = fullBelow; left > 0 && node < freeByNode.length; node++) {
      const take = Math.min(left, freeByNode[node]!);
      if (take === 0) continue;
      freeByNode[node] = freeByNode[node]! - take;
      left -= take;
      pairs.push(node, take);
    }
    if (left > 0) throw new Error(`first-fit: ${left} of ${cores} cores could not be placed (caller must check free cores first)`);
    return pairs;
  },
};
