// One trace run in its own process, for batch.bench and topology.bench (a machine and allocator may follow
// the policy): prints {wallS, userS, maxRssMB, events, jobs} as JSON, so
// the parent measures each run's peak memory apart from the others'. The parent gives it node's larger young
// generation, as the gridsweep command has (src/util/young-generation.ts).
import { performance } from 'node:perf_hooks';
import { runTrace } from '../../src/trace/run-trace.js';

const [workloadPath, policy, machine, allocator] = process.argv.slice(2);
if (workloadPath === undefined || policy === undefined) throw new Error('usage: trace-child WORKLOAD.swf POLICY [MACHINE ALLOCATOR]');
const run = runTrace({ workloadPath, policy, machine, allocator });
console.log(JSON.stringify({ wallS: performance.now() / 1000, userS: process.resourceUsage().userCPUTime / 1e6, maxRssMB: process.resourceUsage().maxRSS / 1024, events: run.events, jobs: run.metrics.jobs, meanWaitS: run.metrics.waitS.mean }));
