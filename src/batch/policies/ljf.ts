// Longest job first, by requested time, without backfilling.
import { PriorityOrderQueue } from './priority-queue.js';
import type { BatchPolicy } from './policy.js';

export const ljf: BatchPolicy = {
  name: 'ljf',
  help: 'longest requested time first; the first job blocks the queue (ties: arrival order)',
  contiguous: true,
  createQueue: () => new PriorityOrderQueue((a, b) => a.requestedS > b.requestedS),
};
