// The waiting jobs in arrival order, with removal from anywhere (backfilling starts jobs behind the head).
import type { BatchJob } from '../job.js';

const COMPACT_AFTER = 1024;

export class ArrivalList {
  private items: BatchJob[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  /** The i-th waiting job in arrival order (0 is the head). */
  at(i: number): BatchJob {
    return this.items[this.head + i]!;
  }

  push(job: BatchJob): void {
    this.items.push(job);
  }

  removeAt(i: number): void {
    if (i === 0) {
      this.head++;
      if (this.head >= COMPACT_AFTER && this.head * 2 >= this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
    } else {
      this.items.splice(this.head + i, 1);
    }
  }
}
