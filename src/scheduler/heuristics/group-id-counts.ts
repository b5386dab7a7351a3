// Randomized Max-min's draw without listing every candidate (maxmin-groups.ts, MaxMinGroups.drawWithin).
//
// The draw takes the Work of rank r, by increasing id, among its candidates. Most of them are the members
// of groups (host-bound-groups.ts) that lie within the draw's limit as a whole: listing them and sorting
// them by id after each placement cost time in proportion to the Works waiting, so a plan's draws cost
// its Works squared. Here the ids are cut into blocks of 64, and each large group keeps a Fenwick tree of
// its members' count per block: the block holding the Work of rank r among several whole groups and a
// short sorted list of other ids is found by one descent over those trees together, and the Work by a scan
// of that block's 64 ids. Small groups (fewer eligible Works than LARGE_GROUP or a 256th of them all) have
// no tree and are listed by the caller: the trees' size stays within 4 entries per Work.
import type { PlanArrays } from './plan-arrays.js';

const BLOCK_BITS = 6;
const BLOCK = 1 << BLOCK_BITS;
/** The least number of eligible Works for a group to be counted by a tree. */
const LARGE_GROUP = 64;

export class GroupIdCounts {
  /** Per id (0 up to the largest), the Work with that id, or -1. */
  private readonly workById: Int32Array;
  /** Per group, its tree's index (-1: none, a small group). */
  private readonly treeOf: Int32Array;
  /** The trees: tree t's node i (1-based, over the blocks) at t * blocks + i - 1. */
  private readonly trees: Int32Array;
  private readonly blocks: number;
  /** Scratch of select: per group, 1 while it is counted. */
  private readonly counted: Uint8Array;

  /**
   * `start`, `list`: the groups' eligible Works (as HostBoundGroups lists them, group g's from start[g]); `member`:
   * 1 for the members now; per Work, its id `idOf` (distinct among the n Works) and group `groupOf`.
   */
  constructor(
    start: Int32Array,
    list: Int32Array,
    groupCount: number,
    private readonly member: Uint8Array,
    private readonly idOf: Int32Array,
    private readonly groupOf: Int32Array,
    n: number,
    arrays: PlanArrays,
  ) {
    let maxId = -1;
    for (let j = 0; j < n; j++) if (idOf[j]! > maxId) maxId = idOf[j]!;
    const workById = (this.workById = arrays.int32(maxId + 1, -1));
    for (let j = 0; j < n; j++) workById[idOf[j]!] = j;
    const blocks = (this.blocks = (maxId >> BLOCK_BITS) + 1);
    const large = Math.max(LARGE_GROUP, list.length >> 8);
    const treeOf = (this.treeOf = arrays.int32(groupCount, -1));
    let treeCount = 0;
    for (let g = 0; g < groupCount; g++) if (start[g + 1]! - start[g]! >= large) treeOf[g] = treeCount++;
    const trees = (this.trees = arrays.int32(treeCount * blocks));
    this.counted = arrays.uint8(groupCount);
    for (let g = 0; g < groupCount; g++) {
      const t = treeOf[g]!;
      if (t < 0) continue;
      const base = t * blocks;
      for (let k = start[g]!; k < start[g + 1]!; k++) if (member[list[k]!] === 1) trees[base + (idOf[list[k]!]! >> BLOCK_BITS)]!++;
      // Linear Fenwick build from the counts per block.
      for (let i = 1; i <= blocks; i++) {
        const parent = i + (i & -i);
        if (parent <= blocks) trees[base + parent - 1]! += trees[base + i - 1]!;
      }
    }
  }

  /** Group g has a tree (else the caller lists its candidates). */
  hasTree(g: number): boolean {
    return this.treeOf[g]! >= 0;
  }

  /** Work j (eligible, of group g) became a member (+1) or left (−1). */
  change(j: number, g: number, delta: 1 | -1): void {
    const t = this.treeOf[g]!;
    if (t < 0) return;
    const { trees, blocks } = this;
    const base = t * blocks;
    for (let i = (this.idOf[j]! >> BLOCK_BITS) + 1; i <= blocks; i += i & -i) trees[base + i - 1]! += delta;
  }

  /**
   * The id of rank `r` (0-based, increasing ids) among the members of the first `groupsCount` groups of
   * `groups` (each with a tree) and the first `listedCount` ids of `listed` (increasing, none of them a
   * member of those groups). There must be more than r of them.
   */
  select(r: number, groups: Int32Array, groupsCount: number, listed: Int32Array, listedCount: number): number {
    const { trees, blocks, treeOf, counted, workById, member, groupOf } = this;
    for (let q = 0; q < groupsCount; q++) counted[groups[q]!] = 1;
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
      for (let q = 0; q < groupsCount; q++) count += trees[treeOf[groups[q]!]! * blocks + next - 1]!;
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
    // The id lies in block `pos`: the rest-th of its ids that are listed or members of a counted group.
    let found = -1;
    let l = listedBefore;
    for (let id = pos << BLOCK_BITS; id < (pos + 1) << BLOCK_BITS; id++) {
      let taken = false;
      if (l < listedCount && listed[l] === id) {
        taken = true;
        l++;
      } else if (id < workById.length) {
        const j = workById[id]!;
        taken = j >= 0 && member[j] === 1 && counted[groupOf[j]!] === 1;
      }
      if (taken && rest-- === 0) {
        found = id;
        break;
      }
    }
    for (let q = 0; q < groupsCount; q++) counted[groups[q]!] = 0;
    if (found < 0) throw new Error(`internal error: no candidate of rank ${r} in the draw`);
    return found;
  }
}
