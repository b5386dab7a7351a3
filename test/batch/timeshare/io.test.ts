// An I/O-bound job beside a rigid one, gang against local scheduling, computed by hand (working in the
// comments) and run under the schedule checker: under gang a node idles while its row's task is in I/O;
// locally the other task takes the CPU.
//
// 2 nodes, MPL 2, slice 1 s, no switch cost. Job 1: 2 tasks, no messages, 2 iterations of 0.5 s compute
// then 1 s I/O. Job 2: rigid, 2 tasks × 2 s. Both at t0; both nodes behave alike.
import { describe, expect, it } from 'vitest';
import { uniformJob } from '../../../src/batch/timeshare/job-structure.js';
import { checkedRun } from './checked-run.js';

const JOBS = [uniformJob({ id: 1, submitS: 0, tasks: 2, iterations: 2, computeS: 0.5, ioS: 1 }), uniformJob({ id: 2, submitS: 0, tasks: 2, iterations: 1, computeS: 2 })];
const PARAMS = { mpl: 2, slice: 1, 'context-switch': 0 };

describe('an I/O-bound job', () => {
  it('gang: the node idles through its row\'s I/O; job 1 ends at 3.5, job 2 at 4', () => {
    // [0,1) row 0: A computes [0,.5), I/O [.5,1.5): idle [.5,1)   [1,2) row 1: B 1 of 2 (A's I/O ends at
    // 1.5 but its row is not active)   [2,3) row 0: A computes [2,2.5), I/O [2.5,3.5) (the last iteration
    // has its I/O too): idle [2.5,3)   [3,4) row 1: B done at 4. A ends with its I/O at 3.5.
    const r = checkedRun(JOBS, 2, 'gang', PARAMS);
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 3.5, 2: 4 });
    for (const p of r.summary.perNode) expect(p).toEqual({ computeS: 3, spinS: 0, switchS: 0, interruptS: 0, idleS: 1 });
  });

  it('local: B fills A\'s I/O; job 1 ends at 4, job 2 at 2.5', () => {
    // [0,.5) A, I/O to 1.5   [.5,1.5) B's slice (1 of 2). At 1.5 B's slice ends (CPU timers first): no
    // one is ready, B goes on with a new slice; then A's I/O ends and A queues. [1.5,2.5) B done at 2.5.
    // [2.5,3) A, I/O [3,4): idle; done at 4.
    const r = checkedRun(JOBS, 2, 'local', PARAMS);
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 4, 2: 2.5 });
    for (const p of r.summary.perNode) expect(p).toEqual({ computeS: 3, spinS: 0, switchS: 0, interruptS: 0, idleS: 1 });
    expect(r.summary.meanResponseS).toBe(3.25);
  });

  it('gang with alternate scheduling: B fills row 0\'s slot while A is in I/O; job 1 ends at 3.5, job 2 at 3', () => {
    // [0,1) row 0: A [0,.5), I/O to 1.5; the slot has nothing runnable: B (row 1, has compute) [.5,1) .5.
    // [1,2) row 1: B keeps the CPU (no switch), 1.5 by 2; A's I/O ends at 1.5, its row is not active.
    // [2,3) row 0: A [2,2.5), I/O to 3.5; B again [2.5,3): done at 3. Row 1 is empty; row 0 keeps the
    // CPUs; A's I/O ends at 3.5: done. Idle only [3,3.5).
    const r = checkedRun(JOBS, 2, 'gang', { ...PARAMS, alternate: 1 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 3.5, 2: 3 });
    for (const p of r.summary.perNode) expect(p).toEqual({ computeS: 3, spinS: 0, switchS: 0, interruptS: 0, idleS: 0.5 });
  });

  it('gang: a job ends in its I/O while the other row runs; that row then keeps the CPUs; ends at 1.5 and 4', () => {
    // Job 1: 2 tasks, 1 iteration of 0.5 s compute and 1 s I/O; job 2: rigid 2 × 3 s.
    // [0,1) row 0: A [0,.5), I/O to 1.5, idle   [1,2) row 1: B 1 of 3; A's I/O ends at 1.5: job 1 done,
    // row 0 empty. At 2 the next non-empty row is row 1 itself: B keeps the CPU [2,4), done at 4.
    // (B's end lies beyond the slice when it starts; the switch at 2 must still see it through.)
    const jobs = [uniformJob({ id: 1, submitS: 0, tasks: 2, iterations: 1, computeS: 0.5, ioS: 1 }), uniformJob({ id: 2, submitS: 0, tasks: 2, iterations: 1, computeS: 3 })];
    const r = checkedRun(jobs, 2, 'gang', PARAMS);
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 1.5, 2: 4 });
    for (const p of r.summary.perNode) expect(p).toEqual({ computeS: 3.5, spinS: 0, switchS: 0, interruptS: 0, idleS: 0.5 });
  });

  it('gang with alternate scheduling: a job admitted into another row fills an empty slot at once', () => {
    // 2 nodes, MPL 2, slice 1. Job 1: 1 task × 2 s → row 0, column 0. Job 2 at 0.5: 2 tasks, 0.5 s and
    // 2 s; row 0 has one free column, so row 1, columns 0 and 1. Node 1's slot in the active row 0 is
    // empty: job 2's task 1 starts there at 0.5 as an alternate: [.5,1) .5   [1,2) row 1: task 1 1.5;
    // on node 0 task 0 is done at 1.5 and job 1 (row 0) fills the rest as an alternate: 1.5 by 2.
    // [2,3) row 0: job 1 done at 2.5; node 1's slot still empty: task 1 done at 2.5.
    // (Admitted without a refresh, task 1 would start at 1 and end at 3.)
    const jobs = [
      uniformJob({ id: 1, submitS: 0, tasks: 1, iterations: 1, computeS: 2 }),
      { id: 2, submitS: 0.5, tasks: 2, iterations: 1, computeS: [0.5, 2], ioS: [0, 0], pattern: 'none' as const, messageBytes: 0 },
    ];
    const r = checkedRun(jobs, 2, 'gang', { ...PARAMS, alternate: 1 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 2.5, 2: 2.5 });
    expect(r.summary.perNode[0]).toEqual({ computeS: 2.5, spinS: 0, switchS: 0, interruptS: 0, idleS: 0 });
    expect(r.summary.perNode[1]).toEqual({ computeS: 2, spinS: 0, switchS: 0, interruptS: 0, idleS: 0.5 });
  });
});
