// What the scheduler knows about the run (Berman et al. 1999, §7.2): each Work's state, each host's FIFO of Works,
// each cluster's ("Disk") link FIFO of Files to move and the files it holds.
import type { FileId, WorkId, WorkSpec } from '../model/application.js';
import type { ClusterId, HostId } from '../model/grid.js';
import type { HostInfo } from '../interfaces/information.js';
import { IntMap } from './int-map.js';

/**
 * todo: to be planned · queued: in a host FIFO · running: computing · computed: outputs wait in the
 * cluster's storage · retrieving: outputs on the link · done: outputs at the origin · failed: given up.
 */
export type WorkStatus = 'todo' | 'queued' | 'running' | 'computed' | 'retrieving' | 'done' | 'failed';

export interface WorkState {
  readonly spec: WorkSpec;
  status: WorkStatus;
  /** The host it is queued on, runs on, or was computed on (null when todo). */
  host: HostId | null;
  /** Computations started so far (more than one means re-execution after a failure). */
  executions: number;
  /** Failures of the program itself (WorkFailure 'exit'). */
  exitFailures: number;
}

export interface RunningSubtask {
  readonly startS: number;
  /** Estimated when it started (Berman et al. 1999, §5.2.1: trusted until overdue). */
  readonly estEndS: number;
  /**
   * What it has to do, as estimated when it started: dedicated CPU seconds for a computation, bytes for a
   * transfer (the 'progress' running estimate compares it with the measured progress).
   */
  readonly estAmount?: number;
}

export interface RunningCompute extends RunningSubtask {
  readonly workId: WorkId;
}

export interface HostState {
  info: HostInfo;
  up: boolean;
  fifo: WorkId[];
  running: RunningCompute | null;
  /** The last plan gave this host nothing: an empty FIFO here does not ask for another plan. */
  starved: boolean;
  /** Joined while re-planning on additions is off: waits for the next scheduling event, asks for no plan. */
  awaitingPlan: boolean;
  /** When the head of the FIFO was last found waiting for its inputs, and what that depended on. */
  readonly waiting: WaitingHead;
}

/** A link FIFO entry. `planS`: when the plan that queued it expected it to start (orders the FIFO). */
export type LinkItem =
  | { readonly kind: 'input'; readonly fileId: FileId; readonly planS: number }
  | { readonly kind: 'output'; readonly workId: WorkId; readonly planS: number };

export interface RunningTransfer extends RunningSubtask {
  readonly item: LinkItem;
}

/** Above this many entries that may go, firstMayGo() scans the FIFO instead of looking each up. */
const MAY_GO_LOOKUPS_MAX = 16;

/**
 * How many link FIFOs hold each Work's output (indexed by Work id), shared by a scheduler's LinkQueues: a
 * change of a Work's status need not ask every link about an output that none of them holds.
 */
export class QueuedOutputs {
  private counts = new Int32Array(0);

  /** Some link FIFO holds the output of `workId`. */
  any(workId: WorkId): boolean {
    return workId < this.counts.length && this.counts[workId]! > 0;
  }
  change(workId: WorkId, delta: number): void {
    if (workId >= this.counts.length) {
      const counts = new Int32Array(Math.max(workId + 1, 2 * this.counts.length, 1024));
      counts.set(this.counts);
      this.counts = counts;
    }
    this.counts[workId]! += delta;
  }
}

/**
 * A cluster link's FIFO, with quick membership tests (no file or output is ever queued twice), and the
 * entries that may be able to go: a superset of those that can (see Scheduler.startNextTransfer), so that
 * the greedy link order finds the first entry that can go without walking past every output still being
 * computed, which on a large sweep is most of the FIFO. Entries are inserted and removed by moving their
 * neighbours one place (Array.prototype.splice costs more): an entry leaving moves those on its shorter side,
 * so the head leaving a long FIFO costs O(1) (the FIFO is items[head..]; the slots before head are reused
 * once they are half the array).
 */
export class LinkQueue {
  private items: LinkItem[] = [];
  private head = 0;
  private readonly inputs = new IntMap<LinkItem>();
  private readonly outputs = new IntMap<LinkItem>();
  /** The entries that may go, by mayGoKey (an entry's file or Work names it within one FIFO). */
  private readonly mayGoItems = new IntMap<LinkItem>();
  private changes = 0;

  /** `queued`: counts the outputs this FIFO holds, with those of the scheduler's other links. */
  constructor(private readonly queued?: QueuedOutputs) {}

