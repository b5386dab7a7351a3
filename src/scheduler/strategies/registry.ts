// The one list of scheduler strategies (Berman et al. 1999, §5.2, §5.6): for each SchedulerOptions field that picks a
// strategy, its registered values with a one-line help and the numeric options that tune it. The CLI help,
// the docs and the experiment tool read it. Adding a value is a line in its family's file.
import { deltaFamily } from './delta.js';
import type { StrategyFamily } from './family.js';
import { hostCandidatesFamily } from './host-candidates.js';
import { linkOrderFamily } from './link-order.js';
import { planFillFamily } from './plan-fill.js';
import { planEventsFamily, replanOnFamily } from './plan-events.js';
import { qualityFamily, resourcePredictorFamily } from './quality.js';
import { runningEstimateFamily } from './running-estimate.js';
import { taskSpaceFamily } from './task-space.js';
import { checkChoice } from './family.js';
import type { SchedulerOptions } from '../options.js';

export type { StrategyChoice, StrategyFamily } from './family.js';

const FAMILIES: readonly StrategyFamily[] = [
  qualityFamily,
  resourcePredictorFamily,
  runningEstimateFamily,
  planEventsFamily,
  deltaFamily,
  planFillFamily,
  replanOnFamily,
  taskSpaceFamily,
  linkOrderFamily,
  hostCandidatesFamily,
];

export function listStrategyFamilies(): readonly StrategyFamily[] {
  return FAMILIES;
}

/** The valid values of each strategy field, e.g. { linkOrder: ['greedy', 'keep', 'hybrid'], … }. */
export function strategyEnums(): Record<string, readonly string[]> {
  return Object.fromEntries(FAMILIES.map((f) => [f.option, f.choices.map((c) => c.name)]));
}

/** Throws, naming the field and the valid values, if an option names an unregistered strategy. */
export function checkStrategies(options: Partial<SchedulerOptions>): void {
  for (const family of FAMILIES) {
    const value = (options as Record<string, unknown>)[family.option];
    if (value !== undefined) checkChoice(family, String(value));
  }
}
