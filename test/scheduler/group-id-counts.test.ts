// GroupIdCounts (the randomized rules' draw over whole sets of Works, src/scheduler/heuristics/group-id-counts.ts):
// the id of rank r among the Works of some trees and a sorted list of other ids, against a sort of them.
import { describe, expect, it } from 'vitest';
import { GroupIdCounts, LARGE_SET, MAX_TREES } from '../../src/scheduler/heuristics/group-id-counts.js';
import { PlanArrays } from '../../src/scheduler/heuristics/plan-arrays.js';
import { Rng } from '../../src/util/rng.js';

describe('GroupIdCounts', () => {
  it('finds the id of each rank among a tree\'s Works and listed ids (by hand)', () => {
    // Works 0..129 with id = Work. A tree over the even Works 0, 2, …, 68 (35 of them; 64 lies in the second
    // block of 64 ids). Listed: 3 and 71. In increasing order: 0, 2, 3, 4, 6, …, 68, 71: rank 0 → 0, 1 → 2,
    // 2 → 3, then rank k ≥ 3 → 2(k − 1), so 33 → 64 and 35 → 68; rank 36 → 71.
    const n = 130;
    const idOf = Int32Array.from({ length: n }, (_, j) => j);
    const arrays = PlanArrays.take();
    try {
      const counts = new GroupIdCounts(idOf, n, arrays);
      const t = counts.newTree(70, (k) => (k % 2 === 0 ? k : -1));
      expect(t).toBe(0);
      const trees = Int32Array.of(t);
      const listed = Int32Array.of(3, 71);
      const at = (r: number): number => counts.select(r, trees, 1, listed, 2);
      expect([0, 1, 2, 3, 33, 35, 36].map(at)).toEqual([0, 2, 3, 4, 64, 68, 71]);
      // Work 0 leaves, Work 1 joins: 1, 2, 3, 4, …; rank 0 → 1, 1 → 2, 2 → 3.
      counts.remove(0);
      counts.add(1, t);
      expect([0, 1, 2, 36].map(at)).toEqual([1, 2, 3, 71]);
      // The tree not counted: only the listed ids.
      expect(counts.select(1, trees, 0, listed, 2)).toBe(71);
      // Emptied and given back, the tree is taken again for Works 5 and 100 alone: ranks 0 → 3 (listed),
      // 1 → 5, 2 → 71 (listed), 3 → 100.
      for (let j = 1; j <= 68; j++) counts.remove(j);
      counts.freeTree(t);
      expect(counts.newTree(2, (k) => [5, 100][k]!)).toBe(t);
      expect([0, 1, 2, 3].map(at)).toEqual([3, 5, 71, 100]);
      // Five more trees of one Work each (10, …, 14): room for them is made (4 trees, then 8), tree t keeps
      // its counts. All six counted with the listed ids: 3, 5, 10, 11, 12, 13, 14, 71, 100.
      const more = [10, 11, 12, 13, 14].map((j) => counts.newTree(1, () => j));
      expect(more).toEqual([1, 2, 3, 4, 5]);
      const all = Int32Array.of(t, ...more);
      expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((r) => counts.select(r, all, 6, listed, 2))).toEqual([3, 5, 10, 11, 12, 13, 14, 71, 100]);
    } finally {
      PlanArrays.give(arrays);
    }
  });

  it('makes no tree past MAX_TREES until one is given back, and then reuses it', () => {
    // One Work per tree, Work j (id j) in tree j. Tree MAX_TREES + 1 is refused (-1: the caller lists that
    // set's Works instead); once tree 7 has lost its Work and is given back, the next tree is tree 7, and
    // every other tree still counts its Work: with trees 0 and 7 counted and nothing listed, rank 0 → 0 and
    // rank 1 → the Work given to the reused tree.
    const n = MAX_TREES + 1;
    const idOf = Int32Array.from({ length: n }, (_, j) => j);
    const arrays = PlanArrays.take();
    try {
      const counts = new GroupIdCounts(idOf, n, arrays);
      for (let j = 0; j < MAX_TREES; j++) expect(counts.newTree(1, () => j)).toBe(j);
      expect(counts.newTree(1, () => MAX_TREES)).toBe(-1);
      counts.remove(7);
      counts.freeTree(7);
      expect(counts.newTree(1, () => MAX_TREES)).toBe(7);
      const none = new Int32Array(0);
      expect([0, 1].map((r) => counts.select(r, Int32Array.of(0, 7), 2, none, 0))).toEqual([0, MAX_TREES]);
      expect(counts.select(0, Int32Array.of(255), 1, none, 0)).toBe(255);
    } finally {
      PlanArrays.give(arrays);
    }
  });

  it('matches a sort of the candidates under random joins, leaves, trees given back and draws', () => {
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
      // Sets of random sizes; those of LARGE_SET Works or more get a tree over their members; a few Works in none.
      const setCount = 1 + rng.int(8);
      const sets: number[][] = Array.from({ length: setCount }, () => []);
      for (let j = 0; j < m; j++) if (rng.int(10) !== 0) sets[rng.int(rng.int(2) === 0 ? 1 : setCount)]!.push(j);
      const member = new Uint8Array(m);
      for (const set of sets) for (const j of set) member[j] = rng.int(3) === 0 ? 0 : 1;
      const arrays = PlanArrays.take();
      try {
        const counts = new GroupIdCounts(idOf, m, arrays);
        const treeOf = sets.map((set) => (set.length >= LARGE_SET ? counts.newTree(set.length, (k) => (member[set[k]!] === 1 ? set[k]! : -1)) : -1));
        for (let step = 0; step < 200; step++) {
          // Some joins and leaves of a set with a tree.
          for (let k = 0; k < 5; k++) {
            const s = rng.int(setCount);
            if (treeOf[s]! < 0) continue;
            const j = sets[s]![rng.int(sets[s]!.length)]!;
            member[j] ^= 1;
            if (member[j] === 1) counts.add(j, treeOf[s]!);
            else counts.remove(j);
          }
          // Now and then a set's tree given back (its Works removed) and a new one made.
          if (rng.int(20) === 0) {
            const s = rng.int(setCount);
            if (treeOf[s]! >= 0) {
              for (const j of sets[s]!) counts.remove(j);
              counts.freeTree(treeOf[s]!);
              treeOf[s] = counts.newTree(sets[s]!.length, (k) => (member[sets[s]![k]!] === 1 ? sets[s]![k]! : -1));
            }
          }
          // A draw: some sets with trees counted whole; listed, any other Works' ids.
          const counted = sets.map((_, s) => s).filter((s) => treeOf[s]! >= 0 && rng.int(2) === 0);
          const inCounted = new Set(counted.flatMap((s) => sets[s]!.filter((j) => member[j] === 1)));
          const listed = Array.from({ length: m }, (_, j) => j).filter((j) => !inCounted.has(j) && rng.int(4) === 0).map((j) => idOf[j]!).sort((a, b) => a - b);
          const all = [...inCounted].map((j) => idOf[j]!).concat(listed).sort((a, b) => a - b);
          if (all.length === 0) continue;
          const r = rng.int(all.length);
          const trees = Int32Array.from(counted.map((s) => treeOf[s]!));
          expect(counts.select(r, trees, trees.length, Int32Array.from(listed), listed.length), `seed ${seed}, step ${step}, rank ${r}`).toBe(all[r]);
        }
      } finally {
        PlanArrays.give(arrays);
      }
    }
  });
});
