// A set of non-negative integer ids (file and Work ids) for the collections that grow to a large share of
// an application's ids: what a cluster's storage holds, the Works computed there. V8's Set costs about
// 30 B per entry (a hash table of three words per entry, kept at most half full, re-allocated as it grows),
// so the per-cluster sets of a million-Work sweep took over 100 MB. This one starts as a Set and turns
// into a bit per id of its range (the range is a hint: ids beyond it still fit) once it holds 1/256 of the
// range, where the bits cost less than the Set did: a set with few members in a large range stays a Set.
// Ordered sets iterate in insertion order, as Set does (a re-added id counts from its new insertion): the
// ids are also listed in an Int32Array in the order added; a deleted id's entry stays in the list, skipped,
// until the list is compacted (when the id is added again, or when skipped entries are half the list).
// Unordered sets keep no list and iterate in increasing id order once dense: for callers whose result does
// not depend on the order.

const MIN_DENSE_SIZE = 64;
/** Dense once size ≥ range / 2^RANGE_SHIFT: a bit per id then costs less than ≈ 30 B per member. */
const RANGE_SHIFT = 8;
const NO_WORDS = new Uint32Array(0);

export class IdSet implements ReadonlySet<number> {
  /** The members while few (null once dense). */
  private small: Set<number> | null = new Set<number>();
  /** Dense: bit id of the members. */
  private present: Uint32Array = NO_WORDS;
  /** Dense, ordered, after a delete: bit id of the ids with an entry in `order` (present or skipped). */
  private listed: Uint32Array | null = null;
  /** Dense, ordered: ids in the order added; an entry whose id is not present is skipped. */
  private order: Int32Array | null = null;
  private orderLength = 0;
  /** Entries of `order` whose id is not present. */
  private skipped = 0;
  private count = 0;

  constructor(
    /** The ids expected: 0 … range − 1 (file or Work count). */
    private readonly range: number,
    /** Iterate in insertion order (as Set); otherwise in no particular order. */
    private readonly ordered: boolean,
  ) {}

  /** A set of the same members (in the same order if ordered). */
  static from(ids: Iterable<number>, range: number, ordered: boolean): IdSet {
    const set = new IdSet(range, ordered);
    for (const id of ids) set.add(id);
    return set;
  }

  get size(): number {
    return this.count;
  }

  has(id: number): boolean {
    const small = this.small;
    if (small !== null) return small.has(id);
    if (id !== (id | 0) || id < 0) return false;
    return ((this.present[id >>> 5]! >>> (id & 31)) & 1) === 1;
  }

  add(id: number): this {
    if (id !== (id | 0) || id < 0) throw new Error(`IdSet: ${id} is not a non-negative integer id below 2^31`);
    const small = this.small;
    if (small !== null) {
      if (small.has(id)) return this;
      small.add(id);
      this.count++;
      if (this.count >= MIN_DENSE_SIZE && this.count >= this.range >>> RANGE_SHIFT) this.toDense(small);
      return this;
    }
    const w = id >>> 5;
    const bit = 1 << (id & 31);
    if (w >= this.present.length) this.present = grown(this.present, w);
    if ((this.present[w]! & bit) !== 0) return this;
    if (this.order !== null) {
      const listed = this.listed;
      // An entry left from its delete goes before the id is listed again (`listed` is then the present ids).
      if (listed !== null && w < listed.length && (listed[w]! & bit) !== 0) this.compact();
      else if (listed !== null) {
        if (w >= listed.length) this.listed = grown(listed, w);
        this.listed![w]! |= bit;
      }
      this.list(id);
    }
    this.present[w]! |= bit;
    this.count++;
    return this;
  }

  delete(id: number): boolean {
    if (!this.has(id)) return false;
    this.count--;
    const small = this.small;
    if (small !== null) return small.delete(id);
    if (this.order !== null) {
      // Until the first delete, the listed ids are the present ones.
      this.listed ??= this.present.slice();
      this.skipped++;
    }
    this.present[id >>> 5]! &= ~(1 << (id & 31));
    if (this.order !== null && 2 * this.skipped > this.orderLength) this.compact();
    return true;
  }

  clear(): void {
    this.small = new Set<number>();
    this.present = NO_WORDS;
    this.listed = null;
    this.order = null;
    this.orderLength = 0;
    this.skipped = 0;
    this.count = 0;
  }

  /** Sets flags[id] to 1 for every member, in no particular order (quicker than iterating). */
  markInto(flags: Uint8Array): void {
    const small = this.small;
    if (small !== null) {
      for (const id of small) flags[id] = 1;
      return;
    }
    const present = this.present;
    for (let w = 0; w < present.length; w++) {
      let bits = present[w]!;
      while (bits !== 0) {
        const low = bits & -bits;
        flags[(w << 5) + 31 - Math.clz32(low)] = 1;
        bits ^= low;
      }
    }
  }

  *values(): IterableIterator<number> {
    const small = this.small;
    if (small !== null) {
      yield* small.values();
      return;
    }
    // Not to be changed while iterated (unlike Set): no caller does.
    const present = this.present;
    const order = this.order;
    if (order !== null) {
      for (let k = 0, n = this.orderLength; k < n; k++) {
        const id = order[k]!;
        if (((present[id >>> 5]! >>> (id & 31)) & 1) === 1) yield id;
      }
      return;
    }
    for (let w = 0; w < present.length; w++) {
      let bits = present[w]!;
      while (bits !== 0) {
        const low = bits & -bits;
        yield (w << 5) + 31 - Math.clz32(low);
        bits ^= low;
      }
    }
  }

  keys(): IterableIterator<number> {
    return this.values();
  }

  *entries(): IterableIterator<[number, number]> {
    for (const id of this.values()) yield [id, id];
  }

  [Symbol.iterator](): IterableIterator<number> {
    return this.values();
  }

  forEach(visit: (value: number, key: number, set: ReadonlySet<number>) => void, thisArg?: unknown): void {
    for (const id of this.values()) visit.call(thisArg, id, id, this);
  }

  get [Symbol.toStringTag](): string {
    return 'IdSet';
  }

  private toDense(small: Set<number>): void {
    let maxId = 0;
    for (const id of small) if (id > maxId) maxId = id;
    this.present = new Uint32Array((Math.max(this.range, maxId + 1) + 31) >>> 5);
    if (this.ordered) this.order = new Int32Array(Math.max(2 * small.size, MIN_DENSE_SIZE));
    this.small = null;
    for (const id of small) {
      this.present[id >>> 5]! |= 1 << (id & 31);
      if (this.order !== null) this.list(id);
    }
  }

  private list(id: number): void {
    let order = this.order!;
    if (this.orderLength === order.length) {
      const longer = new Int32Array(order.length + (order.length >>> 1) + 16);
      longer.set(order);
      this.order = order = longer;
    }
    order[this.orderLength++] = id;
  }

  /** Drops the skipped entries of `order`, keeping the others' order; every listed id is then present. */
  private compact(): void {
    const order = this.order!;
    const present = this.present;
    let n = 0;
    for (let k = 0; k < this.orderLength; k++) {
      const id = order[k]!;
      if (((present[id >>> 5]! >>> (id & 31)) & 1) === 1) order[n++] = id;
    }
    this.orderLength = n;
    this.skipped = 0;
    this.listed = null;
  }
}

/** `words` lengthened (at least doubled) to hold word index w. */
function grown(words: Uint32Array, w: number): Uint32Array {
  const longer = new Uint32Array(Math.max(w + 1, 2 * words.length));
  longer.set(words);
  return longer;
}
