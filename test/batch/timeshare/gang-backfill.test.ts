// Gang scheduling with backfilling against a schedule computed by hand, under the checker, beside plain
// gang on the same jobs; and the fast path for rigid jobs agreeing with the general engine on it.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { simulateTimeshare, type TimeshareRun } from '../../../src/batch/timeshare/engine.js';
import { rigidJob, uniformJob } from '../../../src/batch/timeshare/job-structure.js';
import { getTimeshareStrategy } from '../../../src/batch/timeshare/registry.js';
import { generateWorkload } from '../../../src/batch/workload-generator.js';
import { checkedRun } from './checked-run.js';

const rigid = (id: number, tasks: number, runS: number) => uniformJob({ id, submitS: 0, tasks, iterations: 1, computeS: runS });

describe('gang with backfilling, 4 nodes, MPL 2, slice 1 s, no switch cost', () => {
  // All at t0: job 1 (4 tasks × 3 s) fills row 0; job 2 (2 × 2 s) takes row 1, columns 0–1; job 3
  // (4 × 1 s) fits no row (row 1 has 2 free columns); job 4 (2 × 2 s) would fit row 1's columns 2–3.
  const jobs = [rigid(1, 4, 3), rigid(2, 2, 2), rigid(3, 4, 1), rigid(4, 2, 2)];

  it('plain gang: job 4 waits behind job 3 (FCFS) — ends 5, 4, 6, 8', () => {
    // [0,1) row 0 job 1 (1/3)   [1,2) row 1 job 2 (1/2)   [2,3) row 0 job 1 (2/3)   [3,4) row 1: job 2 done
    // at 4; job 3 now fits row 1 (active): placed at 4, but the row switch due at 4 comes next: [4,5) row 0,
    // job 1 done at 5; job 4 goes into row 0 (now empty) at 5, the switch due at 5 gives row 1: [5,6) job 3
    // done at 6; row 1 empty → row 0: [6,7) job 4, at 7 the only row keeps the CPUs: done at 8.
    const r = checkedRun(jobs, 4, 'gang', { mpl: 2, slice: 1, 'context-switch': 0 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 5, 2: 4, 3: 6, 4: 8 });
    expect(r.summary.meanResponseS).toBe(5.75);
  });

  it('backfilling: job 4 starts at 0 in row 1 beside job 2 — ends 5, 4, 6, 4', () => {
    // t0: job 3 fits no row; job 4 backfills row 1, columns 2–3. [0,1) row 0 job 1; [1,2) row 1 jobs 2 and
    // 4 (1/2 each); [2,3) row 0; [3,4) row 1: jobs 2 and 4 both done at 4. Job 2's tasks (nodes 0, 1) end
    // first: job 3 still does not fit (job 4 holds columns 2–3); then job 4's: job 3 goes into row 1 at 4,
    // the switch at 4 gives row 0: [4,5) job 1 done at 5; row 0 empty → row 1: [5,6) job 3 done at 6.
    // Job 4 gains 4 s; no other job loses anything. Mean response (5 + 4 + 6 + 4) / 4 = 4.75.
    const r = checkedRun(jobs, 4, 'gang-backfill', { mpl: 2, slice: 1, 'context-switch': 0 });
    expect(r.violations).toEqual([]);
    expect(r.ends).toEqual({ 1: 5, 2: 4, 3: 6, 4: 4 });
    expect(r.run.jobs.map((j) => [j.id, j.startS])).toEqual([[1, 0], [2, 0], [4, 0], [3, 4]]);
    expect(r.summary.meanResponseS).toBe(4.75);
    // Nothing idles in [0,6): every node computes job 1's 3 s, job 2's or job 4's 2 s and job 3's 1 s.
    for (const p of r.summary.perNode) expect(p).toEqual({ computeS: 6, spinS: 0, switchS: 0, interruptS: 0, idleS: 0 });
  });

  it('depth 1 looks only at the job right behind the head', () => {
    // All at t0: job 1 (4 × 3 s) row 0; job 2 (2 × 2 s) row 1, columns 0–1; jobs 3 and 4 (4 × 1 s each)
    // fit no row; job 5 (2 × 2 s) fits row 1's columns 2–3 but sits two places behind the head (job 3).
    const jobs5 = [rigid(1, 4, 3), rigid(2, 2, 2), rigid(3, 4, 1), rigid(4, 4, 1), rigid(5, 2, 2)];
    // Depth 64: job 5 backfills at 0 and runs beside job 2 ([1,2) and [3,4)): both done at 4; job 3 then
    // takes row 1 at 4 (job 4 fits nowhere); [4,5) row 0, job 1 done at 5; job 4 into row 0 at 5; [5,6)
    // row 1, job 3 done at 6; row 1 empty → row 0: [6,7) job 4 done at 7.
    const deep = checkedRun(jobs5, 4, 'gang-backfill', { mpl: 2, slice: 1, 'context-switch': 0 });
    expect(deep.violations).toEqual([]);
    expect(deep.ends).toEqual({ 1: 5, 2: 4, 3: 6, 4: 7, 5: 4 });
    // Depth 1: job 5 is never looked at while job 3 is the head, so it waits its turn: job 2 done at 4,
    // job 3 into row 1 at 4; [4,5) row 0, job 1 done at 5, job 4 into row 0 at 5 (job 5, now the head,
    // fits no row); [5,6) row 1, job 3 done at 6, job 5 into row 1 at 6 (the active row), then the switch
    // due at 6: [6,7) row 0, job 4 done at 7; row 0 empty → row 1 alone keeps the CPUs: job 5 done at 9.
    const shallow = checkedRun(jobs5, 4, 'gang-backfill', { mpl: 2, slice: 1, 'context-switch': 0, depth: 1 });
    expect(shallow.violations).toEqual([]);
    expect(shallow.ends).toEqual({ 1: 5, 2: 4, 3: 6, 4: 7, 5: 9 });
  });
});

describe('gang with backfilling of rigid jobs: the fast path gives the general engine\'s results', () => {
  it('on 2,000 Seth-like jobs, MPL 3, slice 60 s', () => {
    const jobs = [...generateWorkload({ jobs: 2000, nodes: 120, coresPerNode: 4, load: 0.85, maxJobCores: 128 }, 5)].map(rigidJob);
    const config = getTimeshareStrategy('gang-backfill').configure({ mpl: 3, slice: 60, 'context-switch': 0 });
    const digest = (run: TimeshareRun) => createHash('sha256').update(JSON.stringify([run.jobs, run.profiles, run.idleSlotWhileWaitingS])).digest('hex');
    const fast = simulateTimeshare(jobs, 480, config);
    const slow = simulateTimeshare(jobs, 480, config, undefined, { rigidFastPath: false });
    expect(fast.events).toBeLessThan(slow.events);
    expect(digest(fast)).toBe(digest(slow));
    // Backfilling changes the schedule: some job starts before one submitted earlier.
    const order = fast.jobs.map((j) => j.id);
    expect(order.some((id, i) => i > 0 && id < order[i - 1]!)).toBe(true);
  });
});
