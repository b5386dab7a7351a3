// Time-sharing (issue 29): a generated communication-intensive workload (1,000 jobs on 64 nodes, MPL 4,
// 100 ms slices; the target is ≤ 30 s end to end) under every strategy, with events per second.
// BENCH_QUICK=1 runs 200 jobs. Then gang scheduling of rigid jobs on a Seth-sized cluster (below).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { rigidJob } from '../src/batch/timeshare/job-structure.js';
import { simulateTimeshare } from '../src/batch/timeshare/engine.js';
import { summarizeTimeshare } from '../src/batch/timeshare/metrics.js';
import { getTimeshareStrategy, listTimeshareStrategies } from '../src/batch/timeshare/registry.js';
import { generateStructuredWorkload } from '../src/batch/timeshare/workload-generator.js';
import { generateWorkload, type WorkloadSpec } from '../src/batch/workload-generator.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';

const jobs = process.env['BENCH_QUICK'] === '1' ? 200 : 1000;
const workload = generateStructuredWorkload({ seed: 29, jobs, nodes: 64, mix: { comm: 1 }, load: 0.7 });
console.log(`${jobs} communication-intensive jobs, 64 nodes, MPL 4, slice 0.1 s (target: ≤ 30 s each)`);
console.log('strategy     wall s    events   events/s  messages  makespan s  mean resp s  loss of CPU');
for (const s of listTimeshareStrategies()) {
  const config = s.configure({ mpl: 4, slice: 0.1 });
  const t0 = performance.now();
  const run = simulateTimeshare(workload, 64, config);
  const wallS = (performance.now() - t0) / 1000;
  const sum = summarizeTimeshare(run);
  console.log(
    `${s.name.padEnd(11)} ${wallS.toFixed(2).padStart(7)} ${String(run.events).padStart(9)} ${Math.round(run.events / wallS).toLocaleString('en-US').padStart(10)} ${String(run.messages).padStart(9)} ${sum.makespanS.toFixed(1).padStart(11)} ${sum.meanResponseS.toFixed(2).padStart(12)} ${(100 * sum.lossOfCpu).toFixed(1).padStart(10)} %`,
  );
}

// Gang scheduling of rigid SWF jobs (Seth-sized cluster: 120 nodes × 4 cores, one CPU per core, MPL 3,
// 60 s slices, no switch cost). The target is the whole Seth-sized trace (202,871 jobs) in ≤ 20 s;
// this prints the first SETH_JOBS jobs (default 20,000) and the whole-trace time extrapolated linearly.
const sethJobs = Number(process.env['SETH_JOBS'] ?? 20000);
const sethSpec = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'griddescs/batch/seth-like.json'), 'utf8')) as WorkloadSpec;
const rigid = [];
for (const j of generateWorkload(sethSpec, 1)) {
  rigid.push(rigidJob(j));
  if (rigid.length >= sethJobs) break;
}
{
  const t0 = performance.now();
  const run = simulateTimeshare(rigid, sethSpec.nodes * sethSpec.coresPerNode, getTimeshareStrategy('gang').configure({ mpl: 3, slice: 60, 'context-switch': 0 }));
  const wallS = (performance.now() - t0) / 1000;
  console.log(
    `\ngang, MPL 3, slice 60 s, ${rigid.length} rigid Seth-like jobs on 480 CPUs: ${wallS.toFixed(2)} s, ${run.events} events, ${Math.round(run.events / wallS).toLocaleString('en-US')} events/s; ` +
      `202,871 jobs ≈ ${((wallS * sethSpec.jobs) / rigid.length).toFixed(0)} s by linear extrapolation (target ≤ 20 s)`,
  );
}
