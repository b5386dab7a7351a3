// A map from non-negative integer keys (file and Work ids) to values, by open addressing in typed arrays.
// The scheduler's small per-link collections gain and lose an entry at nearly every event; V8's Map and Set
// shrink their table (a runtime call and a new table) whenever a delete leaves them less than half full, so
// a collection that keeps going from one entry to none allocated at almost every event. This one keeps its
// table: a removed entry leaves a tombstone; the tombstones go all at once when the map empties, or when
// the table is rebuilt at the same size (at most once per `capacity / 4` insertions). It never shrinks, so
// it also keeps a dense list of its occupied slots (and one of its tombstones): visiting the entries and
// emptying the map cost what the map holds, not what its table once held.
// The entries are visited in no particular order: for callers whose result does not depend on it.

const EMPTY = -1;
const DELETED = -2;
const MIN_CAPACITY = 8;

export class IntMap<V> {
  private keys = new Float64Array(MIN_CAPACITY).fill(EMPTY);
  private vals: (V | undefined)[] = new Array<V | undefined>(MIN_CAPACITY).fill(undefined);
  /** live[0 … count−1]: the slots holding an entry; dead[0 … deadCount−1]: the tombstones. */
  private live = new Int32Array(MIN_CAPACITY);
  private dead = new Int32Array(MIN_CAPACITY);
  /** A slot's place in `live` or `dead`, whichever holds it. */
  private place = new Int32Array(MIN_CAPACITY);
  private count = 0;
  private deadCount = 0;
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

  /** The value of the k-th entry, 0 ≤ k < size (in no particular order; changes as entries come and go). */
  valueAt(k: number): V {
    return this.vals[this.live[k]!]!;
  }

  set(key: number, value: V): void {
    if (!(key >= 0)) throw new Error(`IntMap: key ${key} is not a non-negative number`);
    const i = this.find(key);
    if (i >= 0) {
      this.vals[i] = value;
      return;
    }
    const capacity = this.keys.length;
    if (4 * (this.count + this.deadCount + 1) > 3 * capacity) this.rebuild(4 * (this.count + 1) > 2 * capacity ? 2 * capacity : capacity);
    const mask = this.keys.length - 1;
    let j = hash(key, this.shift);
    // The first free slot on the probe path (a tombstone is reused).
    while (this.keys[j]! >= 0) j = (j + 1) & mask;
    if (this.keys[j] === DELETED) this.unlist(this.dead, --this.deadCount, j);
    this.keys[j] = key;
    this.vals[j] = value;
    this.place[j] = this.count;
    this.live[this.count++] = j;
  }

  delete(key: number): boolean {
    const i = this.find(key);
    if (i < 0) return false;
    if (this.count === 1) {
      this.clear();
      return true;
    }
    this.unlist(this.live, --this.count, i);
    this.keys[i] = DELETED;
    this.vals[i] = undefined;
    this.place[i] = this.deadCount;
    this.dead[this.deadCount++] = i;
    return true;
  }

  clear(): void {
    for (let k = 0; k < this.count; k++) {
      const i = this.live[k]!;
      this.keys[i] = EMPTY;
      this.vals[i] = undefined;
    }
    for (let k = 0; k < this.deadCount; k++) this.keys[this.dead[k]!] = EMPTY;
    this.count = 0;
    this.deadCount = 0;
  }

  forEach(visit: (value: V, key: number) => void): void {
    for (let k = 0; k < this.count; k++) {
      const i = this.live[k]!;
      visit(this.vals[i]!, this.keys[i]!);
    }
  }

  /** The keys, in no particular order. */
  keyList(): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.count; k++) out.push(this.keys[this.live[k]!]!);
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

  /** Takes `slot` out of `list` (whose last used place is now `last`): the last entry takes its place. */
  private unlist(list: Int32Array, last: number, slot: number): void {
    const at = this.place[slot]!;
    const moved = list[last]!;
    list[at] = moved;
    this.place[moved] = at;
  }

  private rebuild(capacity: number): void {
    const keys = this.keys;
    const vals = this.vals;
    const live = this.live;
    const n = this.count;
    this.keys = new Float64Array(capacity).fill(EMPTY);
    this.vals = new Array<V | undefined>(capacity).fill(undefined);
    this.live = new Int32Array(capacity);
    this.dead = new Int32Array(capacity);
    this.place = new Int32Array(capacity);
    this.shift = 32 - Math.log2(capacity);
    this.count = 0;
    this.deadCount = 0;
    for (let k = 0; k < n; k++) this.set(keys[live[k]!]!, vals[live[k]!]!);
  }
}

/** The slot a key's probe starts at: Fibonacci hashing of its low 32 bits, the top 32 − shift bits. */
function hash(key: number, shift: number): number {
  return Math.imul(key | 0, 0x9e3779b1) >>> shift;
}
