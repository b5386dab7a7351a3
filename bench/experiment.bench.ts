// The Figure 11 study through the experiment tool: 10 heuristics (H0–H9) × 8 shared-file sizes × 5 seeds
// = 400 simulations on worker threads. Prints wall time, runs/s, peak memory, and the heap and RSS after
// 100 runs and at the end (flat memory: results are streamed to files, not kept). Then re-runs the same
// experiment from the cache (median of 3) to show that nothing is simulated twice.
// Options: --seeds N, --sizes 100,9600, --heuristics H0,H4, --jobs N (defaults: the full study, all CPUs);
// --fake replaces the simulator by a trivial function in this thread, to measure the tool's own cost and
// memory over many runs (e.g. --fake --seeds 500: 40,000 runs).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseExperimentSpec } from '../src/experiment/spec.js';
import { matrixSize, runExperiment } from '../src/experiment/run-experiment.js';
import { defaultWorkerCount } from '../src/experiment/pool.js';
import { median } from '../src/experiment/results.js';
import type { RunOneFn } from '../src/experiment/job.js';
import { listHeuristics } from '../src/scheduler/heuristics/registry.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';

const { values } = parseArgs({
  options: { seeds: { type: 'string' }, sizes: { type: 'string' }, heuristics: { type: 'string' }, jobs: { type: 'string' }, fake: { type: 'boolean' } },
});
const fakeRunner: RunOneFn = (inputs, request) => ({
  makespanS: inputs.app.files[0]!.sizeBytes / 1e4 + request.seed,
  finished: true,
  worksDone: inputs.app.works.length,
  worksTotal: inputs.app.works.length,
  bytesMoved: 0,
  utilization: 0,
  planCalls: 0,
  planCpuMs: 0,
  failures: 0,
  reexecutions: 0,
});
const runner = values.fake ? { runner: { inline: fakeRunner } } : {};
const specPath = join(PACKAGE_ROOT, 'experiments', 'fig11.json');
const spec = JSON.parse(readFileSync(specPath, 'utf8')) as Record<string, unknown> & { sweep: { values: number[] } };
if (values.seeds) spec['seeds'] = { count: Number(values.seeds) };
if (values.sizes) spec.sweep.values = values.sizes.split(',').map(Number);
if (values.heuristics) spec['heuristics'] = values.heuristics.split(',');
const jobs = values.jobs ? Number(values.jobs) : defaultWorkerCount();
const loaded = parseExperimentSpec(JSON.stringify(spec), specPath, listHeuristics());

const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
const gc = (globalThis as { gc?: () => void }).gc;
const memory = (): { heap: number; rss: number } => {
  gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
};

const total = matrixSize(loaded);
console.log(`${values.fake ? 'FAKE runner (tool overhead only), ' : ''}inputs: ${loaded.heuristics.length} heuristics × ${loaded.sweepValues.length} sizes (${loaded.sweepValues.join(', ')} KB) × ${loaded.seeds.length} seeds = ${total} runs of 400 tasks on 22 hosts; ${jobs} worker threads`);
const out = mkdtempSync(join(tmpdir(), 'gridsweep-bench-'));
try {
  const marks: { runs: number; heap: number; rss: number }[] = [];
  const markAt = new Set([Math.min(100, total), Math.round(total / 4), total]);
  const start = performance.now();
  const cold = await runExperiment(loaded, {
    outDir: out,
    jobs,
    ...runner,
    onProgress: (p) => {
      if (markAt.has(p.done) && !marks.some((m) => m.runs === p.done)) marks.push({ runs: p.done, ...memory() });
    },
  });
  const coldMs = performance.now() - start;
  if (cold.failures.length > 0) {
    console.log(`${cold.failures.length} runs failed, e.g. ${cold.failures[0]!.run}: ${cold.failures[0]!.message}`);
    process.exitCode = 1;
  }
  console.log(cold.table.format());
  console.log(`cold: ${(coldMs / 1000).toFixed(1)} s wall for ${cold.simulated} simulations, ${(cold.simulated / (coldMs / 1000)).toFixed(2)} runs/s`);
  for (const m of marks) console.log(`memory after ${m.runs} runs: heap ${mb(m.heap)} MB, rss ${mb(m.rss)} MB`);

  const warm: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const r = await runExperiment(loaded, { outDir: out, jobs, ...runner });
    warm.push(performance.now() - t);
    if (r.simulated !== 0) throw new Error(`the cached re-run simulated ${r.simulated} runs`);
  }
  console.log(`cached re-run (median of 3): ${(median(warm) / 1000).toFixed(2)} s, ${(total / (median(warm) / 1000)).toFixed(0)} runs/s`);
  console.log(`peak memory (maxRSS): ${(process.resourceUsage().maxRSS / 1024).toFixed(1)} MB`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
