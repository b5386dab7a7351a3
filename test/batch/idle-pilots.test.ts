// The give-up rule for idle pilots (src/batch/submission.ts), shared by simulated batch clusters and real
// Slurm pilots: after max(4, 2 × pilots kept at once) jobs in a row end with no Work computed on them, the
// cluster gets no more jobs, for good; a job on which a Work was computed starts the count again.
import { describe, expect, it } from 'vitest';
import { IDLE_PILOTS_LIMIT, IdlePilots, idlePilotsLimit } from '../../src/batch/submission.js';

describe('the idle-pilot give-up rule', () => {
  it('the limit is 4, or twice the jobs kept at once when that is more', () => {
    expect(IDLE_PILOTS_LIMIT).toBe(4);
    // 1 and 2 at once: max(4, 2) and max(4, 4) = 4; 3 at once: max(4, 6) = 6; 10: 20.
    expect([1, 2, 3, 10].map(idlePilotsLimit)).toEqual([4, 4, 6, 20]);
  });

  it('gives up at the 4th idle job in a row, once, and stays given up', () => {
    const rule = new IdlePilots(1);
    // idle, idle, idle: 3 in a row, under the limit of 4
    expect([rule.ended(false), rule.ended(false), rule.ended(false)]).toEqual([false, false, false]);
    expect(rule.givenUp).toBe(false);
    expect(rule.ended(false)).toBe(true); // the 4th
    expect(rule.givenUp).toBe(true);
    expect(rule.idleInARow).toBe(4);
    // said once; a job that computes a Work afterwards does not bring the cluster back
    expect(rule.ended(false)).toBe(false);
    expect(rule.ended(true)).toBe(false);
    expect(rule.givenUp).toBe(true);
  });

  it('a job on which a Work was computed starts the count again', () => {
    const rule = new IdlePilots(2);
    // 3 idle, 1 useful, then 3 idle: never 4 in a row
    for (const used of [false, false, false, true, false, false, false]) expect(rule.ended(used)).toBe(false);
    expect(rule.idleInARow).toBe(3);
    expect(rule.givenUp).toBe(false);
    expect(rule.ended(false)).toBe(true);
  });

  it('with 3 jobs at once it takes 6 idle ones in a row', () => {
    const rule = new IdlePilots(3);
    const ends = Array.from({ length: 6 }, () => rule.ended(false));
    expect(ends).toEqual([false, false, false, false, false, true]);
  });
});
