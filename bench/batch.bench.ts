// Trace mode (issue 12): generated workloads of the Seth and MetaCentrum traces' sizes and shapes, each
// run end to end (process start, streaming the SWF, simulating, the metrics) in its own process.
//   Seth-sized (202,871 jobs, 120 nodes × 4 cores): EASY ≤ 10 s, FCFS ≤ 5 s; conservative backfilling
//   ≤ 1.5 s of user CPU (issue 31), the median of 5 runs beside EASY's, since a 2-core machine's wall time
//   moves with whatever else runs.
//   MetaCentrum-sized (5,731,100 jobs, 495 nodes × 17 cores), FCFS: ≤ 2 min, peak RSS ≤ 150 MB and no more
//   than for 200k jobs. The cost curve at 50k, 200k, 1M and 5.7M jobs, with events per second.
// AccaSim's published figures (Galleguillos et al. 2018, Tables 1–2: an i7-2600, Python 3.6) are printed beside them; they
// are another machine's, so read the ratio as an order of magnitude. BENCH_QUICK=1 stops at 1M jobs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { writeGeneratedWorkload } from '../src/batch/swf/write-generated.js';
import type { WorkloadSpec } from '../src/batch/workload-generator.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';
import { YOUNG_GENERATION_FLAG } from '../src/util/young-generation.js';
import { median } from './support/median.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'gs-batch-bench-'));
const spec = (name: string): WorkloadSpec => JSON.parse(readFileSync(join(PACKAGE_ROOT, 'griddescs/batch', name), 'utf8')) as WorkloadSpec;

interface ChildRun {
  wallS: number;
  userS: number;
  maxRssMB: number;
  events: number;
  jobs: number;
}

function traceRun(workload: string, policy: string): ChildRun & { endToEndS: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [YOUNG_GENERATION_FLAG, join(here, 'support/trace-child.js'), workload, policy], { encoding: 'utf8' });
  const endToEndS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`trace ${policy} on ${workload} failed: ${r.stderr}`);
  return { ...(JSON.parse(r.stdout) as ChildRun), endToEndS };
}

function generate(s: WorkloadSpec, file: string): string {
  const path = join(dir, file);
  const t0 = performance.now();
  writeGeneratedWorkload(s, 1, path);
  console.log(`  generated ${file}: ${s.jobs.toLocaleString('en-US')} jobs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return path;
}

function line(label: string, r: ChildRun & { endToEndS: number }, target: string): void {
  console.log(`  ${label.padEnd(34)} ${r.endToEndS.toFixed(2).padStart(7)} s  ${r.maxRssMB.toFixed(0).padStart(4)} MB  ${(r.events / r.endToEndS / 1e6).toFixed(2)} M events/s  ${target}`);
}

const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

try {
  console.log('Seth-sized (202,871 jobs, 120 × 4 cores), end to end; AccaSim: FIFO/SJF/LJF ≈ 8 min, EASY ≈ 22 min, 86 MB');
  const seth = generate(spec('seth-like.json'), 'seth.swf');
  const fcfs = traceRun(seth, 'fcfs');
  line('fcfs', fcfs, `target ≤ 5 s: ${verdict(fcfs.endToEndS <= 5)}`);
  const easy = traceRun(seth, 'easy');
  line('easy', easy, `target ≤ 10 s: ${verdict(easy.endToEndS <= 10)}`);
  for (const p of ['sjf', 'ljf']) line(p, traceRun(seth, p), '');
  const userRuns = { conservative: [] as number[], easy: [] as number[] };
  let conservative = traceRun(seth, 'conservative');
  for (let round = 0; round < 5; round++) {
    for (const p of ['conservative', 'easy'] as const) {
      const r = traceRun(seth, p);
      userRuns[p].push(r.userS);
      if (p === 'conservative') conservative = r;
    }
  }
  const conservativeUserS = median(userRuns.conservative);
  line('conservative', conservative, `user CPU median of 5 ${conservativeUserS.toFixed(2)} s (EASY's ${median(userRuns.easy).toFixed(2)} s); target ≤ 1.5 s: ${verdict(conservativeUserS <= 1.5)}`);

  console.log('\nMetaCentrum-shaped (495 × 17 cores), FCFS, cost curve; AccaSim rejecting every job on the real 5.7M trace: 6 min 23 s, 19 MB');
  const sizes = process.env.BENCH_QUICK === '1' ? [50_000, 200_000, 1_000_000] : [50_000, 200_000, 1_000_000, 5_731_100];
  const curve: Array<{ jobs: number; run: ChildRun & { endToEndS: number } }> = [];
  for (const jobs of sizes) {
    const path = generate({ ...spec('metacentrum-like.json'), jobs }, `mc-${jobs}.swf`);
    const run = traceRun(path, 'fcfs');
    rmSync(path);
    curve.push({ jobs, run });
    line(`${jobs.toLocaleString('en-US')} jobs`, run, `${((run.endToEndS / jobs) * 1e6).toFixed(2)} µs/job`);
  }
  const at200k = curve.find((c) => c.jobs === 200_000)!.run;
  const largest = curve[curve.length - 1]!;
  if (largest.jobs === 5_731_100) {
    console.log(`  5.7M jobs: ${largest.run.endToEndS.toFixed(1)} s (target ≤ 120 s: ${verdict(largest.run.endToEndS <= 120)}), peak RSS ${largest.run.maxRssMB.toFixed(0)} MB (target ≤ 150 MB: ${verdict(largest.run.maxRssMB <= 150)}; 200k: ${at200k.maxRssMB.toFixed(0)} MB)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
