import { describe, expect, it } from 'vitest';
import { firstJump } from '../../src/scheduler/heuristics/first-jump.js';

describe('firstJump (appendix C, Fig. 12–13)', () => {
  it('finds the first gap above mean + one standard deviation', () => {
    // Gaps 1, 1, 10, 1: mean 3.25, sd ≈ 3.90 → threshold ≈ 7.15: the jump is the third gap.
    expect(firstJump([10, 11, 12, 22, 23])).toEqual({ clustersBefore: 3, heightS: 10 });
  });
  it('takes the earliest of two outstanding gaps', () => {
    // Gaps 20, 1, 1, 1, 1, 20: mean 7.33, sd ≈ 8.96 → threshold ≈ 16.3: the first gap.
    expect(firstJump([0, 20, 21, 22, 23, 24, 44])).toEqual({ clustersBefore: 1, heightS: 20 });
  });
  it('with two clusters, the jump is the plain sufferage', () => {
    expect(firstJump([5, 9])).toEqual({ clustersBefore: 1, heightS: 4 });
  });
  it('evenly spaced MCTs: the first gap', () => {
    expect(firstJump([1, 3, 5, 7])).toEqual({ clustersBefore: 1, heightS: 2 });
  });
  it('three clusters: no gap can stand out, so the first positive gap is the jump', () => {
    // Gaps 1, 99: mean 50, sd 49 → threshold 99, which 99 does not exceed.
    expect(firstJump([0, 1, 100])).toEqual({ clustersBefore: 1, heightS: 1 });
    // Clusters tied at the best MCT form one group.
    expect(firstJump([4, 4, 10])).toEqual({ clustersBefore: 2, heightS: 6 });
  });
  it('no jump when every MCT is equal, or with one cluster', () => {
    expect(firstJump([4, 4, 4])).toEqual({ clustersBefore: 3, heightS: 0 });
    expect(firstJump([4])).toEqual({ clustersBefore: 1, heightS: 0 });
  });
});
