// sortIndices (mct-engine.ts): the radix sort the lazy randomized draw uses must order exactly as a numeric sort,
// for every number of byte passes (values below 2^8, 2^16, 2^24 and up to 2^31 - 1) and for a prefix only.
import { describe, expect, it } from 'vitest';
import { sortIndices } from '../../src/scheduler/heuristics/sort-indices.js';
import { Rng } from '../../src/util/rng.js';

describe('sortIndices', () => {
  it('sorts the first count entries as a numeric sort does', () => {
    const rng = new Rng(7);
    for (const bound of [1, 2, 200, 256, 10_000, 70_000, 20_000_000, 2 ** 31 - 1]) {
      for (const count of [0, 1, 2, 3, 50, 700]) {
        const a = new Int32Array(count + 5);
        for (let q = 0; q < a.length; q++) a[q] = Math.floor(rng.next() * bound);
        const expected = Array.from(a.subarray(0, count)).sort((x, y) => x - y);
        const rest = Array.from(a.subarray(count));
        const sorted = sortIndices(a, count, new Int32Array(a.length));
        expect(Array.from(sorted.subarray(0, count))).toEqual(expected);
        // The entries past count are left alone when the result is `a` itself.
        if (sorted === a) expect(Array.from(a.subarray(count))).toEqual(rest);
      }
    }
  });

  it('sorts a hand-made case across two byte passes', () => {
    // 258 = 0x0102 and 513 = 0x0201: the low bytes alone would put 513 first.
    const a = Int32Array.from([513, 258, 0, 65_535, 256]);
    expect(Array.from(sortIndices(a, 5, new Int32Array(5)))).toEqual([0, 256, 258, 513, 65_535]);
  });
});
