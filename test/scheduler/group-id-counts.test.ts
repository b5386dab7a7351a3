// GroupIdCounts (randomized Max-min's draw over whole groups, src/scheduler/heuristics/group-id-counts.ts):
// the id of rank r among the members of some groups and a sorted list of other ids, against a sort of them.
import { describe, expect, it } from 'vitest';
import { GroupIdCounts } from '../../src/scheduler/heuristics/group-id-counts.js';
import { PlanArrays } from '../../src/scheduler/heuristics/plan-arrays.js';
import { Rng } from '../../src/util/rng.js';

/** Groups given as lists of Works (Work j's id idOf[j]); start/list as HostBoundGroups lays them out. */
function layout(groups: number[][]): { start: Int32Array; list: Int32Array; groupOf: Int32Array } {
  const start = new Int32Array(groups.length + 1);
  groups.forEach((g, k) => (start[k + 1] = start[k]! + g.length));
  const list = Int32Array.from(groups.flat());
  const groupOf = new Int32Array(list.length + 1000).fill(-1);
  groups.forEach((g, k) => g.forEach((j) => (groupOf[j] = k)));
  return { start, list, groupOf };
}

describe('GroupIdCounts', () => {
  it('finds the id of each rank among a large group\'s members and listed ids (by hand)', () => {
    // Works 0..129 with id = Work. Group 0: ids 0..69 (70 eligible: large enough for a tree); group 1: ids
    // 70..129 (60: none). Members of group 0: the even ids 0, 2, …, 68 (35 of them, 64 in the second block of
    // 64 ids). Listed: 3 (not a member) and 71 (group 1's). In increasing order: 0, 2, 3, 4, 6, …, 68, 71:
    // rank 0 → 0, 1 → 2, 2 → 3, then rank k ≥ 3 → 2(k − 1), so 33 → 64 and 35 → 68; rank 36 → 71.
    const n = 130;
    const idOf = Int32Array.from({ length: n }, (_, j) => j);
    const { start, list, groupOf } = layout([Array.from({ length: 70 }, (_, j) => j), Array.from({ length: 60 }, (_, j) => 70 + j)]);
    const member = new Uint8Array(n);
    for (let j = 0; j < 70; j += 2) member[j] = 1;
    const arrays = PlanArrays.take();
    try {
      const counts = new GroupIdCounts(start, list, 2, member, idOf, groupOf, n, arrays);
      expect([counts.hasTree(0), counts.hasTree(1)]).toEqual([true, false]);
      const groups = Int32Array.of(0);
      const listed = Int32Array.of(3, 71);
      const at = (r: number): number => counts.select(r, groups, 1, listed, 2);
      expect([0, 1, 2, 3, 33, 35, 36].map(at)).toEqual([0, 2, 3, 4, 64, 68, 71]);
      // Work 0 leaves, Work 1 joins: 1, 2, 3, 4, …; rank 0 → 1, 1 → 2, 2 → 3.
      member[0] = 0;
      counts.change(0, 0, -1);
      member[1] = 1;
      counts.change(1, 0, 1);
      expect([0, 1, 2, 36].map(at)).toEqual([1, 2, 3, 71]);
      // Group 0 not counted: only the listed ids.
      expect(counts.select(1, groups, 0, listed, 2)).toBe(71);
    } finally {
      PlanArrays.give(arrays);
    }
  });

  it('matches a sort of the candidates under random joins, leaves and draws', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rng = new Rng(seed);
      const n = 50 + rng.int(900);
      // Distinct ids with gaps (a plan's Works are a subset of the sweep's), shuffled over the Works.
      const ids = Array.from({ length: n }, (_, k) => k * (1 + rng.int(3)) + rng.int(2));
      const unique = [...new Set(ids)];
      const m = unique.length;
      for (let k = m - 1; k > 0; k--) {
        const s = rng.int(k + 1);
        [unique[k], unique[s]] = [unique[s]!, unique[k]!];
      }
      const idOf = Int32Array.from(unique);
      // Groups of random sizes (some below the tree's threshold); a few Works in none (not eligible).
      const groupCount = 1 + rng.int(8);
      const groups: number[][] = Array.from({ length: groupCount }, () => []);
      for (let j = 0; j < m; j++) if (rng.int(10) !== 0) groups[rng.int(rng.int(2) === 0 ? 1 : groupCount)]!.push(j);
      const { start, list, groupOf } = layout(groups);
      const member = new Uint8Array(m);
      for (const j of list) member[j] = rng.int(3) === 0 ? 0 : 1;
      const arrays = PlanArrays.take();
      try {
        const counts = new GroupIdCounts(start, list, groupCount, member, idOf, groupOf, m, arrays);
        for (let step = 0; step < 200; step++) {
          // Some joins and leaves.
          for (let k = 0; k < 5 && list.length > 0; k++) {
            const j = list[rng.int(list.length)]!;
            member[j] ^= 1;
            counts.change(j, groupOf[j]!, member[j] === 1 ? 1 : -1);
          }
          // A draw: some groups with trees counted whole; listed, any other Works' ids.
          const counted = Array.from({ length: groupCount }, (_, g) => g).filter((g) => counts.hasTree(g) && rng.int(2) === 0);
          const inCounted = (j: number): boolean => member[j] === 1 && groupOf[j]! >= 0 && counted.includes(groupOf[j]!);
          const listed = Array.from({ length: m }, (_, j) => j).filter((j) => !inCounted(j) && rng.int(4) === 0).map((j) => idOf[j]!).sort((a, b) => a - b);
          const all = Array.from({ length: m }, (_, j) => j).filter(inCounted).map((j) => idOf[j]!).concat(listed).sort((a, b) => a - b);
          if (all.length === 0) continue;
          const r = rng.int(all.length);
          expect(counts.select(r, Int32Array.from(counted), counted.length, Int32Array.from(listed), listed.length), `seed ${seed}, step ${step}, rank ${r}`).toBe(all[r]);
        }
      } finally {
        PlanArrays.give(arrays);
      }
    }
  });
});
