// The queue of jobs waiting for a place in the time-shared cluster, and the one admission rule both the
// general engine and the rigid gang path follow: in arrival order while the head job fits (FCFS: a job
// that does not fit blocks those behind it); with backfilling, then each of the next `depth` jobs behind
// the head that fits starts too, in arrival order (the head keeps its place: it is tried first next time).
export class AdmissionQueue<T> {
  private readonly items: T[] = [];
  private head = 0;

  /** Jobs waiting. */
  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /**
   * Starts what the rule admits: `place` answers where a job would go (undefined: it does not fit now),
   * `start` starts it there. `backfillDepth` undefined: no backfilling.
   */
  admit<P>(place: (item: T) => P | undefined, start: (item: T, placed: P) => void, backfillDepth: number | undefined): void {
    while (this.head < this.items.length) {
      const item = this.items[this.head]!;
      const placed = place(item);
      if (placed === undefined) break;
      this.head++;
      start(item, placed);
    }
    if (backfillDepth !== undefined && this.head < this.items.length) {
      let k = this.head + 1;
      for (let looked = 0; k < this.items.length && looked < backfillDepth; looked++) {
        const item = this.items[k]!;
        const placed = place(item);
        if (placed === undefined) k++;
        else {
          this.items.splice(k, 1);
          start(item, placed);
        }
      }
    }
    // Admitted jobs are dropped from the front in bulk, not one shift at a time.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
  }
}
