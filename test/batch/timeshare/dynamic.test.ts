// Demand-based coscheduling and periodic boost against local scheduling on one scenario computed by hand
// (working in the comments), each run under the schedule checker.
//
// 2 nodes, MPL 2, slice 0.5 s, no context-switch cost, interrupt 0.125 s, latency 0.125 s. Job 1: 2 tasks,
// ring, 2 iterations; task 0 computes 0.25 s per iteration, task 1 0.75 s. Job 2: rigid, 1 task × 1.5 s,
// placed on node 0 (both nodes hold one task: the lower index). So A0 (job 1's task 0) shares node 0 with
// B and waits for A1, which runs alone on node 1.
// Ties at one instant: CPU timers first, then the rest in scheduling order.
import { describe, expect, it } from 'vitest';
import type { ParallelJob } from '../../../src/batch/timeshare/job-structure.js';
import { uniformJob } from '../../../src/batch/timeshare/job-structure.js';
import { checkedRun } from './checked-run.js';

const JOBS: ParallelJob[] = [
  { id: 1, submitS: 0, tasks: 2, iterations: 2, computeS: [0.25, 0.75], ioS: [0, 0], pattern: 'ring', messageBytes: 0 },
  uniformJob({ id: 2, submitS: 0, tasks: 1, iterations: 1, computeS: 1.5 }),
];
const BASE = { mpl: 2, slice: 0.5, 'context-switch': 0, interrupt: 0.125, latency: 0.125, dma: 0 };

// Node 1 in every case: A1 [0,.75) done iter 0 (A0's message came at .375), sends (arr node 0 at .875),
// computes iter 1 [.75,1.5).

describe('demand, boost and local on an uneven job', () => {
  it('local: A0 blocks twice, interrupts wake it; job 1 ends at 1.75, job 2 at 2.25', () => {
    // Node 0: A0 [0,.25) done, sends (arr .375), blocks. B [.25,.75), no one ready: a new slice [.75,1.25).
    // .875 message: interrupt [.875,1), A0 ready at 1 (tail). B .875 by 1.25. A0 [1.25,1.5) done iter 1,
    // sends (arr 1.625), blocks (A1's iter-1 message comes at 1.625). B [1.5,…): interrupt [1.625,1.75),
    // A0 wakes at 1.75: done. B done at 2.25.
    // Node 1: A1 done iter 1 at 1.5, blocks; A0's message at 1.625, interrupt to 1.75: done at 1.75.
    const r = checkedRun(JOBS, 2, 'local', BASE);
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 1.75, 2: 2.25 });
    expect(r.summary.perNode[0]).toEqual({ computeS: 2, spinS: 0, switchS: 0, interruptS: 0.25, idleS: 0 });
    expect(r.summary.perNode[1]).toEqual({ computeS: 1.5, spinS: 0, switchS: 0, interruptS: 0.125, idleS: 0.625 });
  });

  it('demand (spinning without limit): messages for the descheduled, spinning A0 preempt B; job 1 ends at 1.75, job 2 at 2.75', () => {
    // Node 0: A0 [0,.25) done, sends, spins to its slice end at .5. B [.5,1). The .875 message is for A0
    // (waiting, not running): interrupt [.875,1), A0 to be woken at 1. At 1 B's slice ends first (a CPU
    // timer): A0, at the head, gets the CPU, still spinning; the wake-up then finds its message in: A0
    // computes iter 1 [1,1.25), sends (arr node 1 1.375), spins [1.25,1.5), slice end: B [1.5,…).
    // 1.625 message (A1's iter 1): interrupt [1.625,1.75), A0 wakes at 1.75 with all it needs: done.
    // B: .375 + .125 + the last 1 s [1.75,2.75): done at 2.75. Spin .5, interrupt .25, compute 2.
    // Node 1: A0's iter-1 message came at 1.375, so A1 ends at 1.5 without waiting; idle to 2.75.
    const r = checkedRun(JOBS, 2, 'demand', { ...BASE, spin: Infinity });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 1.75, 2: 2.75 });
    expect(r.summary.perNode[0]).toEqual({ computeS: 2, spinS: 0.5, switchS: 0, interruptS: 0.25, idleS: 0 });
    expect(r.summary.perNode[1]).toEqual({ computeS: 1.5, spinS: 0, switchS: 0, interruptS: 0, idleS: 1.25 });
  });

  it('demand with spin-block (threshold 0.0625 s): the wake-up interrupt preempts B; job 1 ends at 1.75, job 2 at 2.375', () => {
    // Node 0: A0 [0,.25) done, sends, spins [.25,.3125), blocks. B [.3125,.8125), no one ready: a new
    // slice. The .875 message is for A0 (blocked): interrupt [.875,1); at 1 A0, its message in, takes the
    // head and preempts B (.5625 done), which goes right behind it. A0 [1,1.25) done iter 1, sends (arr
    // 1.375), spins [1.25,1.3125), blocks; B [1.3125,…). A1's message at 1.625: interrupt [1.625,1.75),
    // A0 wakes with all it needs: done at 1.75 (nothing to preempt for). B: .5625 + .3125 by 1.625, the
    // last .625 from 1.75: done at 2.375. Node 0: compute 2, spin .125, interrupt .25.
    // Node 1: A0's iter-1 message came at 1.375, while A1 computed: A1 ends at 1.5; idle to 2.375.
    const r = checkedRun(JOBS, 2, 'demand', { ...BASE, spin: 0.0625 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 1.75, 2: 2.375 });
    expect(r.summary.perNode[0]).toEqual({ computeS: 2, spinS: 0.125, switchS: 0, interruptS: 0.25, idleS: 0 });
    expect(r.summary.perNode[1]).toEqual({ computeS: 1.5, spinS: 0, switchS: 0, interruptS: 0, idleS: 0.875 });
  });

  it('boost, period 0.25 s: a spinning A0 gives way to B at every boost; job 1 ends at 1.625, job 2 at 2', () => {
    // Node 0 (boosts at .25, .5, .75, …; at one instant after the CPU timers):
    // A0 [0,.25) done, sends, spins; boost at .25: B has work → B [.25,.75). At .75 B's slice ends, A0
    // (spinning) gets the CPU and the boost at .75 gives it straight back to B: [.75,1.25). The .875
    // message finds A0 in the queue, spinning: it now has compute (no interrupt). [1.25,1.5) A0 done
    // iter 1, sends (arr 1.5+.125), spins; the boost at 1.5 gives the CPU to B [1.5,2): done at 2. The
    // 1.625 message ends A0's last wait in the queue: done at 1.625. Node 0: compute 2, nothing else.
    // Node 1: A1 done iter 1 at 1.5, spins [1.5,1.625) for A0's message: done at 1.625; idle to 2.
    const r = checkedRun(JOBS, 2, 'boost', { ...BASE, 'boost-period': 0.25 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 1.625, 2: 2 });
    expect(r.summary.perNode[0]).toEqual({ computeS: 2, spinS: 0, switchS: 0, interruptS: 0, idleS: 0 });
    expect(r.summary.perNode[1]).toEqual({ computeS: 1.5, spinS: 0.125, switchS: 0, interruptS: 0, idleS: 0.375 });
  });
});

