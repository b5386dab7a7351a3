// A map from non-negative integer keys (file and Work ids) to values, by open addressing in typed arrays.
// The scheduler's small per-link collections gain and lose an entry at nearly every event; V8's Map and Set
// shrink their table (a runtime call and a new table) whenever a delete leaves them less than half full, so
// a collection that keeps going from one entry to none allocated at almost every event. This one keeps its
// table: a removed entry leaves a tombstone; the tombstones go all at once when the map empties, or when
// the table is rebuilt at the same size (at most once per `capacity / 4` insertions). It never shrinks.
// Iteration (forEach, keys) visits entries in table order, not insertion order: for callers whose result
// does not depend on the order.

const EMPTY = -1;
const DELETED = -2;
const MIN_CAPACITY = 8;

export class IntMap<V> {
  private keys = new Float64Array(MIN_CAPACITY).fill(EMPTY);
  private vals: (V | undefined)[] = new Array<V | undefined>(MIN_CAPACITY).fill(undefined);
  private count = 0;
  /** Live entries plus tombstones. */
  private used = 0;
  /** 32 − log2(capacity): the hash keeps the top bits. */
  private shift = 32 - Math.log2(MIN_CAPACITY);

  get size(): number {
    return this.count;
  }

  has(key: number): boolean {
    return this.find(key) >= 0;
  }

  get(key: number): V | undefined {
    const i = this.find(key);
    return i < 0 ? undefined : this.vals[i];
  }

  set(key: number, value: V): void {
    if (!(key >= 0)) throw new Error(`IntMap: key ${key} is not a non-negative number`);
    const i = this.find(key);
    if (i >= 0) {
      this.vals[i] = value;
      return;
    }
    if (4 * (this.used + 1) > 3 * this.keys.length) this.rebuild(4 * (this.count + 1) > 2 * this.keys.length ? 2 * this.keys.length : this.keys.length);
    const mask = this.keys.length - 1;
    let j = hash(key, this.shift);
    // The first free slot on the probe path (a tombstone is reused).
    while (this.keys[j]! >= 0) j = (j + 1) & mask;
    if (this.keys[j] === EMPTY) this.used++;
    this.keys[j] = key;
    this.vals[j] = value;
    this.count++;
  }

  delete(key: number): boolean {
    const i = this.find(key);
    if (i < 0) return false;
    this.count--;
    if (this.count === 0) {
      this.clear();
      return true;
    }
    this.keys[i] = DELETED;
    this.vals[i] = undefined;
    return true;
  }

  clear(): void {
    if (this.used === 0) return;
    this.keys.fill(EMPTY);
    this.vals.fill(undefined);
    this.count = 0;
    this.used = 0;
  }

  forEach(visit: (value: V, key: number) => void): void {
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) if (keys[i]! >= 0) visit(this.vals[i]!, keys[i]!);
  }

  /** Number of slots: valueInSlot(0 … slots − 1) visits every entry without a callback. */
  get slots(): number {
    return this.keys.length;
  }

  /** The value in a slot (undefined: the slot holds no entry). */
  valueInSlot(i: number): V | undefined {
    return this.keys[i]! >= 0 ? this.vals[i] : undefined;
  }

  /** The keys, in table order. */
  keyList(): number[] {
    const out: number[] = [];
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) if (keys[i]! >= 0) out.push(keys[i]!);
    return out;
  }

  private find(key: number): number {
    const keys = this.keys;
    const mask = keys.length - 1;
    let j = hash(key, this.shift);
    for (;;) {
      const k = keys[j]!;
      if (k === key) return j;
      if (k === EMPTY) return -1;
      j = (j + 1) & mask;
    }
  }

  private rebuild(capacity: number): void {
    const keys = this.keys;
    const vals = this.vals;
    this.keys = new Float64Array(capacity).fill(EMPTY);
    this.vals = new Array<V | undefined>(capacity).fill(undefined);
    this.shift = 32 - Math.log2(capacity);
    this.count = 0;
    this.used = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i]! >= 0) this.set(keys[i]!, vals[i]!);
  }
}

/** The slot a key's probe starts at: Fibonacci hashing of its low 32 bits, the top 32 − shift bits. */
function hash(key: number, shift: number): number {
  return Math.imul(key | 0, 0x9e3779b1) >>> shift;
}
