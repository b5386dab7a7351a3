// Time-sharing (issue 29): a generated communication-intensive workload (1,000 jobs on 64 nodes, MPL 4,
// 100 ms slices; the target is ≤ 30 s end to end) under every strategy, with events per second.
// BENCH_QUICK=1 runs 200 jobs.
import { performance } from 'node:perf_hooks';
import { simulateTimeshare } from '../src/batch/timeshare/engine.js';
import { summarizeTimeshare } from '../src/batch/timeshare/metrics.js';
import { listTimeshareStrategies } from '../src/batch/timeshare/registry.js';
import { generateStructuredWorkload } from '../src/batch/timeshare/workload-generator.js';

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
