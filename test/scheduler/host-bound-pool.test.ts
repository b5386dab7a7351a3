// The two floating-point facts HostBoundPool's grouping rests on, checked against the hardware's own
// additions: for E in the binade [base, 2·base) with E + o still in it, fl(E + o) − E is roundedIn(base, o)
// whatever E is — or roundedIn says it cannot tell (o halfway between two multiples of the ulp), and then
// E's last bit does decide.
import { describe, expect, it } from 'vitest';
import { binadeBase, roundedIn } from '../../src/scheduler/heuristics/host-bound-pool.js';
import { Rng } from '../../src/util/rng.js';

describe('host-bound pool rounding', () => {
  it('binadeBase is the largest power of two not above x', () => {
    for (const [x, base] of [
      [1, 1],
      [1.5, 1],
      [2 ** 45 - 1, 2 ** 44],
      [2 ** 45, 2 ** 45],
      [2 ** 45 + 2 ** -7, 2 ** 45],
      [0.75, 0.5],
      [2 ** -990 * 1.5, 2 ** -990],
    ] as const)
      expect(binadeBase(x), String(x)).toBe(base);
  });

  it('fl(E + o) − E does not depend on E within a binade, except at halfway cases, which roundedIn reports', () => {
    const rng = new Rng(7);
    let halfway = 0;
    let checked = 0;
    for (let trial = 0; trial < 20_000; trial++) {
      const base = 2 ** (rng.int(60) - 10);
      const ulp = base * 2 ** -52;
      // Output times on the ulp's scale (some exactly halfway) or arbitrary.
      const o = rng.int(2) === 0 ? (rng.int(64) / 2) * ulp * rng.pick([1, 2, 4]) : rng.next() * base * 2 ** -rng.int(40);
      const r = roundedIn(base, o);
      for (let k = 0; k < 8; k++) {
        // E anywhere in the binade, its last bit 0 (k even) or 1, and E + ulp + o still in it.
        const e = base + Math.floor(rng.next() * 2 ** 20) * ulp * 2 ** 31 + k * ulp;
        if (!(e + ulp + o < 2 * base)) continue;
        const got = e + o - e;
        if (r !== undefined) expect(got, `base ${base}, o ${o}, E ${e}`).toBe(r);
        // Halfway: E and E + ulp, whose last bits differ, round o differently.
        else expect(got, `base ${base}, o ${o}, E ${e}`).not.toBe(e + ulp + o - (e + ulp));
        checked++;
      }
      if (r === undefined) {
        halfway++;
        // Halfway: o / ulp has a fractional part of exactly one half.
        expect((o / ulp) % 1, `o ${o}`).toBe(0.5);
      }
    }
    expect(checked).toBeGreaterThan(50_000);
    expect(halfway).toBeGreaterThan(100);
  });

  it('leaving the binade breaks it: why the pool scores each Work when some E + o could reach the next power of two', () => {
    const ulp = 2 ** -52;
    const e = 2 - ulp;
    const o = 1.75 * ulp;
    // E + o rounds on the coarser grid above 2.
    expect(roundedIn(1, o)).toBe(2 * ulp);
    expect(e + o - e).toBe(ulp);
  });
});
