// A queue in a fixed priority order (SJF, LJF): the highest-priority job starts when it fits and blocks
// the others until then. Ties: earlier arrival first.
import type { BatchJob } from '../job.js';
import { MinHeap } from '../../util/min-heap.js';
import type { BatchQueue, Machine } from './policy.js';

interface Entry {
  readonly job: BatchJob;
  readonly arrival: number;
}

export class PriorityOrderQueue implements BatchQueue {
  private readonly heap: MinHeap<Entry>;
  private arrivals = 0;

  /** `before(a, b)`: a has strictly higher priority than b. */
  constructor(before: (a: BatchJob, b: BatchJob) => boolean) {
    this.heap = new MinHeap<Entry>((x, y) => before(x.job, y.job) || (!before(y.job, x.job) && x.arrival < y.arrival));
  }

  get length(): number {
    return this.heap.size;
  }

  submit(job: BatchJob): void {
    this.heap.push({ job, arrival: this.arrivals++ });
  }

  peek(): BatchJob | undefined {
    return this.heap.peek()?.job;
  }

  dispatch(machine: Machine): void {
    for (let top = this.heap.peek(); top !== undefined && machine.canStart(top.job); top = this.heap.peek()) {
      machine.start(top.job);
      this.heap.pop();
    }
  }
}
