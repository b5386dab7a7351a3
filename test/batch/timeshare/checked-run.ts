// Runs a time-sharing simulation under the schedule checker and returns what the hand-computed tests compare.
import { simulateTimeshare, type TimeshareRun } from '../../../src/batch/timeshare/engine.js';
import { TimeshareChecker } from '../../../src/batch/timeshare/checker.js';
import type { ParallelJob } from '../../../src/batch/timeshare/job-structure.js';
import { summarizeTimeshare, type TimeshareSummary } from '../../../src/batch/timeshare/metrics.js';
import { getTimeshareStrategy } from '../../../src/batch/timeshare/registry.js';

export interface CheckedRun {
  run: TimeshareRun;
  summary: TimeshareSummary;
  /** Job id → end time. */
  ends: Record<number, number>;
  violations: string[];
}

export function checkedRun(jobs: readonly ParallelJob[], nodes: number, strategy: string, params: Record<string, number>): CheckedRun {
  const config = getTimeshareStrategy(strategy).configure(params);
  const checker = new TimeshareChecker(nodes, config.mpl, config.mode === 'gang', config.alternate, config.nodeScheduler !== undefined);
  const run = simulateTimeshare(jobs, nodes, config, checker);
  const violations = checker.finish(run);
  const ends: Record<number, number> = {};
  for (const j of run.jobs) ends[j.id] = j.endS;
  return { run, summary: summarizeTimeshare(run), ends, violations };
}
