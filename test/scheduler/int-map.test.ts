// IntMap (src/scheduler/int-map.ts) against a plain Map: seeded sequences of set, delete, get, has and clear
// over a few kinds of keys (a handful of ids churned in and out, as a link FIFO's inputs are; thousands of
// consecutive ones, which make the table grow; and a pool of random keys, which collide and probe past
// tombstones), compared after every operation, including the entries visited by valueAt.
import { describe, expect, it } from 'vitest';
import { IntMap } from '../../src/scheduler/int-map.js';
import { Rng } from '../../src/util/rng.js';

function entriesBySlot(m: IntMap<number>): [number, number][] {
  const out: [number, number][] = [];
  m.forEach((value, key) => out.push([key, value]));
  return out.sort((a, b) => a[0] - b[0]);
}

describe('IntMap', () => {
  const pool = Array.from({ length: 3_000 }, (_, i) => new Rng(7 + i).int(2 ** 31) * (i % 3 === 0 ? 2 ** 12 : 1));
  for (const [name, keyOf, ops] of [
    ['churn of a few keys', (rng: Rng) => 2 * rng.int(6) + rng.int(2), 20_000],
    ['consecutive ids (times 2, plus 1)', (rng: Rng) => 2 * rng.int(5_000) + rng.int(2), 30_000],
    ['a pool of random keys, some beyond 32 bits', (rng: Rng) => pool[rng.int(pool.length)]!, 30_000],
  ] as const) {
    it(`agrees with Map: ${name}`, () => {
      const rng = new Rng(31);
      const ours = new IntMap<number>();
      const theirs = new Map<number, number>();
      let largest = 0;
      for (let step = 0; step < ops; step++) {
        const key = keyOf(rng);
        const r = rng.int(100);
        if (step % 10_000 === 9_999) {
          ours.clear();
          theirs.clear();
        } else if (r < 50) {
          ours.set(key, step);
          theirs.set(key, step);
        } else if (r < 90) {
          expect(ours.delete(key)).toBe(theirs.delete(key));
        } else {
          expect(ours.get(key)).toBe(theirs.get(key));
          expect(ours.has(key)).toBe(theirs.has(key));
        }
        expect(ours.size).toBe(theirs.size);
        largest = Math.max(largest, theirs.size);
        if (step % 997 === 0) {
          expect(entriesBySlot(ours)).toEqual([...theirs.entries()].sort((a, b) => a[0] - b[0]));
          const bySlot: number[] = [];
          for (let k = 0; k < ours.size; k++) bySlot.push(ours.valueAt(k));
          expect(bySlot.sort((a, b) => a - b)).toEqual([...theirs.values()].sort((a, b) => a - b));
          expect(ours.keyList().sort((a, b) => a - b)).toEqual([...theirs.keys()].sort((a, b) => a - b));
        }
      }
      // The maps grew to hundreds of entries (the table was rebuilt, and probed past tombstones).
      if (name !== 'churn of a few keys') expect(largest).toBeGreaterThan(200);
    });
  }

  it('keeps keys beyond 32 bits apart and refuses negative ones', () => {
    const m = new IntMap<string>();
    // 2^32 + 5 and 5 share their low 32 bits, so they start probing at the same slot.
    m.set(2 ** 32 + 5, 'big');
    m.set(5, 'small');
    expect(m.get(5)).toBe('small');
    expect(m.get(2 ** 32 + 5)).toBe('big');
    m.delete(5);
    expect(m.get(2 ** 32 + 5)).toBe('big');
    expect(m.has(5)).toBe(false);
    expect(() => m.set(-1, 'x')).toThrow(/non-negative/);
  });
});
