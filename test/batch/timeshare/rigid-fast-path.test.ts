// The per-job gang simulation of rigid jobs (rigid-gang.ts) against the general per-node engine: the same
// job starts and ends, node profiles and capacity loss, bit for bit, on Seth-like traces and on workloads
// made to tie (many equal jobs submitted together, zero-work jobs); and the hand-computed schedule of
// gang-rigid.test.ts through the fast path itself.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { simulateTimeshare, type TimeshareRun } from '../../../src/batch/timeshare/engine.js';
import { rigidJob, uniformJob, type ParallelJob } from '../../../src/batch/timeshare/job-structure.js';
import { rigidGangApplies } from '../../../src/batch/timeshare/rigid-gang.js';
import { getTimeshareStrategy } from '../../../src/batch/timeshare/registry.js';
import { generateWorkload } from '../../../src/batch/workload-generator.js';
import { Rng } from '../../../src/util/rng.js';

function digest(run: TimeshareRun): string {
  const h = createHash('sha256');
  for (const j of run.jobs) h.update(`${j.id} ${j.startS} ${j.endS}\n`);
  for (const p of run.profiles) h.update(`${p.computeS} ${p.spinS} ${p.switchS} ${p.interruptS} ${p.idleS}\n`);
  h.update(`${run.makespanS} ${run.idleSlotWhileWaitingS}`);
  return h.digest('hex');
}

function both(jobs: readonly ParallelJob[], nodes: number, params: Record<string, number>): { fast: TimeshareRun; slow: TimeshareRun } {
  const config = getTimeshareStrategy('gang').configure({ 'context-switch': 0, ...params });
  expect(rigidGangApplies(jobs, config)).toBe(true);
  const fast = simulateTimeshare(jobs, nodes, config);
  const slow = simulateTimeshare(jobs, nodes, config, undefined, { rigidFastPath: false });
  // The fast path really ran: it needs far fewer events (one timer per job rather than per task).
  expect(fast.events).toBeLessThan(slow.events);
  return { fast, slow };
}

describe('gang scheduling of rigid jobs: the per-job fast path gives the per-node engine\'s results', () => {
  it('on 2,000 Seth-like jobs (480 single-CPU nodes), MPL 2, 3 and 4, slices of 60 s and 10 min', () => {
    const spec = { jobs: 2000, nodes: 120, coresPerNode: 4, load: 0.85, maxJobCores: 128 };
    const jobs = [...generateWorkload(spec, 3)].map(rigidJob);
    for (const mpl of [2, 3, 4])
      for (const slice of [60, 600]) {
        const { fast, slow } = both(jobs, 480, { mpl, slice });
        expect(digest(fast), `MPL ${mpl}, slice ${slice}`).toBe(digest(slow));
      }
  });

  it('on workloads full of ties: equal jobs submitted together, zero-work jobs, ends on slice boundaries', () => {
    // Whole seconds everywhere, so that ends often coincide with each other and with row switches; the
    // order in which same-instant ends free their cells then decides where waiting jobs go.
    for (let seed = 1; seed <= 12; seed++) {
      const rng = new Rng(seed);
      const jobs: ParallelJob[] = [];
      let t = 0;
      for (let id = 1; id <= 300; id++) {
        if (rng.next() < 0.3) t += rng.int(4);
        jobs.push(uniformJob({ id, submitS: t, tasks: 1 + rng.int(8), iterations: 1, computeS: rng.next() < 0.1 ? 0 : 1 + rng.int(6) }));
      }
      for (const mpl of [1, 2, 3]) {
        const { fast, slow } = both(jobs, 8, { mpl, slice: 2 });
        expect(digest(fast), `seed ${seed}, MPL ${mpl}`).toBe(digest(slow));
      }
    }
  });

  it('reproduces the hand-computed schedule: MPL 3, three jobs on 4 nodes, no switch cost', () => {
    // As in gang-rigid.test.ts: job 3 ends at 2, job 1 at 3, job 2 at 5; node 3 computes 3 s, idles 2.
    const jobs = [uniformJob({ id: 1, submitS: 0, tasks: 4, iterations: 1, computeS: 2 }), uniformJob({ id: 2, submitS: 0, tasks: 2, iterations: 1, computeS: 3 }), uniformJob({ id: 3, submitS: 0, tasks: 2, iterations: 1, computeS: 1 })];
    const { fast } = both(jobs, 4, { mpl: 3, slice: 1 });
    expect(Object.fromEntries(fast.jobs.map((j) => [j.id, j.endS]))).toEqual({ 1: 3, 2: 5, 3: 2 });
    expect(fast.profiles[3]).toEqual({ computeS: 3, spinS: 0, switchS: 0, interruptS: 0, idleS: 2 });
  });

  it('is not used where it would not be exact: switch cost, alternate scheduling, structured jobs, times off the 2^-10 s grid', () => {
    const rigid = [uniformJob({ id: 1, submitS: 0, tasks: 2, iterations: 1, computeS: 1 })];
    const gang = getTimeshareStrategy('gang');
    expect(rigidGangApplies(rigid, gang.configure({ 'context-switch': 0, slice: 1 }))).toBe(true);
    expect(rigidGangApplies(rigid, gang.configure({ 'context-switch': 0.01, slice: 1 }))).toBe(false);
    expect(rigidGangApplies(rigid, gang.configure({ 'context-switch': 0, alternate: 1, slice: 1 }))).toBe(false);
    expect(rigidGangApplies([uniformJob({ id: 1, submitS: 0, tasks: 2, iterations: 2, computeS: 1, pattern: 'ring' })], gang.configure({ 'context-switch': 0, slice: 1 }))).toBe(false);
    expect(rigidGangApplies(rigid, getTimeshareStrategy('local').configure({ 'context-switch': 0 }))).toBe(false);
    // Fractional times: the general engine subtracts elapsed time in other pieces, so the two would differ
    // by rounding (about 1e-13 s); such workloads go to the general engine.
    expect(rigidGangApplies(rigid, gang.configure({ 'context-switch': 0, slice: 0.1 }))).toBe(false);
    expect(rigidGangApplies([uniformJob({ id: 1, submitS: 0.3, tasks: 2, iterations: 1, computeS: 1 })], gang.configure({ 'context-switch': 0, slice: 1 }))).toBe(false);
    expect(rigidGangApplies([uniformJob({ id: 1, submitS: 0, tasks: 2, iterations: 1, computeS: 1.1 })], gang.configure({ 'context-switch': 0, slice: 1 }))).toBe(false);
    expect(rigidGangApplies([uniformJob({ id: 1, submitS: 0.25, tasks: 2, iterations: 1, computeS: 1.5 })], gang.configure({ 'context-switch': 0, slice: 0.125 }))).toBe(true);
  });
});
