// The time-sharing strategies, by name (the CLI help, the README and experiments will read this list).
// Adding one is one file in strategies/ and one line below.
import { boost } from './strategies/boost.js';
import { demand } from './strategies/demand.js';
import { gang } from './strategies/gang.js';
import { gangBackfill } from './strategies/gang-backfill.js';
import { local } from './strategies/local.js';
import { spinBlock } from './strategies/spin-block.js';
import type { TimeshareStrategy } from './strategies/strategy.js';

export type { SchedulerConfig, StrategyParameter, TimeshareStrategy } from './strategies/strategy.js';

const STRATEGIES: readonly TimeshareStrategy[] = [gang, gangBackfill, local, spinBlock, demand, boost];

export function listTimeshareStrategies(): readonly TimeshareStrategy[] {
  return STRATEGIES;
}

export function getTimeshareStrategy(name: string): TimeshareStrategy {
  const found = STRATEGIES.find((s) => s.name === name);
  if (found !== undefined) return found;
  throw new Error(`unknown time-sharing strategy "${name}"; expected one of: ${STRATEGIES.map((s) => s.name).join(', ')}`);
}