  /** Changes whenever the FIFO does. */
  get version(): number {
    return this.changes;
  }
  get length(): number {
    return this.items.length - this.head;
  }
  at(k: number): LinkItem {
    return this.items[this.head + k]!;
  }
  list(): readonly LinkItem[] {
    this.compact();
    return this.items;
  }
  hasInput(fileId: FileId): boolean {
    return this.inputs.has(fileId);
  }
  hasOutput(workId: WorkId): boolean {
    return this.outputs.has(workId);
  }
  /** The output of `workId`, if queued, may be able to go now (its Work changed status or host). */
  mayGo(workId: WorkId): void {
    const item = this.outputs.get(workId);
    if (item !== undefined) this.mayGoItems.set(mayGoKey(item), item);
  }
  /** Every entry may be able to go now (a host joined or changed, say). */
  allMayGo(): void {
    for (let k = this.head; k < this.items.length; k++) this.mayGoItems.set(mayGoKey(this.items[k]!), this.items[k]!);
  }
  /** The entry at `k` was looked at and cannot go until mayGo() says otherwise. */
  cannotGo(k: number): void {
    this.mayGoItems.delete(mayGoKey(this.at(k)));
  }
  /** The index of the first entry at or after `from` that may go (-1: none); none before `from` may. */
  firstMayGo(from: number): number {
    const set = this.mayGoItems;
    if (set.size === 0) return -1;
    if (set.size > MAY_GO_LOOKUPS_MAX) {
      for (let k = this.head + from; k < this.items.length; k++) if (set.has(mayGoKey(this.items[k]!))) return k - this.head;
      return -1;
    }
    let first = -1;
    for (let j = 0; j < set.size; j++) {
      const item = set.valueAt(j);
      const at = this.items.indexOf(item, this.head + from);
      const k = at < 0 ? -1 : at - this.head;
      if (k >= 0 && (first < 0 || k < first)) first = k;
    }
    return first;
  }
  /** Appends unless the same file or output is already queued; returns whether it was added. */
  push(item: LinkItem): boolean {
    if (!this.enter(item)) return false;
    this.items.push(item);
    return true;
  }
  /**
   * Inserts behind the last entry planned at or before `item.planS` (scanning from the tail, so an entry for
   * now costs O(1) when the FIFO holds nothing planned later); false if the file or output is already queued.
   */
  insertByPlan(item: LinkItem): boolean {
    const items = this.items;
    const planS = item.planS;
    let k = items.length;
    while (k > this.head && items[k - 1]!.planS > planS) k--;
    if (!this.enter(item)) return false;
    items.push(item);
    for (let j = items.length - 1; j > k; j--) items[j] = items[j - 1]!;
    items[k] = item;
    return true;
  }
  removeAt(k: number): LinkItem {
    const items = this.items;
    const head = this.head;
    const at = head + k;
    const item = items[at]!;
    if (k < items.length - 1 - at) {
      for (let j = at; j > head; j--) items[j] = items[j - 1]!;
      this.head++;
      if (this.head >= 64 && 2 * this.head >= items.length) this.compact();
    } else {
      for (let j = at + 1; j < items.length; j++) items[j - 1] = items[j]!;
      items.pop();
    }
    this.changes++;
    this.mayGoItems.delete(mayGoKey(item));
    if (item.kind === 'input') this.inputs.delete(item.fileId);
    else {
      this.outputs.delete(item.workId);
      this.queued?.change(item.workId, -1);
    }
    return item;
  }
  removeOutput(workId: WorkId): void {
    if (!this.outputs.has(workId)) return;
    const items = this.items;
    for (let at = this.head; at < items.length; at++) {
      const item = items[at]!;
      if (item.kind === 'output' && item.workId === workId) {
        this.removeAt(at - this.head);
        return;
      }
    }
  }
  /** Orders by planned start, keeping the current order between equal times. */
  sortByPlan(): void {
    this.compact();
    this.items = this.items.map((item, k) => ({ item, k })).sort((a, b) => a.item.planS - b.item.planS || a.k - b.k).map((x) => x.item);
    this.changes++;
  }
  clear(): void {
    this.changes++;
    this.items = [];
    this.head = 0;
    this.mayGoItems.clear();
    this.inputs.clear();
    if (this.queued !== undefined) for (const workId of this.outputs.keyList()) this.queued.change(workId, -1);
    this.outputs.clear();
  }
  /** Drops the slots before the head. */
  private compact(): void {
    if (this.head === 0) return;
    this.items.copyWithin(0, this.head);
    this.items.length -= this.head;
    this.head = 0;
  }
  /** Counts a new entry in (false: the same file or output is queued already). */
  private enter(item: LinkItem): boolean {
    if (item.kind === 'input') {
      if (this.inputs.has(item.fileId)) return false;
      this.inputs.set(item.fileId, item);
    } else {
      if (this.outputs.has(item.workId)) return false;
      this.outputs.set(item.workId, item);
      this.queued?.change(item.workId, 1);
    }
    this.mayGoItems.set(mayGoKey(item), item);
    this.changes++;
    return true;
  }
}

