// First-fit: the lowest-numbered nodes with free cores, each filled before the next is used.
import { takeInOrder, type Allocator } from './allocator.js';

function* ascending(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i;
}

export const firstFit: Allocator = {
  name: 'first-fit',
  help: 'lowest-numbered nodes first, each filled before the next',
  allocate: (freeByNode, cores) => takeInOrder(freeByNode, cores, ascending(freeByNode.length)),
};
