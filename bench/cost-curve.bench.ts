// How a simulation's cost grows with the number of tasks: the two scenarios of sim.bench.ts at ½×, 1×, 2× and
// 4× their task counts, on the same grids (1,000 hosts for the work queue, 200 for the MCell-style sweep
// under XSufferage, or the heuristic MCELL_HEURISTIC names in the environment). Simulation only (the inputs
// are built in memory, no parsing, no report); one run per point, two for the small ones. Between two points
// the exponent log2(t(2n) / t(n)) says how the cost grows: 1 is linear, 2 quadratic. The whole benchmark
// takes about two minutes, most of it the XSufferage curve's pairs (below, about 10 s each). Beside each
// point's elapsed time, the process's user CPU time (GC threads included), which says more on a shared
// machine. Targets (issue 31): the XSufferage curve's 4× point ≤ 5× its 1× point, the 1× point ≤ 3 s. A
// single pair of runs moves with whatever else the machine does (4.6–5.1× in five runs of one quiet morning),
// so the verdict comes from PAIRS (default 5) more pairs, each a 1× run right before a 4× run: the median of
// their ratios, and the range beside it.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { simulate } from '../backends/sim/simulate.js';
import type { Application } from '../src/model/application.js';
import type { GridDescription } from '../src/model/grid.js';
import type { RunRecordEvent } from '../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../src/scheduler/options.js';
import { Rng } from '../src/util/rng.js';
import { gridOf, mcellApp, workQueueApp } from './support/sim-scenarios.js';
import { runWithYoungGeneration } from './support/young-generation.js';
import { median } from './support/median.js';

runWithYoungGeneration();

interface Curve {
  readonly name: string;
  readonly heuristic: string;
  readonly baseTasks: number;
  readonly app: (tasks: number) => Application;
  readonly grid: () => GridDescription;
}

/** The MCell-style curve's heuristic: XSufferage unless MCELL_HEURISTIC names another (e.g. minmin). */
const MCELL_HEURISTIC = process.env.MCELL_HEURISTIC ?? 'xsufferage';

const curves: Curve[] = [
  { name: 'work queue, 1,000 hosts in 10 clusters', heuristic: 'workqueue', baseTasks: 100_000, app: workQueueApp, grid: () => gridOf(10, 100, new Rng(1)) },
  { name: `MCell-style sweep, ${MCELL_HEURISTIC}, 200 hosts in 4 clusters`, heuristic: MCELL_HEURISTIC, baseTasks: 20_000, app: mcellApp, grid: () => gridOf(4, 50, new Rng(3)) },
];
const FACTORS = [0.5, 1, 2, 4];
const PAIRS = Number(process.env.PAIRS ?? 5);

interface Run {
  readonly seconds: number;
  readonly userS: number;
  readonly plans: number;
  /** Works considered and placed per plan, on average. */
  readonly considered: number;
  readonly placed: number;
  readonly planS: number;
  readonly makespanS: number;
}

/**
 * One simulation of the curve's scenario at `tasks` tasks, timed after its inputs are built and a collection
 * (where --expose-gc allows it). Each run builds its own inputs, so that no other run's stay in the heap:
 * kept, an 80,000-task application slowed the 20,000-task runs after it by about 15 %.
 */
function timedRun(curve: Curve, tasks: number): Run {
  const app = curve.app(tasks);
  const grid = curve.grid();
  (globalThis as { gc?: () => void }).gc?.();
  let plans = 0;
  let consideredWorks = 0;
  let plannedWorks = 0;
  const t0 = performance.now();
  const user0 = process.cpuUsage().user;
  const record = (e: RunRecordEvent): void => {
    if (e.type !== 'plan') return;
    plans++;
    consideredWorks += e.consideredWorks;
    plannedWorks += e.plannedWorks;
  };
  const r = simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: curve.heuristic }, seed: 1, record });
  const seconds = (performance.now() - t0) / 1000;
  const userS = (process.cpuUsage().user - user0) / 1e6;
  if (!r.finished) throw new Error(`${curve.name} at ${tasks} tasks did not finish`);
  return { seconds, userS, plans, considered: consideredWorks / plans, placed: plannedWorks / plans, planS: r.planCpuMs / 1000, makespanS: r.makespanS };
}

const only = process.argv[2]; // 'workqueue' or the MCell-style curve's heuristic runs one curve only
const cpu = cpus();
console.log(`machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0]!.toFixed(1)} at the start`);
for (const curve of curves.filter((c) => only === undefined || c.heuristic === only)) {
  console.log(`${curve.name}: simulate only, at ${FACTORS.map((f) => `${f}×`).join(', ')} ${curve.baseTasks.toLocaleString('en-US')} tasks`);
  let previousS: number | undefined;
  for (const factor of FACTORS) {
    const tasks = Math.round(curve.baseTasks * factor);
    const runs = Array.from({ length: factor <= 1 ? 2 : 1 }, () => timedRun(curve, tasks));
    const last = runs[runs.length - 1]!;
    const seconds = Math.min(...runs.map((r) => r.seconds));
    const userS = Math.min(...runs.map((r) => r.userS));
    const growth = previousS === undefined ? '' : `; ×${(seconds / previousS).toFixed(2)} for 2× the tasks, exponent ${Math.log2(seconds / previousS).toFixed(2)}`;
    console.log(
      `  ${`${factor}×`.padStart(4)} ${tasks.toLocaleString('en-US').padStart(7)} tasks: ${seconds.toFixed(2)} s, user CPU ${userS.toFixed(2)} s (${((seconds / tasks) * 1e6).toFixed(1)} µs per task; ${last.plans} plans placing ${last.placed.toFixed(0)} of ${last.considered.toFixed(0)} Works on average, do_plan ${last.planS.toFixed(2)} s; makespan ${last.makespanS.toFixed(0)} s)${growth}`,
    );
    previousS = seconds;
  }
  if (curve.heuristic === 'xsufferage' && PAIRS > 0) {
    const ones: Run[] = [];
    const fours: Run[] = [];
    for (let k = 0; k < PAIRS; k++) {
      ones.push(timedRun(curve, curve.baseTasks));
      fours.push(timedRun(curve, 4 * curve.baseTasks));
    }
    const ratios = fours.map((r, k) => r.seconds / ones[k]!.seconds);
    const userRatios = fours.map((r, k) => r.userS / ones[k]!.userS);
    const ratio = median(ratios);
    const oneS = median(ones.map((r) => r.seconds));
    console.log(
      `  ${PAIRS} pairs (1× then 4×): 1× ${oneS.toFixed(2)} s, 4× ${median(fours.map((r) => r.seconds)).toFixed(2)} s (medians); ` +
        `ratios ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}, user CPU ${Math.min(...userRatios).toFixed(2)}–${Math.max(...userRatios).toFixed(2)}`,
    );
    console.log(
      `  target: 4× ≤ 5× the 1× point: median ×${ratio.toFixed(2)} (user CPU ×${median(userRatios).toFixed(2)}), ${ratio <= 5 ? 'met' : 'MISSED'}; ` +
        `1× ≤ 3 s: ${oneS.toFixed(2)} s, ${oneS <= 3 ? 'met' : 'MISSED'}`,
    );
  }
}
console.log(`load average ${loadavg()[0]!.toFixed(1)} at the end`);