/** Names an entry within one FIFO (which holds a file, or a Work's output, at most once): 2·file, 2·Work + 1. */
function mayGoKey(item: LinkItem): number {
  return item.kind === 'input' ? 2 * item.fileId : 2 * item.workId + 1;
}

/**
 * A FIFO head found waiting for its inputs, with the first of them that was not stored, once every one of
 * them was stored, queued on the cluster's link or on its way. The head stays unready while that file is
 * not stored; its inputs stay stored, queued or on their way (a queued input leaves the link FIFO only to
 * go, or when it is found stored; one on its way ends stored) unless the link FIFO loses entries otherwise
 * (`drops`: cleared, counted by the caller) or the stored files are replaced. While none of that happens,
 * looking at the head again would change nothing, and do_schedule() need not.
 */
export class WaitingHead {
  private workId: WorkId = -1;
  private missing: FileId = -1;
  private stored: ReadonlySet<FileId> | null = null;
  private drops = -1;

  /** `missing`: the first input of `workId` not in `cluster.stored`; `drops`: the count of the cluster's dropped link entries. */
  record(workId: WorkId, cluster: ClusterState, missing: FileId, drops: number): void {
    this.workId = workId;
    this.missing = missing;
    this.stored = cluster.stored;
    this.drops = drops;
  }

  /** Still waiting as recorded (files are only ever added to a `stored` set, or the set is replaced). */
  unchanged(workId: WorkId, cluster: ClusterState, drops: number): boolean {
    return this.workId === workId && this.drops === drops && this.stored === cluster.stored && !cluster.stored.has(this.missing);
  }
}

export interface ClusterState {
  readonly id: ClusterId;
  up: boolean;
  queue: LinkQueue;
  busy: RunningTransfer | null;
  /** Bumped when a Work on one of its hosts may now have an output to send, or none any more. */
  worksVersion: number;
  /**
   * Greedy link order: the FIFO and Works versions seen by the last scan of the FIFO that found nothing to
   * send (-1: none). Nothing can go until one of them changes, so the scan is skipped until then.
   */
  readonly nothingToSend: { queue: number; works: number };
  /**
   * Files the scheduler knows are in the cluster's storage: its own transfers, plus what info.storedFiles
   * says about the files a plan (or a self-scheduled Work) reads, and all of it when the cluster comes up.
   * Only ever added to (or replaced); nothing depends on the order it lists them in.
   */
  stored: StoredFileSet;
}

/** A cluster's `stored`: the scheduler's IdSet, or any Set of file ids (tests build states by hand). */
export interface StoredFileSet extends ReadonlySet<FileId> {
  add(fileId: FileId): unknown;
  delete(fileId: FileId): unknown;
}

/**
 * A set of Work ids (indices 0..m-1 of Application.works) that lists its members in increasing id order
 * without a scan of every id: a flag per id plus a count per block of BLOCK ids, so taking the first k
 * members costs O(k + m / BLOCK), and less when the low ids have gone (the scan starts at the lowest block
 * that may hold a member: a work queue taking the smallest id again and again does not re-walk the blocks
 * it has emptied).
 */
export class OrderedIdSet {
  private static readonly SHIFT = 8;
  private flags = new Uint8Array(0);
  private blockCounts = new Int32Array(0);
  private count = 0;
  /** Every block below this one is empty. */
  private lowestBlock = 0;
  /** Every id below this one is absent (within lowestBlock, the scan starts here). */
  private lowestId = 0;

