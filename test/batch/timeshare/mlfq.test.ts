// The multilevel feedback queue as a node's CPU scheduler (node-scheduler.ts) against schedules computed
// by hand, beside round robin on the same jobs, under the checker. One node, MPL 2, no switch cost; mlfq
// with 3 levels and quanta 1 s (level 2, the highest), 2 s (level 1), 3 s (level 0).
import { describe, expect, it } from 'vitest';
import { uniformJob } from '../../../src/batch/timeshare/job-structure.js';
import { getTimeshareStrategy } from '../../../src/batch/timeshare/registry.js';
import { checkedRun } from './checked-run.js';

const MLFQ = { mpl: 2, 'context-switch': 0, 'node-scheduler': 1, levels: 3, 'quantum-high': 1, 'quantum-low': 3 };
const RR = { mpl: 2, 'context-switch': 0, slice: 1 };

describe('multilevel feedback queue on one node', () => {
  // Job 1: one CPU-bound task, 10 s. Job 2: one I/O-bound task, 3 iterations of 0.5 s compute + 1 s I/O.
  const jobs = [uniformJob({ id: 1, submitS: 0, tasks: 1, iterations: 1, computeS: 10 }), uniformJob({ id: 2, submitS: 0, tasks: 1, iterations: 3, computeS: 0.5, ioS: 1 })];

  it('round robin (slice 1 s): the I/O-bound job waits its turn each time — ends 11.5 and 7.5', () => {
    // [0,1) 1; [1,1.5) 2, I/O to 2.5; [1.5,2.5) 1, its slice ends as 2's I/O does (the timer first): no
    // one is ready, fresh slice to 3.5 — 2 joins the tail; [3.5,4) 2, I/O to 5; [4,5) 1, fresh slice again
    // (2's I/O ends at 5, after the timer); [5,6) 1; [6,6.5) 2, I/O to 7.5: done at 7.5. Job 1 has had
    // 1 + 2 + 2 = 5 s by 6, and runs alone from 6.5: done at 11.5.
    const r = checkedRun(jobs, 1, 'local', RR);
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 11.5, 2: 7.5 });
  });

  it('mlfq: the I/O-bound job comes back boosted and preempts the demoted CPU-bound one — ends 11.5 and 5.5', () => {
    // t0: both at level 2, job 1 first (quantum 1). At 1 its quantum expires: level 1, behind job 2 (level
    // 2), which runs [1,1.5) and starts its I/O (to 2.5). Job 1 runs from 1.5 (level 1, quantum 2). At 2.5
    // job 2 is back from I/O, boosted to the head of level 2: it preempts job 1 (level 1), which goes to
    // the head of level 1. [2.5,3) job 2, I/O to 4; [3,4) job 1 (fresh quantum 2); at 4 job 2 preempts
    // again: [4,4.5), I/O to 5.5, where its last iteration ends: done at 5.5. Job 1: 1 + 1 + 1 = 3 s by
    // 4.5, runs alone after (at 6.5 it drops to level 0, quantum 3): done at 4.5 + 7 = 11.5.
    const r = checkedRun(jobs, 1, 'local', MLFQ);
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 11.5, 2: 5.5 });
    // No idle time: the node computes 10 + 1.5 s over the 11.5 s.
    expect(r.summary.perNode[0]).toEqual({ computeS: 11.5, spinS: 0, switchS: 0, interruptS: 0, idleS: 0 });
  });

  it('mlfq: two CPU-bound tasks — demotion gives the second quantum at level 1 (2 s): ends 4 and 6 (round robin: 5 and 6)', () => {
    // Both 3 s. t0: job 1 (level 2, quantum 1); at 1 it drops to level 1, job 2 (level 2) runs [1,2) and
    // drops to level 1 behind job 1: job 1 runs [2,4) with level 1's 2 s quantum: 3 s in all, done at 4;
    // job 2 runs [4,6): done at 6. Round robin with 1 s slices alternates: job 1 done at 5, job 2 at 6.
    const two = [uniformJob({ id: 1, submitS: 0, tasks: 1, iterations: 1, computeS: 3 }), uniformJob({ id: 2, submitS: 0, tasks: 1, iterations: 1, computeS: 3 })];
    const m = checkedRun(two, 1, 'local', MLFQ);
    expect(m.violations).toEqual([]);
    expect(m.ends).toEqual({ 1: 4, 2: 6 });
    const r = checkedRun(two, 1, 'local', RR);
    expect(r.ends).toEqual({ 1: 5, 2: 6 });
  });

  it('parameters: off by default (round robin), selectable on every dynamic strategy, quanta checked against the switch cost', () => {
    for (const name of ['local', 'spin-block', 'demand', 'boost']) {
      const s = getTimeshareStrategy(name);
      expect(s.configure().nodeScheduler).toBeUndefined();
      expect(s.configure({ 'node-scheduler': 1 }).nodeScheduler).toEqual({ levels: 60, quantumHighS: 0.02, quantumLowS: 0.2 });
      expect(s.parameters.find((p) => p.name === 'node-scheduler')!.choices).toEqual(['rr', 'mlfq']);
    }
    expect(() => getTimeshareStrategy('local').configure({ 'node-scheduler': 1, 'quantum-high': 0.001, 'context-switch': 0.002 })).toThrow(/context-switch \(0.002 s\) must be shorter than every quantum \(the shortest is 0.001 s\)/);
    expect(() => getTimeshareStrategy('local').configure({ 'node-scheduler': 2 })).toThrow(/node-scheduler must be a whole number from 0 to 1, got 2/);
  });
});
