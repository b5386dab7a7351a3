// Machines and processor allocation (issue 26): end to end, each run in its own process.
//   - A generated trace of the LLNL-T3D log's size and shape (21,323 jobs, 256 single-core nodes, requested
//     times rounded to the hour) on mesh:8x8x4 under EASY, every allocator: target ≤ 2 s each. PReMAS
//     (Bunde and Leung 2015), measured on this kind of machine on the real log: MC1x1 232 s, Gen-Alg 16.4 s,
//     MBS 1.0 s, random 0.9 s (whole Java processes) — printed beside, as a ratio.
//   - A Seth-sized trace (202,871 jobs) on a 120-node mesh (mesh:10x12, 4 cores a node) under EASY with
//     Gen-Alg: target ≤ 10 s and peak RSS ≤ 200 MB.
//   - The cost curve of each allocator against mesh size, 64 to 4,096 nodes: one generated workload of
//     COST_JOBS jobs per size (jobs up to half the machine), simulated in this process, ms per job.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { runTrace } from '../src/trace/run-trace.js';
import { writeGeneratedWorkload } from '../src/batch/swf/write-generated.js';
import type { WorkloadSpec } from '../src/batch/workload-generator.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';
import { YOUNG_GENERATION_FLAG } from '../src/util/young-generation.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'gs-topology-bench-'));
const spec = (name: string): WorkloadSpec => JSON.parse(readFileSync(join(PACKAGE_ROOT, 'griddescs/batch', name), 'utf8')) as WorkloadSpec;
const ALLOCATORS = ['linear:row-major:free-list', 'linear:hilbert:best-fit', 'mc1x1', 'gen-alg', 'mm', 'mbs', 'random', 'contiguous:first-fit', 'contiguous:best-fit'];
const PREMAS_S: Readonly<Record<string, number>> = { mc1x1: 232, 'gen-alg': 16.4, mbs: 1.0, random: 0.9 };
const COST_JOBS = 400;
const COST_MESHES = ['mesh:4x4x4', 'mesh:8x8x4', 'mesh:8x8x8', 'mesh:16x8x8', 'mesh:16x16x8', 'mesh:16x16x16'];

function child(workload: string, machine: string, allocator: string): { endToEndS: number; maxRssMB: number; jobs: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [YOUNG_GENERATION_FLAG, join(here, 'support/trace-child.js'), workload, 'easy', machine, allocator], { encoding: 'utf8' });
  const endToEndS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`trace ${allocator} on ${machine} failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { maxRssMB: number; jobs: number };
  return { endToEndS, maxRssMB: out.maxRssMB, jobs: out.jobs };
}

const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

try {
  const t3d = join(dir, 't3d.swf');
  writeGeneratedWorkload(spec('t3d-like.json'), 1, t3d);
  console.log('T3D-sized (21,323 jobs) on mesh:8x8x4 under EASY, end to end; target ≤ 2 s each');
  for (const a of ALLOCATORS) {
    const r = child(t3d, 'mesh:8x8x4', a);
    const premas = PREMAS_S[a];
    const vs = premas === undefined ? '' : `  PReMAS ${premas} s: ${(premas / r.endToEndS).toFixed(0)}×`;
    console.log(`  ${a.padEnd(28)} ${r.endToEndS.toFixed(2).padStart(6)} s  ${r.maxRssMB.toFixed(0).padStart(4)} MB  ${verdict(r.endToEndS <= 2)}${vs}`);
  }

  const seth = join(dir, 'seth.swf');
  writeGeneratedWorkload(spec('seth-like.json'), 1, seth);
  const s = child(seth, 'mesh:10x12', 'gen-alg');
  console.log(`\nSeth-sized (202,871 jobs) on mesh:10x12 × 4 cores, EASY, Gen-Alg: ${s.endToEndS.toFixed(2)} s (target ≤ 10 s: ${verdict(s.endToEndS <= 10)}), ${s.maxRssMB.toFixed(0)} MB (target ≤ 200 MB: ${verdict(s.maxRssMB <= 200)})`);

  console.log(`\nCost curve: ${COST_JOBS} jobs (up to half the machine, hour-rounded requests) under EASY, ms per job, in process`);
  console.log(`  ${'allocator'.padEnd(28)} ${COST_MESHES.map((m) => `${m.slice(5)} (${m.slice(5).split('x').reduce((a, b) => a * Number(b), 1)})`.padStart(16)).join('')}`);
  const workloads = COST_MESHES.map((m) => {
    const nodes = m.slice(5).split('x').reduce((a, b) => a * Number(b), 1);
    const path = join(dir, `cost-${nodes}.swf`);
    writeGeneratedWorkload({ jobs: COST_JOBS, nodes, coresPerNode: 1, requestRoundingS: 3600 }, 1, path);
    return path;
  });
  for (const a of ALLOCATORS) {
    const cells = COST_MESHES.map((machine, i) => {
      const t0 = performance.now();
      runTrace({ workloadPath: workloads[i]!, machine, policy: 'easy', allocator: a });
      return ((performance.now() - t0) / COST_JOBS).toFixed(3).padStart(16);
    });
    console.log(`  ${a.padEnd(28)} ${cells.join('')}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