  get size(): number {
    return this.count;
  }
  has(id: number): boolean {
    return this.flags[id] === 1;
  }
  add(id: number): void {
    if (!Number.isSafeInteger(id) || id < 0) throw new Error(`Work id ${id} is not an index into Application.works`);
    if (id >= this.flags.length) this.grow(id + 1);
    if (this.flags[id] === 1) return;
    this.flags[id] = 1;
    this.blockCounts[id >> OrderedIdSet.SHIFT]!++;
    this.lowestBlock = Math.min(this.lowestBlock, id >> OrderedIdSet.SHIFT);
    this.lowestId = Math.min(this.lowestId, id);
    this.count++;
  }
  delete(id: number): void {
    if (this.flags[id] !== 1) return;
    this.flags[id] = 0;
    this.blockCounts[id >> OrderedIdSet.SHIFT]!--;
    this.count--;
  }
  /** The smallest member (-1: none): first(1)[0]. */
  firstId(): number {
    if (this.count === 0) return -1;
    const flags = this.flags;
    const blocks = this.blockCounts;
    while (this.lowestBlock < blocks.length && blocks[this.lowestBlock] === 0) this.lowestBlock++;
    const b = this.lowestBlock;
    const end = Math.min(flags.length, (b + 1) << OrderedIdSet.SHIFT);
    for (let id = Math.max(b << OrderedIdSet.SHIFT, this.lowestId); id < end; id++) {
      if (flags[id] === 1) {
        this.lowestId = id;
        return id;
      }
    }
    return -1;
  }
  /** The smallest `limit` members (all of them by default), in increasing order. */
  first(limit = Infinity): Int32Array {
    const want = Math.max(0, Math.ceil(Math.min(limit, this.count)));
    const out = new Int32Array(want);
    let found = 0;
    const flags = this.flags;
    const blocks = this.blockCounts;
    while (this.lowestBlock < blocks.length && blocks[this.lowestBlock] === 0) this.lowestBlock++;
    for (let b = this.lowestBlock; b < blocks.length && found < want; b++) {
      if (blocks[b] === 0) continue;
      const end = Math.min(flags.length, (b + 1) << OrderedIdSet.SHIFT);
      for (let id = Math.max(b << OrderedIdSet.SHIFT, this.lowestId); id < end && found < want; id++) if (flags[id] === 1) out[found++] = id;
    }
    if (found > 0) this.lowestId = out[0]!;
    return out;
  }
  private grow(minLength: number): void {
    const length = Math.max(minLength, this.flags.length * 2, 1 << OrderedIdSet.SHIFT);
    const flags = new Uint8Array(length);
    flags.set(this.flags);
    const blocks = new Int32Array(Math.ceil(length / (1 << OrderedIdSet.SHIFT)));
    blocks.set(this.blockCounts);
    this.flags = flags;
    this.blockCounts = blocks;
  }
}

/**
 * The §5.6.4 usage count of each file (indices 0..n-1 of Application.files): a count per id in a typed
 * array, read as a ReadonlyMap in which a file with no reader is absent. It iterates by increasing file id.
 */
export class FileUsage implements ReadonlyMap<FileId, number> {
  private counts = new Int32Array(0);
  private present = 0;

  get size(): number {
    return this.present;
  }
  get(fileId: FileId): number | undefined {
    const n = fileId >= 0 && fileId < this.counts.length ? this.counts[fileId]! : 0;
    return n === 0 ? undefined : n;
  }
  has(fileId: FileId): boolean {
    return this.get(fileId) !== undefined;
  }
  /** Adds `delta` to the count of `fileId`. */
  change(fileId: FileId, delta: number): void {
    if (!Number.isSafeInteger(fileId) || fileId < 0) throw new Error(`file id ${fileId} is not an index into Application.files`);
    if (fileId >= this.counts.length) {
      const counts = new Int32Array(Math.max(fileId + 1, 2 * this.counts.length, 1024));
      counts.set(this.counts);
      this.counts = counts;
    }
    const before = this.counts[fileId]!;
    const after = before + delta;
    this.counts[fileId] = after;
    if (before === 0 && after !== 0) this.present++;
    else if (before !== 0 && after === 0) this.present--;
  }
  *entries(): MapIterator<[FileId, number]> {
    for (let f = 0; f < this.counts.length; f++) if (this.counts[f] !== 0) yield [f, this.counts[f]!];
  }
  *keys(): MapIterator<FileId> {
    for (const [f] of this.entries()) yield f;
  }
  *values(): MapIterator<number> {
    for (const [, n] of this.entries()) yield n;
  }
  [Symbol.iterator](): MapIterator<[FileId, number]> {
    return this.entries();
  }
  forEach(visit: (value: number, key: FileId, map: ReadonlyMap<FileId, number>) => void): void {
    for (const [f, n] of this.entries()) visit(n, f, this);
  }
}

/** Statuses whose Works are "not started" for the §5.6.4 usage count. */
function notStarted(status: WorkStatus): boolean {
  return status === 'todo' || status === 'queued';
}

