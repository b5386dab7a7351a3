// The stall guard: a run that passes the event limit, or goes too many events without any task changing
// phase, ends with a StallError that says where it stood, in both the general engine and the rigid-job
// gang fast path; a normal run is not disturbed.
import { describe, expect, it } from 'vitest';
import { simulateTimeshare } from '../../../src/batch/timeshare/engine.js';
import { uniformJob } from '../../../src/batch/timeshare/job-structure.js';
import { getTimeshareStrategy } from '../../../src/batch/timeshare/registry.js';
import { rigidGangApplies } from '../../../src/batch/timeshare/rigid-gang.js';
import { StallError, StallGuard } from '../../../src/batch/timeshare/stall-guard.js';

// One job of two tasks, 100 s of compute, alone under gang with 10 ms slices: the only row keeps the CPUs
// and every slice is one row-switch event, 10,000 of them before the compute phase ends.
const long = [uniformJob({ id: 1, submitS: 0, tasks: 2, iterations: 1, computeS: 100 })];

describe('stall guard', () => {
  it('ends a run at the event limit, saying so and what is still running', () => {
    const config = getTimeshareStrategy('local').configure({ slice: 0.01 });
    const jobs = [...long, uniformJob({ id: 2, submitS: 0, tasks: 2, iterations: 1, computeS: 100 })];
    expect(() => simulateTimeshare(jobs, 2, config, undefined, { maxEvents: 50 })).toThrow(StallError);
    expect(() => simulateTimeshare(jobs, 2, config, undefined, { maxEvents: 50 })).toThrow(/after 50 events \(the event limit, maxEvents\); 2 jobs running, 0 waiting/);
  });

  it('ends a run that goes too many events without a task changing phase (general engine and fast path)', () => {
    // With a switch cost the general engine runs it; without, the per-job fast path (slices of 2^-7 s:
    // exact in binary, as the fast path requires). Thousands of row switches pass before the phase ends:
    // a limit of 1,000 stops both after 1,000 events without progress (the admission at 0 was the last).
    for (const [cs, slice, fast] of [[0.001, 0.01, false], [0, 2 ** -7, true]] as const) {
      const config = getTimeshareStrategy('gang').configure({ mpl: 2, slice, 'context-switch': cs });
      expect(rigidGangApplies(long, config)).toBe(fast);
      expect(() => simulateTimeshare(long, 2, config, undefined, { maxEventsWithoutProgress: 1000 })).toThrow(/stalled at \d+(\.\d+)? s: 1000 events in a row without any task changing phase.*1 jobs running, 0 waiting/);
    }
  });

  it('leaves a normal run alone: the same job ends at 100 s (plus one switch) under the defaults', () => {
    const gang = getTimeshareStrategy('gang');
    expect(simulateTimeshare(long, 2, gang.configure({ mpl: 2, slice: 2 ** -7, 'context-switch': 0 })).jobs[0]!.endS).toBe(100);
    // The switch is paid once: the only row keeps the CPUs, no further switches.
    expect(simulateTimeshare(long, 2, gang.configure({ mpl: 2, slice: 0.01, 'context-switch': 0.001 })).jobs[0]!.endS).toBeCloseTo(100.001, 9);
  });

  it('rejects limits below 1', () => {
    expect(() => new StallGuard({ maxEvents: 0 })).toThrow(/maxEvents must be >= 1, got 0/);
    expect(() => new StallGuard({ maxEventsWithoutProgress: Number.NaN })).toThrow(/maxEventsWithoutProgress must be >= 1/);
  });
});
