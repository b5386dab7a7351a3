// Gang scheduling of rigid jobs against schedules computed by hand (working in the comments), each run
// under the schedule checker. Numbers are powers of two so that every sum is exact.
import { describe, expect, it } from 'vitest';
import { uniformJob } from '../../../src/batch/timeshare/job-structure.js';
import { checkedRun } from './checked-run.js';

const rigid = (id: number, tasks: number, runS: number, submitS = 0) => uniformJob({ id, submitS, tasks, iterations: 1, computeS: runS });

describe('gang scheduling, two rigid jobs, MPL 2, slice 1 s, 2 nodes', () => {
  // Job 1: 2 tasks × 3 s, job 2: 2 tasks × 2 s, both at t0. Job 1 takes row 0, job 2 does not fit there
  // (no free column) and takes row 1.
  const jobs = [rigid(1, 2, 3), rigid(2, 2, 2)];

  it('without context-switch cost: job 2 ends at 4, job 1 at 5', () => {
    // [0,1) row 0: job 1 has 1 of 3 s    [1,2) row 1: job 2 1 of 2    [2,3) row 0: job 1 2 of 3
    // [3,4) row 1: job 2 done at 4; row 1 is empty, so row 0 takes the CPUs at once: [4,5) job 1 done at 5.
    const r = checkedRun(jobs, 2, 'gang', { mpl: 2, slice: 1, 'context-switch': 0 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 5, 2: 4 });
    expect(r.summary.perNode[0]).toEqual({ computeS: 5, spinS: 0, switchS: 0, interruptS: 0, idleS: 0 });
    // Pace of progress: job 1 got 3 s of CPU per task in 5 s, job 2 2 s in 4 s.
    expect(r.summary.perJob.map((j) => [j.id, j.pace])).toEqual([[1, 0.6], [2, 0.5]]);
  });

  it('with a 0.25 s context switch: job 2 ends at 5.75, job 1 at 6.75', () => {
    // Every turn of a row starts with a switch (the node's first task too), taken from the slice:
    // [0,1) sw .25, job 1 .75   [1,2) sw, job 2 .75   [2,3) sw, job 1 1.5   [3,4) sw, job 2 1.5
    // [4,5) sw, job 1 2.25      [5,5.75) sw, job 2 needs .5: done at 5.75; row 1 empty → row 0 now:
    // [5.75,6) sw, job 1 needs .75: done at 6.75. Seven switches per node: 1.75 s; compute 5 s.
    const r = checkedRun(jobs, 2, 'gang', { mpl: 2, slice: 1, 'context-switch': 0.25 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 6.75, 2: 5.75 });
    expect(r.summary.perNode[1]).toEqual({ computeS: 5, spinS: 0, switchS: 1.75, interruptS: 0, idleS: 0 });
    expect(r.summary.lossOfCpu).toBeCloseTo(1.75 / 6.75, 12);
  });
});

describe('gang scheduling, three and four rigid jobs on 4 nodes, slice 1 s', () => {
  // Job 1: 4 tasks × 2 s; job 2: 2 tasks × 3 s; job 3: 2 tasks × 1 s; all at t0.
  // Job 1 fills row 0; job 2 takes row 1, columns 0–1; job 3 fits in row 1 too (columns 2–3): the first
  // row with enough free columns, so row 2 stays empty and is skipped.
  const three = [rigid(1, 4, 2), rigid(2, 2, 3), rigid(3, 2, 1)];

  it('MPL 3, no switch cost: job 3 ends at 2, job 1 at 3, job 2 at 5', () => {
    // [0,1) row 0: job 1 1 of 2   [1,2) row 1: job 2 1 of 3, job 3 done at 2   [2,3) row 0: job 1 done at 3,
    // row 0 empty → row 1 at 3: [3,4) job 2 2 of 3; at 4 the next non-empty row is row 1 itself: it keeps
    // the CPUs, [4,5) job 2 done at 5. Nodes 2 and 3 idle from 3 to 5.
    const r = checkedRun(three, 4, 'gang', { mpl: 3, slice: 1, 'context-switch': 0 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 3, 2: 5, 3: 2 });
    expect(r.summary.perNode[3]).toEqual({ computeS: 3, spinS: 0, switchS: 0, interruptS: 0, idleS: 2 });
    expect(r.summary.perNode[0]!.idleS).toBe(0);
  });

  it('MPL 3 with a 0.25 s switch: job 3 ends at 3.5, job 1 at 4.75, job 2 at 6.5', () => {
    // [0,1) row 0: sw .25, job 1 .75 of 2     [1,2) row 1: sw, job 2 .75 of 3, job 3 .75 of 1
    // [2,3) row 0: sw, job 1 1.5              [3,4) row 1: sw, job 3 needs .25: done at 3.5; job 2 1.5
    // [4,5) row 0: sw, job 1 needs .5: done at 4.75; row 0 empty → row 1 at once: sw [4.75,5), job 2
    // needs 1.5: done at 6.5 (at 5.75 row 1 is the only row left: it keeps the CPUs, no switch).
    const r = checkedRun(three, 4, 'gang', { mpl: 3, slice: 1, 'context-switch': 0.25 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 4.75, 2: 6.5, 3: 3.5 });
  });

  it('MPL 2 with a fourth 4-task job: it waits for job 1 (FCFS), takes row 0 at 3 and ends at 5', () => {
    // Job 4: 4 tasks × 1 s at t0; rows 0 and 1 are full (row 1 has no free column) and there is no row 2:
    // it waits. [0,1) row 0 job 1   [1,2) row 1 job 2 (1 of 3), job 3 done at 2   [2,3) row 0 job 1 done
    // at 3: job 4 is admitted into row 0 (active, so it could run now), then the row switch due at 3 goes
    // to row 1 (at one instant, row switches come last): [3,4) job 2 2 of 3   [4,5) row 0 job 4 done at 5,
    // row 0 empty → row 1 at 5: [5,6) job 2 done at 6.
    const r = checkedRun([...three, rigid(4, 4, 1)], 4, 'gang', { mpl: 2, slice: 1, 'context-switch': 0 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 3, 2: 6, 3: 2, 4: 5 });
    expect(r.run.jobs.find((j) => j.id === 4)!.startS).toBe(3);
    expect(r.summary.perJob.find((j) => j.id === 4)).toEqual({ id: 4, responseS: 5, executionS: 2, waitS: 3, pace: 0.5 });
    // Loss of capacity: job 4 waits [0,3). 8 slots; jobs 1–3 hold all 8 until job 3 ends at 2, then 2 are
    // free until 3: 2 slot-seconds, over makespan 6 × 4 nodes = 1/12.
    expect(r.summary.lossOfCapacity).toBeCloseTo(2 / 24, 12);
  });
});
