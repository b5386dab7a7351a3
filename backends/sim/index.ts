// The simulated grid backend.
export { simulate } from './simulate.js';
export type { LinkStats, ResourceStats, SimulationInput, SimulationResult } from './simulate.js';
export { runSimulation, type SimScheduler } from './run-simulation.js';
export { SimEngine, MAX_IDLE_TIMER_FIRINGS, type SimEngineOptions, type EngineOutcome } from './engine.js';
export { EventKind } from './event-queue.js';
