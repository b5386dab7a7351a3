// A binary min-heap of small integer ids ordered by a number per id — key[base + id], the lower id first
// among equal keys — for sets that change far more often than their top is read. push() only appends; the
// heap is put in order at the next read of its top (bottom-up construction when as many ids were appended as
// were in order, else one sift per appended id), and an id appended and removed before that costs O(1).
// The order is total, so the ids read from the top come in the same order whatever the heap's layout.
// Comparisons read a typed array here, not through a function, so that the engine's hot loops inline them.
// Several heaps may share one `positions` array as long as each id belongs to at most one of them.

export class LazyKeyHeap {
  /** The ids at items[0..count); items[0..ordered) is a heap, items[ordered..count) were appended since. */
  private items: Int32Array;
  private count = 0;
  private ordered = 0;

  /** `items`: room for the most ids the heap will hold at once (it grows when it has to). */
  constructor(
    private readonly key: Float64Array,
    private readonly base: number,
    private readonly pos: Int32Array,
    items: Int32Array = new Int32Array(16),
  ) {
    this.items = items;
  }

  get size(): number {
    return this.count;
  }

  /** The id at slot `slot` (every id of the heap is at one slot below size, in no particular order), or -1. */
  at(slot: number): number {
    return slot < this.count ? this.items[slot]! : -1;
  }

  /** The least id by (key, id), or -1 when empty. */
  top(): number {
    if (this.ordered < this.count) this.order();
    return this.count === 0 ? -1 : this.items[0]!;
  }

  push(id: number): void {
    if (this.count === this.items.length) {
      const items = new Int32Array(2 * this.count + 16);
      items.set(this.items);
      this.items = items;
    }
    this.pos[id] = this.count;
    this.items[this.count++] = id;
  }

  /** Re-positions `id` after its key changed (either way). */
  update(id: number): void {
    const p = this.pos[id]!;
    if (p < this.ordered) this.down(this.up(p, id), id);
  }

  remove(id: number): void {
    const { items, pos } = this;
    const p = pos[id]!;
    pos[id] = -1;
    const last = items[--this.count]!;
    if (p >= this.ordered) {
      // Appended, not in order yet: the last one takes its slot.
      if (p < this.count) {
        items[p] = last;
        pos[last] = p;
      }
      return;
    }
    // In the heap: its last slot becomes the first of the appended part, which the last appended id takes.
    const h = --this.ordered;
    let moved = last;
    if (h < this.count) {
      moved = items[h]!;
      items[h] = last;
      pos[last] = h;
    }
    if (p < h) this.down(this.up(p, moved), moved);
  }

  private order(): void {
    const { items, count } = this;
    if (count - this.ordered >= this.ordered) {
      this.ordered = count;
      for (let p = (count >> 1) - 1; p >= 0; p--) this.down(p, items[p]!);
    } else {
      for (let p = this.ordered; p < count; p++) {
        this.ordered = p + 1;
        this.up(p, items[p]!);
      }
    }
  }

  /** Moves `id`, whose slot is p, towards the top while it comes before its parent; returns its slot. */
  private up(p: number, id: number): number {
    const { items, pos, key, base } = this;
    const k = key[base + id]!;
    while (p > 0) {
      const parent = (p - 1) >> 1;
      const other = items[parent]!;
      const ko = key[base + other]!;
      if (!(k < ko || (k === ko && id < other))) break;
      items[p] = other;
      pos[other] = p;
      p = parent;
    }
    items[p] = id;
    pos[id] = p;
    return p;
  }

  /** Moves `id`, whose slot is p, away from the top while a child comes before it. */
  private down(p: number, id: number): void {
    const { items, pos, key, base } = this;
    const n = this.ordered;
    const k = key[base + id]!;
    for (;;) {
      let child = 2 * p + 1;
      if (child >= n) break;
      let other = items[child]!;
      let ko = key[base + other]!;
      if (child + 1 < n) {
        const right = items[child + 1]!;
        const kr = key[base + right]!;
        if (kr < ko || (kr === ko && right < other)) {
          child++;
          other = right;
          ko = kr;
        }
      }
      if (!(ko < k || (ko === k && other < id))) break;
      items[p] = other;
      pos[other] = p;
      p = child;
    }
    items[p] = id;
    pos[id] = p;
  }
}
