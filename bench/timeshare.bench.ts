// Time-sharing (issue 29): a generated communication-intensive workload (1,000 jobs on 64 nodes) under
// every strategy at MPL 4 and 100 ms slices (the issue's target: ≤ 30 s each), then the cost of gang and
// local scheduling against MPL (1, 2, 3, 4, 6) and slice length (0.01, 0.1, 1 s), then gang scheduling of a
// Seth-sized SWF trace (202,871 rigid jobs, 120 nodes × 4 cores, MPL 3; target ≤ 20 s). Times are user CPU
// of this process (process.cpuUsage) beside wall time: on a shared machine wall time says more about the
// neighbours than about the simulator. BENCH_QUICK=1: 200 jobs, a smaller grid, and 20,000 Seth jobs with
// the whole trace extrapolated linearly. SETH_JOBS=N and SETH_REPEATS=R override the Seth part.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { rigidJob, type ParallelJob } from '../src/batch/timeshare/job-structure.js';
import { simulateTimeshare, type TimeshareRun } from '../src/batch/timeshare/engine.js';
import { summarizeTimeshare } from '../src/batch/timeshare/metrics.js';
import { getTimeshareStrategy, listTimeshareStrategies, type SchedulerConfig } from '../src/batch/timeshare/registry.js';
import { generateStructuredWorkload } from '../src/batch/timeshare/workload-generator.js';
import { generateWorkload, type WorkloadSpec } from '../src/batch/workload-generator.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';
import { median } from './support/median.js';

const quick = process.env['BENCH_QUICK'] === '1';

function timed(jobs: readonly ParallelJob[], nodes: number, config: SchedulerConfig): { run: TimeshareRun; userS: number; wallS: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const run = simulateTimeshare(jobs, nodes, config);
  return { run, userS: process.cpuUsage(c0).user / 1e6, wallS: (performance.now() - t0) / 1000 };
}

const rate = (events: number, s: number) => Math.round(events / Math.max(s, 1e-6)).toLocaleString('en-US');

const jobs = quick ? 200 : 1000;
const workload = generateStructuredWorkload({ seed: 29, jobs, nodes: 64, mix: { comm: 1 }, load: 0.7 });
console.log(`${jobs} communication-intensive jobs, 64 nodes, MPL 4, slice 0.1 s (target: ≤ 30 s each)`);
console.log('strategy       user s   wall s    events  events/user s  messages  makespan s  mean resp s  loss of CPU');
for (const s of listTimeshareStrategies()) {
  const { run, userS, wallS } = timed(workload, 64, s.configure({ mpl: 4, slice: 0.1 }));
  const sum = summarizeTimeshare(run);
  console.log(
    `${s.name.padEnd(13)} ${userS.toFixed(2).padStart(7)} ${wallS.toFixed(2).padStart(8)} ${String(run.events).padStart(9)} ${rate(run.events, userS).padStart(14)} ${String(run.messages).padStart(9)} ${sum.makespanS.toFixed(1).padStart(11)} ${sum.meanResponseS.toFixed(2).padStart(12)} ${(100 * sum.lossOfCpu).toFixed(1).padStart(10)} %`,
  );
}

// Cost against MPL and slice length: how many events a run needs and how fast they go.
const mpls = quick ? [1, 3, 6] : [1, 2, 3, 4, 6];
const slices = [0.01, 0.1, 1];
for (const name of ['gang', 'local']) {
  console.log(`\n${name}: user s / events (events per user s) by MPL (rows) and slice (columns), ${jobs} jobs`);
  console.log(`MPL  ${slices.map((s) => `slice ${s} s`.padStart(34)).join('')}`);
  for (const mpl of mpls) {
    const cells = slices.map((slice) => {
      const { run, userS } = timed(workload, 64, getTimeshareStrategy(name).configure({ mpl, slice, 'context-switch': Math.min(0.0002, slice / 10) }));
      return `${userS.toFixed(2)} s / ${run.events} (${rate(run.events, userS)})`.padStart(34);
    });
    console.log(`${String(mpl).padStart(3)}  ${cells.join('')}`);
  }
}

// Gang scheduling of rigid SWF jobs (Seth-sized cluster: 120 nodes × 4 cores, one CPU per core, MPL 3,
// 60 s slices, no switch cost: the per-job fast path applies).
const sethSpec = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'griddescs/batch/seth-like.json'), 'utf8')) as WorkloadSpec;
const sethJobs = Number(process.env['SETH_JOBS'] ?? (quick ? 20000 : sethSpec.jobs));
const repeats = Number(process.env['SETH_REPEATS'] ?? (quick ? 1 : 3));
const rigid: ParallelJob[] = [];
for (const j of generateWorkload(sethSpec, 1)) {
  rigid.push(rigidJob(j));
  if (rigid.length >= sethJobs) break;
}
const config = getTimeshareStrategy('gang').configure({ mpl: 3, slice: 60, 'context-switch': 0 });
const users: number[] = [];
const walls: number[] = [];
let events = 0;
for (let i = 0; i < repeats; i++) {
  const { run, userS, wallS } = timed(rigid, sethSpec.nodes * sethSpec.coresPerNode, config);
  users.push(userS);
  walls.push(wallS);
  events = run.events;
}
const userS = median(users);
const wholeS = (userS * sethSpec.jobs) / rigid.length;
console.log(
  `\ngang, MPL 3, slice 60 s, ${rigid.length} rigid Seth-like jobs on 480 CPUs (median of ${repeats}): user ${userS.toFixed(2)} s, wall ${median(walls).toFixed(2)} s, ${events} events, ${rate(events, userS)} events per user s` +
    (rigid.length < sethSpec.jobs ? `; ${sethSpec.jobs} jobs ≈ ${wholeS.toFixed(1)} s by linear extrapolation` : '') +
    ` — target ≤ 20 s: ${wholeS <= 20 ? 'met' : 'NOT met'}`,
);
