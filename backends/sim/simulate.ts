// simulate(): one run of the project's scheduler on the simulated grid. The experiment tool, the
// `simulate` command and the dashboard call this.
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { runSimulation, type SimulationInput, type SimulationResult } from './run-simulation.js';

export type { LinkStats, ResourceStats, SimulationInput, SimulationResult } from './run-simulation.js';

export function simulate(input: SimulationInput): SimulationResult {
  return runSimulation(input, (deps) => new Scheduler(input.app, input.scheduler, deps));
}
