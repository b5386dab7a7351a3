// A binary min-heap of small integer ids whose keys may change: update() re-sifts one id in O(log n).
// `less` compares two ids by their current keys. Several heaps may share one `positions` array as long as
// each id belongs to at most one of them.

export class IndexedHeap {
  private readonly items: number[] = [];
  private readonly pos: Int32Array;

  constructor(
    private readonly less: (a: number, b: number) => boolean,
    positionsOrCapacity: Int32Array | number,
  ) {
    this.pos = typeof positionsOrCapacity === 'number' ? new Int32Array(positionsOrCapacity).fill(-1) : positionsOrCapacity;
  }

  get size(): number {
    return this.items.length;
  }

  has(id: number): boolean {
    const p = this.pos[id]!;
    return p >= 0 && p < this.items.length && this.items[p] === id;
  }

  /** The least id, or -1 when empty. */
  top(): number {
    return this.items.length === 0 ? -1 : this.items[0]!;
  }

  /** The id at heap slot `slot` (children of slot k are 2k+1 and 2k+2), or -1. */
  at(slot: number): number {
    return slot < this.items.length ? this.items[slot]! : -1;
  }

  push(id: number): void {
    this.items.push(id);
    this.pos[id] = this.items.length - 1;
    this.siftUp(this.items.length - 1);
  }

  /** Re-positions `id` after its key changed (either way). */
  update(id: number): void {
    const p = this.pos[id]!;
    this.siftUp(p);
    this.siftDown(this.pos[id]!);
  }

  remove(id: number): void {
    const p = this.pos[id]!;
    const last = this.items.pop()!;
    this.pos[id] = -1;
    if (last === id) return;
    this.items[p] = last;
    this.pos[last] = p;
    this.update(last);
  }

  private siftUp(p: number): void {
    const items = this.items;
    const id = items[p]!;
    while (p > 0) {
      const parent = (p - 1) >> 1;
      const other = items[parent]!;
      if (!this.less(id, other)) break;
      items[p] = other;
      this.pos[other] = p;
      p = parent;
    }
    items[p] = id;
    this.pos[id] = p;
  }

  private siftDown(p: number): void {
    const items = this.items;
    const n = items.length;
    const id = items[p]!;
    for (;;) {
      let child = 2 * p + 1;
      if (child >= n) break;
      if (child + 1 < n && this.less(items[child + 1]!, items[child]!)) child++;
      const other = items[child]!;
      if (!this.less(other, id)) break;
      items[p] = other;
      this.pos[other] = p;
      p = child;
    }
    items[p] = id;
    this.pos[id] = p;
  }
}
