// A two-task job whose tasks exchange a message every iteration, sharing two nodes with a rigid job, under
// local scheduling, spin-block and gang, against schedules computed by hand (working in the comments),
// each run under the schedule checker.
//
// The scenario: 2 nodes, MPL 2, slice 0.5 s, no context-switch cost, interrupt 0.125 s, latency 0.125 s
// (0-byte messages, no DMA). Job 1: 2 tasks, ring (one peer each), 2 iterations of 0.75 s compute.
// Job 2: rigid, 2 tasks × 1.5 s. Both at t0. Each node holds one task of each (job 1 placed first, so it
// is first in each node's queue); the two nodes behave alike, so one node's schedule is worked out.
// Ties at one instant: CPU timers first, then messages and wake-ups in scheduling order.
import { describe, expect, it } from 'vitest';
import { uniformJob } from '../../../src/batch/timeshare/job-structure.js';
import { checkedRun } from './checked-run.js';

const JOBS = [
  uniformJob({ id: 1, submitS: 0, tasks: 2, iterations: 2, computeS: 0.75, pattern: 'ring', messageBytes: 0 }),
  uniformJob({ id: 2, submitS: 0, tasks: 2, iterations: 1, computeS: 1.5 }),
];
const BASE = { mpl: 2, slice: 0.5, 'context-switch': 0, interrupt: 0.125, latency: 0.125, dma: 0 };

describe('a communicating two-task job beside a rigid one', () => {
  it('local: the waiting task blocks, an interrupt wakes it; job 1 ends at 3.25, job 2 at 3.125', () => {
    // [0,.5) A .5/.75   [.5,1) B .5/1.5   [1,1.25) A done iter 0, sends (arrives 1.375), blocks.
    // [1.25,1.75) B's slice: B .125 by 1.375; the message interrupts [1.375,1.5) and A is ready at 1.5
    //   (queue tail); B .25 more: .875 at 1.75.
    // [1.75,2.25) A .5 of iter 1   [2.25,2.75) B 1.375   [2.75,3) A done iter 1, sends (arr 3.125), blocks.
    // [3,3.125) B done at 3.125. Idle until the message at 3.125: interrupt [3.125,3.25), A wakes at 3.25
    //   with all its messages of its last iteration: done at 3.25.
    // Per node: compute 3, interrupt .25, no spin, no idle.
    const r = checkedRun(JOBS, 2, 'local', BASE);
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 3.25, 2: 3.125 });
    for (const p of r.summary.perNode) expect(p).toEqual({ computeS: 3, spinS: 0, switchS: 0, interruptS: 0.25, idleS: 0 });
  });

  it('spin-block, threshold 0.0625 s (shorter than the latency): spins, blocks anyway; job 1 ends at 3.3125, job 2 at 3.375', () => {
    // [0,.5) A   [.5,1) B .5   [1,1.25) A done iter 0, sends (arr 1.375), spins [1.25,1.3125), blocks.
    // B [1.3125,1.8125): .0625 by 1.375; interrupt [1.375,1.5), A ready at 1.5; B .3125 more: .875.
    // [1.8125,2.3125) A .5   [2.3125,2.8125) B 1.375   [2.8125,3.0625) A done iter 1, sends (arr 3.1875),
    // spins [3.0625,3.125), blocks. B [3.125,…): .0625 by 3.1875, interrupt [3.1875,3.3125) — A wakes at
    // 3.3125, its last messages in: done — B's last .0625 in [3.3125,3.375): done at 3.375.
    // Per node: compute 3, spin .125, interrupt .25.
    const r = checkedRun(JOBS, 2, 'spin-block', { ...BASE, spin: 0.0625 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 3.3125, 2: 3.375 });
    for (const p of r.summary.perNode) expect(p).toEqual({ computeS: 3, spinS: 0.125, switchS: 0, interruptS: 0.25, idleS: 0 });
  });

  it('spin-block, threshold 0.25 s (longer than the latency): the message comes while spinning; job 1 ends at 3.25, job 2 at 3', () => {
    // [0,.5) A   [.5,1) B .5   [1,1.25) A done iter 0, sends (arr 1.375), spins [1.25,1.375), the message
    // comes: A computes iter 1 [1.375,1.5) .125 until its slice ends.  [1.5,2) B 1   [2,2.5) A .625
    // [2.5,3) B done at 3   [3,3.125) A done iter 1, sends (arr 3.25), spins [3.125,3.25): done at 3.25.
    // Per node: compute 3, spin .25, no interrupt, no idle.
    const r = checkedRun(JOBS, 2, 'spin-block', { ...BASE, spin: 0.25 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 3.25, 2: 3 });
    for (const p of r.summary.perNode) expect(p).toEqual({ computeS: 3, spinS: 0.25, switchS: 0, interruptS: 0, idleS: 0 });
  });

  it('gang: job 1 in row 0, job 2 in row 1; the tasks spin for each other; job 1 ends at 3.25, job 2 at 3', () => {
    // [0,.5) row 0: A .5   [.5,1) row 1: B .5   [1,1.5) row 0: A done iter 0 at 1.25, sends (arr 1.375),
    // spins [1.25,1.375), computes .125 of iter 1   [1.5,2) B 1   [2,2.5) A .625   [2.5,3) B done at 3,
    // row 1 empty → row 0 at 3: A done iter 1 at 3.125, sends (arr 3.25), spins to 3.25: done.
    // Per node: compute 3, spin .25 — the same as spin-block with a long threshold, as both nodes run
    // the same rows at the same times here.
    const r = checkedRun(JOBS, 2, 'gang', { mpl: 2, slice: 0.5, 'context-switch': 0, latency: 0.125, dma: 0 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 3.25, 2: 3 });
    for (const p of r.summary.perNode) expect(p).toEqual({ computeS: 3, spinS: 0.25, switchS: 0, interruptS: 0, idleS: 0 });
  });
});
