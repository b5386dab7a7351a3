// One repetition of a sim.bench scenario in a process of its own, as `gridsweep simulate` runs: parse the
// description files, simulate, format the report. Prints what it measured as JSON, its own peak RSS
// included, so that neither the building of the inputs nor another repetition counts in it. sim.bench.ts
// gives it node's larger young generation, as the gridsweep command has (src/util/young-generation.ts).
import { performance } from 'node:perf_hooks';
import { simulate } from '../../backends/sim/simulate.js';
import { formatReport } from '../../src/cli/commands/simulate.js';
import { loadApplication, loadGrid } from '../../src/formats/index.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';

export interface SimRun {
  readonly totalS: number;
  readonly parseMs: number;
  readonly simMs: number;
  readonly planMs: number;
  readonly events: number;
  readonly makespanS: number;
  readonly finished: boolean;
  readonly tasks: number;
  readonly hosts: number;
  readonly peakRssMB: number;
}

const [appPath, gridPath, heuristic] = process.argv.slice(2);
if (appPath === undefined || gridPath === undefined || heuristic === undefined) throw new Error('usage: sim-run-child APP GRID HEURISTIC');
const t0 = performance.now();
const app = loadApplication(appPath);
const { grid } = loadGrid(gridPath);
const t1 = performance.now();
const r = simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic }, seed: 1 });
const report = formatReport(app, heuristic, r);
const t2 = performance.now();
if (report.length === 0) throw new Error('empty report');
const run: SimRun = {
  totalS: (t2 - t0) / 1000,
  parseMs: t1 - t0,
  simMs: r.wallMs.simulate,
  planMs: r.planCpuMs,
  events: r.events,
  makespanS: r.makespanS,
  finished: r.finished,
  tasks: r.worksTotal,
  hosts: r.hosts.length,
  peakRssMB: process.resourceUsage().maxRSS / 1024,
};
console.log(JSON.stringify(run));
