// The Figure 11 experiment matrix (10 heuristics × 8 shared-file sizes × 5 seeds = 400 cells) computed
// two ways on the same cores: in 2 worker threads (the default executor), and as tasks of a real run on a
// real grid of 2 local agent slots (`experiment --grid`: the bundled cell program, cells dealt into 4 tasks
// per slot, one node process per task, each task's results fetched back and verified). Prints wall and CPU
// time of both and their ratio, and the per-cell overhead of the grid run, from its journal, the tasks'
// own CPU and the cells' own timings:
//   shipping   — run start to the first task started (the inputs sent to the cluster's storage, once);
//   start      — starting node and loading the 0.4 MB bundle (median of 10 `node gridsweep-cell.mjs` runs
//                that only print their usage), once per task;
//   in task    — task spans on their slots (journal started→done) minus the cells' simulations (their
//                wallMs): node start, loading the cell table and inputs, writing the results, the agent;
//   verifying  — journal done→verified: the output's hash checked and the file moved into the origin.
// Options: --seeds N, --sizes 100,9600, --heuristics H0,H4 (defaults: the full matrix), --slots N (2),
// --tasks-per-slot N (4, as `experiment --grid`).
// CPU: this process (with its worker threads), and for the grid run the controller plus what each task's
// node process reports of itself (the agent detaches tasks, so they are not this process's children).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseExperimentSpec } from '../src/experiment/spec.js';
import { matrixSize, runExperiment } from '../src/experiment/run-experiment.js';
import { median } from '../src/experiment/results.js';
import { computeCellsOnGrid, GRID_RUN_FOLDER } from '../src/experiment/grid-cells.js';
import { CELL_BUNDLE_NAME, placeCellBundle } from '../src/experiment/cell-bundle.js';
import { ResultStore } from '../src/experiment/store.js';
import { loadRealGrid } from '../src/realgrid/real-grid-file.js';
import { listHeuristics } from '../src/scheduler/heuristics/registry.js';
import { PACKAGE_ROOT } from '../src/util/package-root.js';

const { values } = parseArgs({ options: { seeds: { type: 'string' }, sizes: { type: 'string' }, heuristics: { type: 'string' }, slots: { type: 'string' }, 'tasks-per-slot': { type: 'string' } } });
const specPath = join(PACKAGE_ROOT, 'experiments', 'fig11.json');
const spec = JSON.parse(readFileSync(specPath, 'utf8')) as Record<string, unknown> & { sweep: { values: number[] } };
if (values.seeds) spec['seeds'] = { count: Number(values.seeds) };
if (values.sizes) spec.sweep.values = values.sizes.split(',').map(Number);
if (values.heuristics) spec['heuristics'] = values.heuristics.split(',');
const slots = values.slots ? Number(values.slots) : 2;
const loaded = parseExperimentSpec(JSON.stringify(spec), specPath, listHeuristics());
const total = matrixSize(loaded);

