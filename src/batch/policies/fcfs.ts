// First come, first served: jobs start in arrival order; the first that does not fit blocks all behind it.
import { ArrivalList } from './arrival-list.js';
import type { BatchPolicy, BatchQueue, Machine } from './policy.js';

export class ArrivalOrderQueue implements BatchQueue {
  protected readonly waiting = new ArrivalList();

  get length(): number {
    return this.waiting.length;
  }

  submit(job: Parameters<BatchQueue['submit']>[0]): void {
    this.waiting.push(job);
  }

  peek(): ReturnType<BatchQueue['peek']> {
    return this.waiting.length > 0 ? this.waiting.at(0) : undefined;
  }

  /** Starts jobs from the head while they fit; true if jobs are still waiting. */
  protected startFromHead(machine: Machine): boolean {
    while (this.waiting.length > 0 && machine.canStart(this.waiting.at(0))) {
      machine.start(this.waiting.at(0));
      this.waiting.removeAt(0);
    }
    return this.waiting.length > 0;
  }

  dispatch(machine: Machine): void {
    this.startFromHead(machine);
  }
}

export const fcfs: BatchPolicy = {
  name: 'fcfs',
  help: 'first come, first served: arrival order, the head job blocks the queue (no backfilling)',
  contiguous: true,
  createQueue: () => new ArrivalOrderQueue(),
};
