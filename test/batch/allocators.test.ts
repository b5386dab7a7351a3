// Node allocation, by hand: which nodes' cores a job takes.
import { describe, expect, it } from 'vitest';
import { getAllocator } from '../../src/batch/allocators/registry.js';
import { CorePlacement } from '../../src/batch/core-placement.js';
import type { BatchJob } from '../../src/batch/job.js';
import { Rng } from '../../src/util/rng.js';

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

  it('the bag of cores starts first-fit past its full nodes and still takes the lowest free ones', () => {
    // The placement keeps a bound below which every node is full; each allocation is compared with
    // first-fit walking every node from the first, over starts and releases in random order.
    const rng = new Rng(7);
    const placement = new CorePlacement({ nodes: 12, coresPerNode: 4 }, getAllocator('first-fit'));
    const running: (readonly number[])[] = [];
    for (let step = 0; step < 2000; step++) {
      const cores = 1 + rng.int(9);
      if (cores <= placement.freeCores && (running.length === 0 || rng.int(3) > 0)) {
        const expected = getAllocator('first-fit').allocate(Int32Array.from(placement.freeByNode), cores);
        const job = { id: step, cores } as BatchJob;
        expect(placement.place(job)).toEqual(expected);
        running.push(expected);
      } else if (running.length > 0) {
        placement.release(running.splice(rng.int(running.length), 1)[0]!);
      }
    }
  });

  it('names the valid allocators for a wrong name', () => {
    expect(() => getAllocator('worst-fit')).toThrow(/expected one of: first-fit, best-fit/);
  });
});
