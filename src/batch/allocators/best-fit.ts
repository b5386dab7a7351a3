// Best-fit: a job that fits on one node goes to the node it fills best (fewest free cores that still hold
// it); a larger job takes the nodes with the most free cores first, so that it spans as few as possible.
// Ties go to the lower node number.
import { takeInOrder, type Allocator } from './allocator.js';

function bestSingleNode(freeByNode: Int32Array, cores: number): number {
  let best = -1;
  for (let i = 0; i < freeByNode.length; i++) {
    const free = freeByNode[i]!;
    if (free >= cores && (best < 0 || free < freeByNode[best]!)) best = i;
  }
  return best;
}

export const bestFit: Allocator = {
  name: 'best-fit',
  help: 'the node a job fills best; larger jobs on the emptiest nodes, spanning as few as possible',
  allocate(freeByNode, cores) {
    const single = bestSingleNode(freeByNode, cores);
    if (single >= 0) return takeInOrder(freeByNode, cores, [single]);
    const order = [...freeByNode.keys()].sort((a, b) => freeByNode[b]! - freeByNode[a]! || a - b);
    return takeInOrder(freeByNode, cores, order);
  },
};
