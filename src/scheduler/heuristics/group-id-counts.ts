// The randomized rules' draw without listing every candidate: randomized Max-min's groups
// (maxmin-groups.ts) and the sufferage family's pool of host-bound Works (host-bound-pool.ts).
//
// The draw takes the Work of rank r, by increasing id, among its candidates. Most of them belong to sets of
// Works that lie within the draw's limit as a whole (a Max-min group whose first member is within it, a
// pool's category that scores as its lowest-id Work): listing them and sorting them by id after each
// placement cost time in proportion to the Works waiting, so a plan's draws cost its Works squared. Here
// the ids are cut into blocks of 64, and each large set has a tree: a Fenwick tree of its members' count per
// block. The block holding the Work of rank r among several whole sets and a short sorted list of other ids
// is found by one descent over those trees together, and the Work by a scan of that block's 64 ids. The
// caller decides which sets get a tree (at least LARGE_SET Works) and lists the others; at most MAX_TREES
// trees exist at once, so they take at most 4 entries per Work.
import type { PlanArrays } from './plan-arrays.js';
import { sortIndices } from './sort-indices.js';

const BLOCK_BITS = 6;
/** The least number of Works for a set to be worth a tree. */
export const LARGE_SET = 64;
/** The most trees at once. */
export const MAX_TREES = 256;

export class GroupIdCounts {
  /** Per id (0 up to the largest), the Work with that id, or -1. */
  private readonly workById: Int32Array;
  /** Per Work, the tree counting it (-1: none). */
  private readonly treeOfWork: Int32Array;
  /** The trees: node i (1-based, over the blocks) of tree t at nodes[t * blocks + i - 1]; room for `capacity` trees. */
  private nodes = new Int32Array(0);
  private capacity = 0;
  /** Trees made so far (given back ones included). */
  private treeCount = 0;
  /** Trees given back (all their counts 0), for newTree. */
  private readonly spare: number[] = [];
  private readonly blocks: number;
  /** Scratch of select: per tree, 1 while it is counted. */
  private readonly counted = new Uint8Array(MAX_TREES);
  /** Scratch of draw: the listed ids sorted. */
  private sortScratch: Int32Array | undefined;

  /** Per Work j (of n), its id `idOf[j]`: distinct, and fixed while the Work may be counted. */
  constructor(
    private readonly idOf: Int32Array,
    private readonly n: number,
    arrays: PlanArrays,
  ) {
    let maxId = -1;
    for (let j = 0; j < n; j++) if (idOf[j]! > maxId) maxId = idOf[j]!;
    const workById = (this.workById = arrays.int32(maxId + 1, -1));
    for (let j = 0; j < n; j++) workById[idOf[j]!] = j;
    this.blocks = (maxId >> BLOCK_BITS) + 1;
    this.treeOfWork = arrays.int32(n, -1);
  }

  /**
   * A new tree counting the `count` Works workAt(0), …, workAt(count − 1) (-1: skipped; none counted by
   * another tree), built in linear time; -1 when MAX_TREES are in use (the caller lists the set's Works).
   */
  newTree(count: number, workAt: (k: number) => number): number {
    const { blocks, idOf, treeOfWork } = this;
    let t = this.spare.pop();
    if (t === undefined) {
      if (this.treeCount === MAX_TREES) return -1;
      t = this.treeCount++;
      if (t === this.capacity) {
        // Room for twice as many trees (the given-back ones hold zeros).
        this.capacity = Math.min(MAX_TREES, Math.max(4, 2 * this.capacity));
        const nodes = new Int32Array(this.capacity * blocks);
        nodes.set(this.nodes);
        this.nodes = nodes;
      }
    }
    const { nodes } = this;
    const base = t * blocks;
    for (let k = 0; k < count; k++) {
      const j = workAt(k);
      if (j < 0) continue;
      treeOfWork[j] = t;
      nodes[base + (idOf[j]! >> BLOCK_BITS)]!++;
    }
    for (let i = 1; i <= blocks; i++) {
      const parent = i + (i & -i);
      if (parent <= blocks) nodes[base + parent - 1]! += nodes[base + i - 1]!;
    }
    return t;
  }