/**
 * What a plan needs to know about the Works that are not finished, kept up to date as Works change status
 * (the scheduler calls track() once per Work and moved() on every status change), so that a plan costs what
 * it draws and places rather than a scan of the whole application:
 *  - usage: for each file, the number of not-started (todo or queued) Works reading it (§5.6.4);
 *  - the todo Works, in increasing id order (step 4 takes them, or the first k of them);
 *  - the computed Works (outputs waiting in a storage), in the order the Works were first tracked.
 * `PendingWorks.of(works)` builds the same view by scanning a map of Works (tests, one-off plans).
 */
export class PendingWorks {
  readonly usage = new FileUsage();
  private readonly todoIds = new OrderedIdSet();
  private readonly computedIds = new IntMap<true>();
  /** arrival[id] − 1: the order in which each Work was first tracked (0: not tracked). */
  private arrival = new Int32Array(0);
  private tracked = 0;

  /**
   * `specsById`: the Works' specifications indexed by Work id, when the caller keeps them so: a plan lists the
   * todo Works' specifications without reading each WorkState (spread over the heap, a cache miss each).
   */
  constructor(
    private readonly works: ReadonlyMap<WorkId, WorkState>,
    private readonly specsById?: readonly (WorkSpec | undefined)[],
  ) {}

  static of(works: ReadonlyMap<WorkId, WorkState>): PendingWorks {
    const pending = new PendingWorks(works);
    for (const ws of works.values()) pending.track(ws);
    return pending;
  }

  /** A Work first seen, in its current status. */
  track(ws: WorkState): void {
    const id = ws.spec.id;
    if (!Number.isSafeInteger(id) || id < 0) throw new Error(`Work id ${id} is not an index into Application.works`);
    if (id >= this.arrival.length) {
      const arrival = new Int32Array(Math.max(id + 1, 2 * this.arrival.length, 1024));
      arrival.set(this.arrival);
      this.arrival = arrival;
    }
    if (this.arrival[id] !== 0) return;
    this.arrival[id] = ++this.tracked;
    this.enter(ws, ws.status);
  }

  /** `ws.status` was `from` and has just changed. */
  moved(ws: WorkState, from: WorkStatus): void {
    const to = ws.status;
    if (from === to) return;
    this.leave(ws, from, to);
    this.enter(ws, to, from);
  }

  get todoCount(): number {
    return this.todoIds.size;
  }

  /** The todo Work of smallest id (undefined: none): todo(1)[0] without the arrays. */
  firstTodo(): WorkSpec | undefined {
    const id = this.todoIds.firstId();
    return id < 0 ? undefined : this.specOf(id);
  }

  /** The `limit` todo Works of smallest id (all by default), by increasing id. */
  todo(limit = Infinity): WorkSpec[] {
    const ids = this.todoIds.first(limit);
    // Made at its size (not grown by push), filled by index (not for-of: a function run once per plan may
    // stay unoptimized, and its iterator then allocates a result object per id).
    const specs = new Array<WorkSpec>(ids.length);
    for (let k = 0; k < ids.length; k++) specs[k] = this.specOf(ids[k]!);
    return specs;
  }

  private specOf(id: WorkId): WorkSpec {
    return this.specsById?.[id] ?? this.works.get(id)!.spec;
  }

  /** The computed Works, in the order they were first tracked. */
  computed(): WorkState[] {
    const ids = this.computedIds.keyList().sort((a, b) => this.arrival[a]! - this.arrival[b]!);
    return ids.map((id) => this.works.get(id)!);
  }

  private enter(ws: WorkState, to: WorkStatus, from?: WorkStatus): void {
    if (to === 'todo') this.todoIds.add(ws.spec.id);
    if (to === 'computed') this.computedIds.set(ws.spec.id, true);
    if (notStarted(to) && (from === undefined || !notStarted(from))) this.count(ws.spec.inputs, 1);
  }

  private leave(ws: WorkState, from: WorkStatus, to: WorkStatus): void {
    if (from === 'todo') this.todoIds.delete(ws.spec.id);
    if (from === 'computed') this.computedIds.delete(ws.spec.id);
    if (notStarted(from) && !notStarted(to)) this.count(ws.spec.inputs, -1);
  }

  /** Adds `delta` to the usage of each distinct file of `inputs`. */
  private count(inputs: readonly FileId[], delta: number): void {
    for (let k = 0; k < inputs.length; k++) {
      const fileId = inputs[k]!;
      if (inputs.indexOf(fileId) !== k) continue; // a file read twice counts once
      this.usage.change(fileId, delta);
    }
  }
}
