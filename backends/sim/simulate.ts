// simulate(): one run of the project's scheduler on the simulated grid. The experiment tool, the
// `simulate` command and the dashboard call this.
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { runSimulation, runSimulationStepped, type SimulationInput, type SimulationResult, type SteppedSimulationOptions } from './run-simulation.js';

export type { LinkStats, ResourceStats, SimulationInput, SimulationProgress, SimulationResult, SteppedSimulationOptions } from './run-simulation.js';

export function simulate(input: SimulationInput): SimulationResult {
  return runSimulation(input, (deps) => new Scheduler(input.app, input.scheduler, deps));
}

/** simulate() in steps, with progress and a way to stop between steps (run-simulation.ts). */
export function simulateStepped(input: SimulationInput, options: SteppedSimulationOptions): Promise<SimulationResult | undefined> {
  return runSimulationStepped(input, (deps) => new Scheduler(input.app, input.scheduler, deps), options);
}