describe('scheduling skewness', () => {
  // Job 1: rigid, 1 task × 1 s; job 2: 2 tasks, ring, 1 iteration of 0.25 s; both at t0, 2 nodes, MPL 2.
  // Job 1 goes to node 0; job 2's tasks to the nodes holding fewest tasks: task 0 → node 1, task 1 →
  // node 0, behind job 1. Slice 0.5, no switch or interrupt cost, latency 0.125.
  const jobs = [uniformJob({ id: 1, submitS: 0, tasks: 1, iterations: 1, computeS: 1 }), uniformJob({ id: 2, submitS: 0, tasks: 2, iterations: 1, computeS: 0.25, pattern: 'ring', messageBytes: 0 })];
  const params = { mpl: 2, slice: 0.5, 'context-switch': 0, interrupt: 0, latency: 0.125, dma: 0 };

  it('local: task 0 waits from 0.25 for task 1, scheduled at 0.5: one skewed wait of 0.25 s', () => {
    // Node 1: task 0 [0,.25), sends (arr .375), waits; task 1 still has compute and is off its CPU (job 1
    // runs on node 0): the skew starts at .25. Node 0: job 1 [0,.5), task 1 scheduled at .5 (skew .25),
    // [.5,.75) done, sends (arr .875) — its own message is in — ends. Job 1 [.75,1.25) ends at 1.25.
    // Task 0 blocked; the .875 message wakes it (interrupt cost 0): job 2 ends at .875.
    const r = checkedRun(jobs, 2, 'local', params);
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 1.25, 2: 0.875 });
    expect(r.summary.skewedWaits).toBe(1);
    expect(r.summary.schedulingSkewnessS).toBe(0.25);
  });

  it('gang: tasks of a job run together, so no wait finds its sender descheduled', () => {
    // Job 1 in row 0 (column 0); job 2 cannot fit row 0 (one free column), so row 1.
    const r = checkedRun(jobs, 2, 'gang', params);
    expect(r.violations).toEqual([]);
    expect(r.summary.skewedWaits).toBe(0);
  });
});