  /** Gives tree t back; it must count no Work (each one removed). */
  freeTree(t: number): void {
    this.spare.push(t);
  }

  /** Work j (counted by none) joins tree t. */
  add(j: number, t: number): void {
    this.treeOfWork[j] = t;
    this.change(j, t, 1);
  }

  /** Work j leaves its tree, if it has one. */
  remove(j: number): void {
    const t = this.treeOfWork[j]!;
    if (t < 0) return;
    this.treeOfWork[j] = -1;
    this.change(j, t, -1);
  }

  private change(j: number, t: number, delta: 1 | -1): void {
    const { blocks, nodes } = this;
    const base = t * blocks - 1;
    for (let i = (this.idOf[j]! >> BLOCK_BITS) + 1; i <= blocks; i += i & -i) nodes[base + i]! += delta;
  }

  /**
   * The draw: rng.int(how many) is the rank, by increasing id, of the one taken among the `countedWorks`
   * Works of the first `treeCount` trees of `trees` and the ids out[0..at) (in no order, none counted by
   * those trees). Returns its id.
   */
  draw(trees: Int32Array, treeCount: number, countedWorks: number, out: Int32Array, at: number, rng: { int(count: number): number }): number {
    // The best Work is always within its own limit: none is a bug.
    if (at + countedWorks === 0) throw new Error("internal error: no candidate within the draw's limit, not even the best Work");
    const ids = sortIndices(out, at, (this.sortScratch ??= new Int32Array(this.n)));
    return this.select(rng.int(at + countedWorks), trees, treeCount, ids, at);
  }

  /**
   * The id of rank `r` (0-based, increasing ids) among the Works of the first `treeCount` trees of `trees`
   * and the first `listedCount` ids of `listed` (increasing, none of them counted by those trees). There
   * must be more than r of them.
   */
  select(r: number, trees: Int32Array, treeCount: number, listed: Int32Array, listedCount: number): number {
    const { blocks, nodes, counted, workById, treeOfWork } = this;
    for (let q = 0; q < treeCount; q++) counted[trees[q]!] = 1;
    // Fenwick descent over the blocks, the trees summed node by node: `pos` blocks hold at most r of the ids,
    // `listedBefore` of them listed.
    let pos = 0;
    let rest = r;
    let listedBefore = 0;
    let step = 1;
    while (step * 2 <= blocks) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = pos + step;
      if (next > blocks) continue;
      let count = 0;
      for (let q = 0; q < treeCount; q++) count += nodes[trees[q]! * blocks + next - 1]!;
      // The listed ids below block `next`.
      const endId = next << BLOCK_BITS;
      let a = listedBefore;
      let b = listedCount;
      while (a < b) {
        const m = (a + b) >>> 1;
        if (listed[m]! < endId) a = m + 1;
        else b = m;
      }
      count += a - listedBefore;
      if (count <= rest) {
        pos = next;
        rest -= count;
        listedBefore = a;
      }
    }
    // The id lies in block `pos`: the rest-th of its ids that are listed or counted by a tree counted here.
    let found = -1;
    let l = listedBefore;
    for (let id = pos << BLOCK_BITS; id < (pos + 1) << BLOCK_BITS; id++) {
      let taken = false;
      if (l < listedCount && listed[l] === id) {
        taken = true;
        l++;
      } else if (id < workById.length) {
        const j = workById[id]!;
        taken = j >= 0 && treeOfWork[j]! >= 0 && counted[treeOfWork[j]!] === 1;
      }
      if (taken && rest-- === 0) {
        found = id;
        break;
      }
    }
    for (let q = 0; q < treeCount; q++) counted[trees[q]!] = 0;
    if (found < 0) throw new Error(`internal error: no candidate of rank ${r} in the draw`);
    return found;
  }
}
