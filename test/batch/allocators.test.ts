// Node allocation, by hand: which nodes' cores a job takes.
import { describe, expect, it } from 'vitest';
import { getAllocator } from '../../src/batch/allocators/registry.js';

describe('allocators', () => {
  it('first-fit fills the lowest-numbered nodes first', () => {
    const free = Int32Array.from([1, 4, 2, 4]);
    expect(getAllocator('first-fit').allocate(free, 3)).toEqual([0, 1, 1, 2]);
    expect([...free]).toEqual([0, 2, 2, 4]);
  });

  it('best-fit puts a job that fits on one node where it leaves the fewest cores free', () => {
    const free = Int32Array.from([1, 4, 2, 4]);
    expect(getAllocator('best-fit').allocate(free, 2)).toEqual([2, 2]);
    expect(getAllocator('best-fit').allocate(free, 4)).toEqual([1, 4]);
    expect([...free]).toEqual([1, 0, 0, 4]);
  });

  it('best-fit spreads a job larger than any node over the emptiest nodes', () => {
    const free = Int32Array.from([3, 1, 4, 2]);
    expect(getAllocator('best-fit').allocate(free, 6)).toEqual([0, 2, 2, 4]);
    expect([...free]).toEqual([1, 1, 0, 2]);
  });

  it('names the valid allocators for a wrong name', () => {
    expect(() => getAllocator('worst-fit')).toThrow(/expected one of: first-fit, best-fit/);
  });
});
