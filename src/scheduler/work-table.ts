// The scheduler's Works by id: an array indexed by Work id (ids index Application.works), read as a
// ReadonlyMap by the planner and PendingWorks. A Map beside the array cost ≈ 35 B per Work for a lookup the
// array already answers. Visited in the order added, as a Map would: while ids come in increasing order
// (the usual case: sched_new_work with the application's Works) that is the order of the array, skipping
// the ids not added; from the first id that comes after a higher one, the order is also listed.
import type { WorkId, WorkSpec } from '../model/application.js';
import type { WorkState } from './state.js';

export class WorkTable implements ReadonlyMap<WorkId, WorkState> {
  /** The WorkStates by id (holes: not added): the hot paths read it directly. */
  readonly at: WorkState[];
  /** Their specifications by id, likewise (PendingWorks lists a plan's Works from it). */
  readonly specAt: WorkSpec[];
  private count = 0;
  private highestId = -1;
  /** The ids in the order added, once they stopped coming in increasing order (null until then). */
  private order: Int32Array | null = null;

  /** `expected`: how many Works the application has (ids 0 … expected − 1; others still fit). */
  constructor(expected: number) {
    this.at = new Array<WorkState>(expected);
    this.specAt = new Array<WorkSpec>(expected);
  }

  get size(): number {
    return this.count;
  }

  get(id: WorkId): WorkState | undefined {
    return this.at[id];
  }

  has(id: WorkId): boolean {
    return this.at[id] !== undefined;
  }

  /** Adds a Work not in the table yet. */
  add(ws: WorkState): void {
    const id = ws.spec.id;
    if (!Number.isSafeInteger(id) || id < 0 || id > 0x7fffffff) throw new Error(`Work id ${id} is not an index into Application.works`);
    if (this.at[id] !== undefined) throw new Error(`Work ${id} is already in the table`);
    if (this.order === null && id < this.highestId) this.order = this.listed();
    this.at[id] = ws;
    this.specAt[id] = ws.spec;
    if (this.order !== null) {
      if (this.count === this.order.length) {
        const longer = new Int32Array(this.order.length + (this.order.length >>> 1) + 16);
        longer.set(this.order);
        this.order = longer;
      }
      this.order[this.count] = id;
    }
    this.count++;
    if (id > this.highestId) this.highestId = id;
  }

  *values(): IterableIterator<WorkState> {
    const { at, order } = this;
    if (order === null) {
      for (let id = 0; id <= this.highestId; id++) {
        const ws = at[id];
        if (ws !== undefined) yield ws;
      }
    } else {
      for (let k = 0, n = this.count; k < n; k++) yield at[order[k]!]!;
    }
  }

  *keys(): IterableIterator<WorkId> {
    for (const ws of this.values()) yield ws.spec.id;
  }

  *entries(): IterableIterator<[WorkId, WorkState]> {
    for (const ws of this.values()) yield [ws.spec.id, ws];
  }

  [Symbol.iterator](): IterableIterator<[WorkId, WorkState]> {
    return this.entries();
  }

  forEach(visit: (value: WorkState, key: WorkId, map: ReadonlyMap<WorkId, WorkState>) => void, thisArg?: unknown): void {
    for (const ws of this.values()) visit.call(thisArg, ws, ws.spec.id, this);
  }

  get [Symbol.toStringTag](): string {
    return 'WorkTable';
  }

  /** The ids added so far (all in increasing order), with room for more. */
  private listed(): Int32Array {
    const order = new Int32Array(Math.max(16, 2 * this.count));
    let k = 0;
    for (let id = 0; id <= this.highestId; id++) if (this.at[id] !== undefined) order[k++] = id;
    return order;
  }
}
