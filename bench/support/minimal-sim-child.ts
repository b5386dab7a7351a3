// A process that reads an application and a grid description and simulates them with the minimal work
// queue (the SimGrid twin's policy), printing {"makespanS": …}: gridsweep's side of the SimGrid comparison,
// parse included, timed from spawn to exit by simgrid.bench.ts, which gives it node's larger young generation
// as the gridsweep command has (src/util/young-generation.ts).
import { loadApplication, loadGrid } from '../../src/formats/index.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { runSimulation } from '../../backends/sim/run-simulation.js';
import { MinimalWorkQueue } from './minimal-work-queue.js';

const [appPath, gridPath] = process.argv.slice(2);
if (appPath === undefined || gridPath === undefined) throw new Error('usage: minimal-sim-child APP GRID');
const app = loadApplication(appPath);
const { grid } = loadGrid(gridPath);
const r = runSimulation({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'minimal-work-queue' }, seed: 1 }, (deps) => new MinimalWorkQueue(deps, app));
if (!r.finished) throw new Error('the simulation did not finish');
console.log(JSON.stringify({ makespanS: r.makespanS }));
