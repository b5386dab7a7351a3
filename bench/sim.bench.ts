// Simulation speed, end to end (parse the description files, simulate, format the report):
//  (a) a work-queue sweep of 100,000 tasks on 1,000 hosts in 10 clusters: each task one private 1 MB
//      input, 100 s of work, a 10 KB output; links 10 ms, 1e8 B/s. Target: median ≤ 3 s, peak RSS ≤ 1 GB.
//  (b) an MCell-style sweep of 20,000 tasks in chunks of 50 sharing one 50 MB file (plus a private 100 KB
//      input), on 200 hosts in 4 clusters, with xsufferage. Target: ≤ 5 s, peak RSS ≤ 300 MB.
// Also (a) driven by a minimal O(1)-per-event work queue instead of the project's scheduler, to show the
// engine's own throughput apart from do_plan(). Each scenario runs in a process of its own, which writes
// its description files; each repetition then parses and simulates them in a process of its own
// (support/sim-run-child.ts), whose peak RSS is the one held to the target: a simulation's, as the
// gridsweep command runs it, without the building of the inputs or another repetition.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { saveApplication, writeGrid } from '../src/formats/index.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../src/scheduler/options.js';
import { runSimulation } from '../backends/sim/run-simulation.js';
import { YOUNG_GENERATION_FLAG } from '../src/util/young-generation.js';
import type { SimRun } from './support/sim-run-child.js';
import { runWithYoungGeneration } from './support/young-generation.js';
import { MinimalWorkQueue } from './support/minimal-work-queue.js';
import { mcell, workQueue } from './support/sim-scenarios.js';
import { median } from './support/median.js';

// As the gridsweep command runs.
runWithYoungGeneration();

function engineAlone(): void {
  const app = workQueue.app();
  const grid = workQueue.grid();
  const times: number[] = [];
  let events = 0;
  let finished = false;
  for (let rep = 0; rep < 3; rep++) {
    const r = runSimulation({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'minimal-work-queue' }, seed: 1 }, (deps) => new MinimalWorkQueue(deps, app));
    times.push(r.wallMs.simulate);
    events = r.events;
    finished = r.finished;
  }
  const m = median(times);
  console.log(`(a) engine alone (minimal O(1) work queue instead of the scheduler), ${app.works.length} tasks, 1000 hosts`);
  console.log(`  simulate: median ${m.toFixed(0)} ms of ${times.map((t) => t.toFixed(0)).join(', ')}; ${events} events, ${Math.round(events / (m / 1000)).toLocaleString('en-US')} events/s; finished ${finished}`);
}

const only = process.argv[2]; // 'a' or 'b' runs one scenario, in this process
if (only === undefined) {
  for (const scenario of ['a', 'b']) {
    const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), scenario], { stdio: 'inherit' });
    if (r.status !== 0) process.exitCode = 1;
  }
} else runScenario(only);

function runScenario(letter: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-sim-bench-'));
  try {
    if (letter === 'a') engineAlone();
    for (const sc of [workQueue, mcell].filter((x) => x.name.startsWith(`(${letter})`))) {
      const appPath = join(dir, 'bench.app');
      const gridPath = join(dir, 'bench.grid');
      saveApplication(appPath, sc.app());
      writeGrid(dir, 'bench.grid', sc.grid());
      const runs = Array.from({ length: sc.repetitions }, () => runChild(appPath, gridPath, sc.heuristic));
      const totals = runs.map((r) => r.totalS);
      const m = median(totals);
      const l = runs[runs.length - 1]!;
      const peakMB = Math.max(...runs.map((r) => r.peakRssMB));
      console.log(sc.name);
      console.log(`  inputs: ${l.tasks} tasks, ${l.hosts} hosts; heuristic ${sc.heuristic}; ${sc.repetitions} repetitions, each a process of its own`);
      console.log(`  end to end: median ${m.toFixed(2)} s (target ≤ ${sc.targetS} s${m <= sc.targetS ? ', met' : ', MISSED'}); runs ${totals.map((t) => t.toFixed(2)).join(', ')} s`);
      console.log(`  last run: parse ${l.parseMs.toFixed(0)} ms, simulate ${l.simMs.toFixed(0)} ms (of which do_plan ${l.planMs.toFixed(0)} ms)`);
      console.log(`  simulated events: ${l.events} (${Math.round(l.events / (l.simMs / 1000)).toLocaleString('en-US')} events/s); makespan ${l.makespanS.toFixed(1)} s, finished ${l.finished}`);
      console.log(
        `  peak RSS of a repetition's process: ${peakMB.toFixed(0)} MB, the largest of ${runs.map((r) => r.peakRssMB.toFixed(0)).join(', ')} (target ≤ ${sc.targetRssMB} MB${peakMB <= sc.targetRssMB ? ', met' : ', MISSED'})`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runChild(appPath: string, gridPath: string, heuristic: string): SimRun {
  const child = join(dirname(fileURLToPath(import.meta.url)), 'support/sim-run-child.js');
  const r = spawnSync(process.execPath, [YOUNG_GENERATION_FLAG, child, appPath, gridPath, heuristic], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`sim-run-child exited with ${r.status ?? r.signal}`);
  return JSON.parse(r.stdout) as SimRun;
}
