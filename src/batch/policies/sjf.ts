// Shortest job first, by requested time (what the batch system knows), without backfilling.
import { PriorityOrderQueue } from './priority-queue.js';
import type { BatchPolicy } from './policy.js';

export const sjf: BatchPolicy = {
  name: 'sjf',
  help: 'shortest requested time first; the first job blocks the queue (ties: arrival order)',
  contiguous: true,
  createQueue: () => new PriorityOrderQueue((a, b) => a.requestedS < b.requestedS),
};
