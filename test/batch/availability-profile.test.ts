// The availability profile that conservative backfilling keeps between dispatches, against a brute-force
// model: the free cores at any instant are the cluster's minus every hold covering it, recomputed from the
// list of holds at each check. Seeded random operations (reservations, early returns, moves to an earlier
// start, the clock moving on) must leave the same steps — merged, so the representation is unique — and give
// the same earliest fits. The operations are many enough that the profile's arrays shift on both sides,
// recentre and grow.
import { describe, expect, it } from 'vitest';
import { AvailabilityProfile } from '../../src/batch/policies/availability-profile.js';
import { Rng } from '../../src/util/rng.js';

interface Hold {
  fromS: number;
  toS: number;
  cores: number;
}

class BruteProfile {
  readonly holds: Hold[] = [];

  constructor(
    public nowS: number,
    private readonly totalCores: number,
  ) {}

  freeAt(tS: number): number {
    let free = this.totalCores;
    for (const h of this.holds) if (h.fromS <= tS && tS < h.toS) free -= h.cores;
    return free;
  }

  /** now and every hold's edge after it, ascending: the only instants where the free cores change. */
  private edges(): number[] {
    const set = new Set<number>([this.nowS]);
    for (const h of this.holds) for (const t of [h.fromS, h.toS]) if (t > this.nowS) set.add(t);
    return [...set].sort((a, b) => a - b);
  }

  /** The steps from now on, equal neighbours merged. */
  steps(): [number, number][] {
    const out: [number, number][] = [];
    for (const t of this.edges()) {
      const f = this.freeAt(t);
      if (out.length === 0 || out[out.length - 1]![1] !== f) out.push([t, f]);
    }
    return out;
  }

  /** Whether `cores` are free throughout [tS, tS + durationS), `extra` more counted free on [extraFromS, extraToS). */
  private fits(tS: number, durationS: number, cores: number, extra = 0, extraFromS = 0, extraToS = 0): boolean {
    const at = (x: number): number => this.freeAt(x) + (extraFromS <= x && x < extraToS ? extra : 0);
    if (at(tS) < cores) return false;
    for (const e of this.edges()) if (e > tS && e < tS + durationS && at(e) < cores) return false;
    return true;
  }

  earliestFit(cores: number, durationS: number): number {
    for (const t of this.edges()) if (this.fits(t, durationS, cores)) return t;
    throw new Error('no fit');
  }

  earliestFitBefore(cores: number, durationS: number, heldS: number): number {
    for (const t of this.edges()) {
      if (t >= heldS) break;
      if (this.fits(t, durationS, cores, cores, heldS, heldS + durationS)) return t;
    }
    return heldS;
  }

  mostFree(fromS: number, toS: number): number {
    let most = this.freeAt(fromS);
    for (const e of this.edges()) if (e > fromS && e < toS) most = Math.max(most, this.freeAt(e));
    return most;
  }
}

function stepsOf(p: AvailabilityProfile): [number, number][] {
  const out: [number, number][] = [];
  p.forEachStepBefore(Infinity, (startS, freeCores) => out.push([startS, freeCores]));
  return out;
}

/**
 * One seeded run of `operations` random operations on a 64-core cluster, checking after each one. Times
 * are whole seconds, so every sum is exact and the two models can be compared with ===.
 */
function run(seed: number, operations: number): void {
  const rng = new Rng(seed);
  const totalCores = 64;
  const p = new AvailabilityProfile(0, totalCores);
  const b = new BruteProfile(0, totalCores);
  // Reservations made with reserve() that may still be moved or returned: [fromS, toS) and cores.
  const held: Hold[] = [];
  for (let op = 0; op < operations; op++) {
    const kind = rng.int(9);
    if (kind < 4) {
      // A new reservation at the earliest fit, as an arriving job takes.
      const cores = 1 + rng.int(24);
      const durationS = 1 + rng.int(500);
      const startS = p.earliestFit(cores, durationS);
      expect(startS).toBe(b.earliestFit(cores, durationS));
      p.reserve(startS, durationS, cores);
      const h = { fromS: startS, toS: startS + durationS, cores };
      b.holds.push(h);
      held.push(h);
    } else if (kind < 6 && held.length > 0) {
      // A job moving to its earliest start before its reservation (often none: it stays).
      const h = held[rng.int(held.length)]!;
      if (h.fromS <= b.nowS) continue;
      const durationS = h.toS - h.fromS;
      const startS = p.earliestFitBefore(h.cores, durationS, h.fromS);
      expect(startS).toBe(b.earliestFitBefore(h.cores, durationS, h.fromS));
      if (startS < h.fromS) {
        const partFromS = Math.max(h.fromS, startS + durationS);
        const partToS = h.toS;
        const most = p.move(h.fromS, startS, durationS, h.cores);
        h.fromS = startS;
        h.toS = startS + durationS;
        // move() promises at least the most cores free in the part of the old slot it gave back.
        expect(most).toBeGreaterThanOrEqual(b.mostFree(partFromS, partToS));
      }
    } else if (kind < 7 && held.length > 0) {
      // A running job ending early: its cores come back from now until its limit.
      const at = rng.int(held.length);
      const h = held[at]!;
      if (h.fromS > b.nowS || h.toS <= b.nowS) continue;
      p.give(b.nowS, h.toS, h.cores);
      h.toS = b.nowS;
      held.splice(at, 1);
    } else {
      // The clock moves on by a little (often to no edge) or to the next edge.
      const nowS = b.nowS + (rng.int(2) === 0 ? rng.int(30) : Math.max(0, (stepsOf(p)[1]?.[0] ?? b.nowS) - b.nowS));
      p.advanceTo(nowS);
      b.nowS = nowS;
      for (let k = held.length - 1; k >= 0; k--) if (held[k]!.toS <= nowS) held.splice(k, 1);
      for (let k = b.holds.length - 1; k >= 0; k--) if (b.holds[k]!.toS <= nowS) b.holds.splice(k, 1);
    }
    expect(stepsOf(p)).toEqual(b.steps());
    expect(p.steps).toBe(b.steps().length);
  }
}

describe('availability profile', () => {
  it('keeps the same steps and earliest fits as a brute-force model over random operations', () => {
    for (const seed of [1, 2, 3, 4]) run(seed, 1000);
  });

  it('grows and recentres its arrays when many steps are held', () => {
    // 300 one-core reservations back to back, each one second long at a different level: 300 steps, more
    // than the 64 slots it starts with; then the clock moves through them, dropping the past.
    const p = new AvailabilityProfile(0, 400);
    const b = new BruteProfile(0, 400);
    for (let k = 0; k < 300; k++) {
      p.reserve(k, 300 - k, 1);
      b.holds.push({ fromS: k, toS: 300, cores: 1 });
    }
    // Free cores: 399 on [0, 1), 398 on [1, 2), …, 100 on [299, 300), 400 from 300 on: 301 steps.
    expect(p.steps).toBe(301);
    expect(stepsOf(p)).toEqual(b.steps());
    for (let nowS = 0; nowS <= 301; nowS += 7) {
      p.advanceTo(nowS);
      b.nowS = nowS;
      expect(stepsOf(p)).toEqual(b.steps());
    }
  });
});
