// The engine's internal Work order: grouped by run-time profile, the given order kept within a profile.
import { describe, expect, it } from 'vitest';
import { profileOrder, reordered, runTimeProfiles } from '../../src/scheduler/heuristics/run-time-profiles.js';
import { work } from './support/harness.js';

describe('run-time profiles', () => {
  // Profiles by first appearance: [10, 20] → 0, [30, 40] → 1, [10, 21] → 2.
  const works = [work(0, [], [], [10, 20]), work(1, [], [], [30, 40]), work(2, [], [], [10, 20]), work(3, [], [], [10, 21]), work(4, [], [], [30, 40])];

  it('gives Works with equal estimated run times one profile, numbered by first appearance', () => {
    const profiles = runTimeProfiles(works);
    expect([...profiles.profileOf]).toEqual([0, 1, 0, 2, 1]);
    expect([...profiles.firstWork]).toEqual([0, 1, 3]);
  });

  it('orders Works by profile, keeping their given order within one', () => {
    expect([...profileOrder(runTimeProfiles(works))]).toEqual([0, 2, 1, 4, 3]);
  });

  it('describes the reordered Works with the same profiles', () => {
    const given = runTimeProfiles(works);
    const order = profileOrder(given);
    const moved = reordered(given, order);
    expect([...moved.profileOf]).toEqual([0, 0, 1, 1, 2]);
    expect([...moved.firstWork]).toEqual([0, 2, 4]);
    // Same as profiling the reordered list afresh.
    const afresh = runTimeProfiles(Array.from(order, (i) => works[i]!));
    expect([...moved.profileOf]).toEqual([...afresh.profileOf]);
    expect([...moved.firstWork]).toEqual([...afresh.firstWork]);
  });
});