/** CPU seconds of this process, its threads included. */
function cpuS(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-bench-grid-'));
try {
  console.log(`Figure 11 matrix: ${total} cells; ${slots} worker threads vs ${slots} local agent slots`);
  const t0 = performance.now();
  const c0 = cpuS();
  const threads = await runExperiment(loaded, { outDir: join(dir, 'threads'), jobs: slots });
  const threadsS = (performance.now() - t0) / 1000;
  const threadsCpuS = cpuS() - c0;

  const gridPath = join(dir, 'local-grid.json');
  writeFileSync(gridPath, JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: join(dir, 'storage'), hosts: { type: 'local', slots } }] }));
  const grid = loadRealGrid(gridPath);
  const gridOut = join(dir, 'grid');
  const t1 = performance.now();
  const c1 = cpuS();
  let tasks: Awaited<ReturnType<typeof computeCellsOnGrid>> | undefined;
  const onGrid = await runExperiment(loaded, {
    outDir: gridOut,
    elsewhere: async (runs, store) => (tasks = await computeCellsOnGrid(runs, store, gridOut, { gridPath, grid, say: () => undefined, ...(values['tasks-per-slot'] ? { tasksPerSlot: Number(values['tasks-per-slot']) } : {}) })),
  });
  const gridS = (performance.now() - t1) / 1000;
  const gridCpuS = cpuS() - c1;
  if (threads.failures.length + onGrid.failures.length > 0) throw new Error(`failures: ${JSON.stringify([...threads.failures, ...onGrid.failures][0])}`);
  const same = readFileSync(join(gridOut, 'summary.txt'), 'utf8') === readFileSync(join(dir, 'threads', 'summary.txt'), 'utf8');

  const gridAllCpuS = gridCpuS + tasks!.tasksCpuS;
  console.log(`worker threads: ${threadsS.toFixed(1)} s wall, ${threadsCpuS.toFixed(1)} s CPU`);
  console.log(`real grid:      ${gridS.toFixed(1)} s wall, ${gridAllCpuS.toFixed(1)} s CPU (controller ${gridCpuS.toFixed(1)} s + ${tasks!.tasks} tasks ${tasks!.tasksCpuS.toFixed(1)} s)`);
  console.log(`ratio (grid / threads): ${(gridS / threadsS).toFixed(2)}× wall, ${(gridAllCpuS / threadsCpuS).toFixed(2)}× CPU; summary.txt ${same ? 'identical' : 'DIFFERENT'}`);

  // Per-cell overhead, from the grid run's journal (renamed aside at its end) and the cells' wallMs.
  const journalDir = join(gridOut, GRID_RUN_FOLDER, '.gridsweep', 'cells');
  const journalFile = readdirSync(journalDir).find((f) => /^journal\..*\.jsonl$/.test(f))!;
  const lines = readFileSync(join(journalDir, journalFile), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; at: string; work?: number });
  const at = (type: string) => new Map(lines.filter((e) => e.type === type).map((e) => [e.work!, Date.parse(e.at)]));
  const started = at('started');
  const done = at('done');
  const verified = at('verified');
  const runStart = Date.parse(lines.find((e) => e.type === 'run')!.at);
  const wallsOf = (outDir: string): number[] => {
    const store = new ResultStore(join(outDir, 'runs'));
    return readdirSync(join(outDir, 'runs')).flatMap((d) => readdirSync(join(outDir, 'runs', d)).map((f) => store.read(f.replace(/\.json$/, ''))!.wallMs));
  };
  const gridWalls = wallsOf(gridOut);
  const threadWalls = wallsOf(join(dir, 'threads'));
  const sum = (xs: Iterable<number>): number => [...xs].reduce((a, b) => a + b, 0);
  const spansMs = sum([...done].map(([w, t]) => t - started.get(w)!));
  const perCellInTaskMs = (spansMs - sum(gridWalls)) / total;
  const verifyMs = median([...verified].map(([w, t]) => t - done.get(w)!));
  const shippingMs = Math.min(...started.values()) - runStart;
  console.log(`simulation per cell (median wallMs): ${median(threadWalls).toFixed(0)} ms in worker threads, ${median(gridWalls).toFixed(0)} ms in the tasks' node processes`);
  const bundle = join(dir, CELL_BUNDLE_NAME);
  await placeCellBundle(bundle);
  const startMs: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    try {
      execFileSync(process.execPath, [bundle], { stdio: 'ignore' });
    } catch {
      // it exits 2 after printing its usage: that is the run being timed
    }
    startMs.push(performance.now() - t);
  }
  const startMedianMs = median(startMs);
  const tasksN = tasks!.tasks;
  const overheads: [string, number][] = [
    ['starting node + loading the bundle', (startMedianMs * tasksN) / total],
    ['rest of a task besides simulating (inputs, results, agent)', perCellInTaskMs - (startMedianMs * tasksN) / total],
    ['verifying', (verifyMs * tasksN) / total],
    ['shipping', shippingMs / total],
  ];
  console.log(`per-cell overhead (${total} cells in ${tasksN} tasks): ${overheads.map(([what, ms]) => `${what} ${ms.toFixed(1)} ms`).join('; ')}`);
  console.log(`  (node start + bundle load ${startMedianMs.toFixed(0)} ms per task; verifying ${verifyMs.toFixed(0)} ms per task; shipping ${shippingMs} ms once)`);
  overheads.sort((a, b) => b[1] - a[1]);
  console.log(`dominant per-cell overhead: ${overheads[0]![0]} (${overheads[0]![1].toFixed(1)} ms)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
