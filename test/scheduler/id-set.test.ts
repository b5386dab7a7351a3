// IdSet (src/scheduler/id-set.ts) against a plain Set: seeded sequences of add, delete, has, clear and
// re-adds, compared after every operation (size, answers) and regularly in full (the members: in the same
// order as Set's for an ordered IdSet, the same members for an unordered one, and markInto's flags). The mixes make the sets go
// from a Set to bits (asserted), grow beyond their range hint, and delete and re-add ids while dense (the
// skipped entries of the order list and their compaction).
import { describe, expect, it } from 'vitest';
import { IdSet } from '../../src/scheduler/id-set.js';
import { Rng } from '../../src/util/rng.js';

const ascending = (xs: Iterable<number>) => [...xs].sort((a, b) => a - b);

/** Whether the set has gone to bits (a look inside: the Set it starts as is dropped then). */
const isDense = (s: IdSet) => (s as unknown as { small: Set<number> | null }).small === null;

interface Mix {
  readonly name: string;
  readonly range: number;
  /** An id to operate on (may exceed the range hint). */
  readonly id: (rng: Rng) => number;
  /** Out of 100: adds below addPct, deletes below deletePct, lookups above. */
  readonly addPct: number;
  readonly deletePct: number;
  readonly ops: number;
  readonly dense: boolean;
  /** Adds take ids never added before (0, 1, 2, …); deletes and lookups take any id below them. */
  readonly fresh?: boolean;
}

const mixes: readonly Mix[] = [
  // A cluster's storage: ids added, far more than deleted; the set holds most of its range.
  { name: 'mostly adds over the range', range: 2_000, id: (rng) => rng.int(2_000), addPct: 70, deletePct: 80, ops: 20_000, dense: true },
  // Churn: as many deletes as adds, ids deleted and added again many times while dense.
  { name: 'adds and deletes of a small range', range: 300, id: (rng) => rng.int(300), addPct: 45, deletePct: 90, ops: 30_000, dense: true },
  // Ids beyond the range hint (the bits grow) and a range hint of 0.
  { name: 'ids far beyond the range hint', range: 0, id: (rng) => rng.int(5_000) * 7, addPct: 60, deletePct: 75, ops: 20_000, dense: true },
  // A window: new ids come in, older ones go, none comes back (deleted entries pile up in the order list
  // until it is compacted for them).
  { name: 'new ids added, older ones deleted', range: 4_000, id: (rng) => rng.int(4_000), addPct: 30, deletePct: 95, ops: 12_000, dense: true, fresh: true },
  // Few members in a large range: stays a Set.
  { name: 'few members in a large range', range: 1_000_000, id: (rng) => rng.int(1_000_000), addPct: 40, deletePct: 60, ops: 5_000, dense: false },
];

describe('IdSet', () => {
  for (const ordered of [true, false]) {
    for (const mix of mixes) {
      it(`agrees with Set (${ordered ? 'ordered' : 'unordered'}): ${mix.name}`, () => {
        const rng = new Rng(ordered ? 53 : 59);
        let ours = new IdSet(mix.range, ordered);
        let theirs = new Set<number>();
        let wentDense = false;
        let readds = 0;
        const everDeleted = new Set<number>();
        let nextFresh = 0;
        for (let step = 0; step < mix.ops; step++) {
          const r = rng.int(100);
          const id = mix.fresh !== true ? mix.id(rng) : r < mix.addPct ? nextFresh++ : rng.int(nextFresh + 1);
          if (step === Math.floor(mix.ops / 2)) {
            // Half way: a copy (IdSet.from) carries on, or the set is cleared.
            if (rng.int(2) === 0) ours = IdSet.from(ours, mix.range, ordered);
            else {
              ours.clear();
              theirs = new Set();
            }
          }
          if (r < mix.addPct) {
            if (everDeleted.has(id) && !theirs.has(id)) readds++;
            expect(ours.add(id)).toBe(ours);
            theirs.add(id);
          } else if (r < mix.deletePct) {
            expect(ours.delete(id)).toBe(theirs.delete(id));
            everDeleted.add(id);
          } else {
            expect(ours.has(id)).toBe(theirs.has(id));
          }
          expect(ours.size).toBe(theirs.size);
          wentDense ||= isDense(ours);
          if (step % 499 === 0 || step === mix.ops - 1) {
            if (ordered) expect([...ours]).toEqual([...theirs]);
            else expect(ascending(ours)).toEqual(ascending(theirs));
            const visited: number[] = [];
            ours.forEach((v, k, set) => {
              expect(k).toBe(v);
              expect(set).toBe(ours);
              visited.push(v);
            });
            expect(visited).toEqual([...ours]);
            expect([...ours.entries()]).toEqual([...ours].map((v) => [v, v]));
            // markInto: a flag for each member, none elsewhere (ids beyond the array are left out).
            const flags = new Uint8Array(2_000);
            ours.markInto(flags);
            expect([...flags.keys()].filter((f) => flags[f] === 1)).toEqual(ascending(theirs).filter((f) => f < flags.length));
          }
        }
        expect(wentDense).toBe(mix.dense);
        if (mix.dense && mix.fresh !== true) expect(readds).toBeGreaterThan(50);
      });
    }
  }

  it('answers no for ids that are not non-negative integers, and refuses to add them', () => {
    for (const range of [0, 100]) {
      const s = new IdSet(range, true);
      for (let id = 0; id < 100; id++) s.add(id);
      expect(isDense(s)).toBe(true);
      for (const bad of [-1, 1.5, 2 ** 31, 2 ** 32 + 1, Number.NaN]) {
        expect(s.has(bad)).toBe(false);
        expect(() => s.add(bad)).toThrow(/non-negative integer/);
      }
      expect(s.has(99)).toBe(true);
      expect(s.has(100)).toBe(false);
      expect(s.has(1 << 30)).toBe(false);
    }
  });
});
