// How a simulation's cost grows with the number of tasks: the two scenarios of
// sim.bench.ts at ½×, 1×, 2× and 4× their task counts, on the same grids (1,000 hosts for the work queue,
// 200 for the MCell-style sweep under XSufferage, or the heuristic MCELL_HEURISTIC names in the
// environment). Simulation only (the inputs are built in memory, no
// parsing, no report); one run per point, two for the small ones. Between two points the exponent
// log2(t(2n) / t(n)) says how the cost grows: 1 is linear, 2 quadratic. The whole benchmark takes about a
// minute, the 4× XSufferage point 20 s of it. Beside each point's elapsed time, the process's user CPU
// time (GC threads included), which says more on a shared machine. Targets (issue 31): the XSufferage
// curve's 4× point ≤ 5× its 1× point, the 1× point ≤ 3 s.
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

const only = process.argv[2]; // 'workqueue' or the MCell-style curve's heuristic runs one curve only
const cpu = cpus();
console.log(`machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0]!.toFixed(1)} at the start`);
for (const curve of curves.filter((c) => only === undefined || c.heuristic === only)) {
  console.log(`${curve.name}: simulate only, at ${FACTORS.map((f) => `${f}×`).join(', ')} ${curve.baseTasks.toLocaleString('en-US')} tasks`);
  let previousS: number | undefined;
  const byFactor = new Map<number, { seconds: number; userS: number }>();
  for (const factor of FACTORS) {
    const tasks = Math.round(curve.baseTasks * factor);
    const app = curve.app(tasks);
    const grid = curve.grid();
    const runs = factor <= 1 ? 2 : 1;
    const times: number[] = [];
    const userTimes: number[] = [];
    let plans = 0;
    let considered = 0;
    let placed = 0;
    let planS = 0;
    let makespanS = 0;
    for (let k = 0; k < runs; k++) {
      (globalThis as { gc?: () => void }).gc?.();
      let planCount = 0;
      let consideredWorks = 0;
      let plannedWorks = 0;
      const t0 = performance.now();
      const user0 = process.cpuUsage().user;
      const record = (e: RunRecordEvent): void => {
        if (e.type !== 'plan') return;
        planCount++;
        consideredWorks += e.consideredWorks;
        plannedWorks += e.plannedWorks;
      };
      const r = simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: curve.heuristic }, seed: 1, record });
      times.push((performance.now() - t0) / 1000);
      userTimes.push((process.cpuUsage().user - user0) / 1e6);
      if (!r.finished) throw new Error(`${curve.name} at ${tasks} tasks did not finish`);
      plans = planCount;
      considered = consideredWorks / planCount;
      placed = plannedWorks / planCount;
      planS = r.planCpuMs / 1000;
      makespanS = r.makespanS;
    }
    const seconds = Math.min(...times);
    const userS = Math.min(...userTimes);
    byFactor.set(factor, { seconds, userS });
    const growth = previousS === undefined ? '' : `; ×${(seconds / previousS).toFixed(2)} for 2× the tasks, exponent ${Math.log2(seconds / previousS).toFixed(2)}`;
    console.log(
      `  ${`${factor}×`.padStart(4)} ${tasks.toLocaleString('en-US').padStart(7)} tasks: ${seconds.toFixed(2)} s, user CPU ${userS.toFixed(2)} s (${((seconds / tasks) * 1e6).toFixed(1)} µs per task; ${plans} plans placing ${placed.toFixed(0)} of ${considered.toFixed(0)} Works on average, do_plan ${planS.toFixed(2)} s; makespan ${makespanS.toFixed(0)} s)${growth}`,
    );
    previousS = seconds;
  }
  const one = byFactor.get(1);
  const four = byFactor.get(4);
  if (curve.heuristic === 'xsufferage' && one !== undefined && four !== undefined) {
    const ratio = four.seconds / one.seconds;
    console.log(
      `  target: 4× ≤ 5× the 1× point: ×${ratio.toFixed(2)} (user CPU ×${(four.userS / one.userS).toFixed(2)}), ${ratio <= 5 ? 'met' : 'MISSED'}; ` +
        `1× ≤ 3 s: ${one.seconds.toFixed(2)} s, ${one.seconds <= 3 ? 'met' : 'MISSED'}`,
    );
  }
}
console.log(`load average ${loadavg()[0]!.toFixed(1)} at the end`);
