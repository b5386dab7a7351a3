// The schedule checker catches what it is there to catch, fed by hand: two things at once on a node, a
// node over MPL, CPU time for a task of an inactive gang row, compute before the messages it waits for,
// and a task that ends short of its compute.
import { describe, expect, it } from 'vitest';
import { TimeshareChecker } from '../../../src/batch/timeshare/checker.js';
import { uniformJob } from '../../../src/batch/timeshare/job-structure.js';
import { Task, type JobRun } from '../../../src/batch/timeshare/task.js';

function twoTaskRun(id: number, row: number, pattern: 'none' | 'ring' = 'none'): JobRun {
  const job = uniformJob({ id, submitS: 0, tasks: 2, iterations: 2, computeS: 1, pattern });
  const run: JobRun = { job, tasks: [], startS: 0, endS: NaN, tasksLeft: 2, row };
  for (let i = 0; i < 2; i++) run.tasks.push(new Task(run, i, pattern === 'ring' ? 1 : 0));
  run.tasks.forEach((t, i) => (t.node = i));
  return run;
}

describe('the time-sharing schedule checker', () => {
  it('says nothing of a correct stretch sequence', () => {
    const c = new TimeshareChecker(2, 2, false);
    const a = twoTaskRun(1, -1).tasks[0]!;
    c.placed(a, 0);
    c.segment(0, a, 'switch', 0, 0.5);
    c.segment(0, a, 'compute', 0.5, 2.5);
    c.left(a, 2.5);
    expect(c.violations()).toEqual([]);
  });

  it('mlfq: a task running while a task of a higher level on its node is ready', () => {
    // Two tasks of different jobs on node 0: a (level 1) computes while b (level 3) is ready — reported;
    // once b is at level 1 too, or blocked, nothing is.
    const c = new TimeshareChecker(2, 2, false, false, true);
    const a = twoTaskRun(1, -1).tasks[0]!;
    const b = twoTaskRun(2, -1).tasks[0]!;
    a.level = 1;
    b.level = 3;
    c.placed(a, 0);
    c.placed(b, 0);
    c.segment(0, a, 'compute', 0, 0.5);
    b.level = 1;
    c.segment(0, a, 'compute', 0.5, 1);
    b.level = 3;
    b.state = 'blocked';
    c.segment(0, a, 'compute', 1, 1.5);
    expect(c.violations()).toEqual(['mlfq: job 1 task 0 (level 1) got CPU time (compute) on node 0 at 0 s while job 2 task 0 (level 3) was ready']);
  });

  it('overlapping or gapped stretches on one node', () => {
    const c = new TimeshareChecker(2, 2, false);
    const a = twoTaskRun(1, -1).tasks[0]!;
    c.placed(a, 0);
    c.segment(0, a, 'compute', 0, 1);
    c.segment(0, null, 'idle', 0.5, 1);
    c.segment(0, null, 'idle', 1.5, 2);
    expect(c.violations()).toEqual([
      'node 0: a idle stretch from 0.5 s does not follow the previous one ending at 1 s (two things at once, or a gap)',
      'node 0: a idle stretch from 1.5 s does not follow the previous one ending at 1 s (two things at once, or a gap)',
    ]);
  });

  it('more tasks on a node than MPL; two tasks of one job on one node', () => {
    const c = new TimeshareChecker(2, 1, false);
    const [a, b] = twoTaskRun(1, -1).tasks;
    b!.node = 0;
    c.placed(a!, 0);
    c.placed(b!, 0);
    expect(c.violations()).toEqual(['node 0 holds 2 tasks at 0 s, over MPL 1', 'job 1 task 1 placed on node 0, where another task of its job already is']);
  });

  it('gang: CPU time for a task whose row is not the active one', () => {
    const c = new TimeshareChecker(2, 2, true);
    const a = twoTaskRun(1, 0).tasks[0]!;
    c.placed(a, 0);
    c.rowActive(1);
    c.segment(0, a, 'spin', 0, 1);
    expect(c.violations()).toEqual(['gang: job 1 task 0 of row 0 got CPU time (spin) at 0 s while row 1 was active']);
  });

  it('compute in iteration 1 before iteration 0\'s message came, and a task ending short of its compute', () => {
    const c = new TimeshareChecker(2, 2, false);
    const a = twoTaskRun(1, -1, 'ring').tasks[0]!;
    c.placed(a, 0);
    c.segment(0, a, 'compute', 0, 1); // iteration 0 (1 s)
    c.segment(0, a, 'compute', 1, 1.5); // iteration 1: no message delivered yet
    c.delivered(a, 0);
    c.segment(0, a, 'compute', 1.5, 1.75);
    c.left(a, 1.75);
    expect(c.violations()).toEqual([
      'job 1 task 0 computed in iteration 1 at 1 s before all its messages of iteration 0 came',
      'job 1 task 0 ended at 1.75 s having computed 1.75 s of its 2 s',
    ]);
  });

  it('CPU time for a task not placed on that node', () => {
    const c = new TimeshareChecker(2, 2, false);
    const a = twoTaskRun(1, -1).tasks[0]!;
    c.segment(1, a, 'compute', 0, 1);
    expect(c.violations()).toEqual(['job 1 task 0 got CPU time (compute) on node 1 at 0 s but is not placed (or finished)']);
  });
});
