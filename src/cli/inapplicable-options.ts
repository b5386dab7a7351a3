// Options the user gave that cannot change this run: a strategy parameter without its strategy
// (--noise-bound without --quality noisy), --random-tolerance with a heuristic that draws nothing, batch
// submission options on a grid without a batch cluster. Each gets a warning on stderr and the run goes on,
// as it would without the option; options whose absence makes a run meaningless are usage errors instead,
// where the command reads them (e.g. `--compare goes with --dashboard`).
import type { CommandArgs } from './command.js';
import { optionGiven } from './args.js';
import { flagOfField } from './scheduler-flags.js';
import { isPluginRef } from '../scheduler/heuristics/plugin.js';
import type { SchedulerOptions } from '../scheduler/options.js';
import type { GridDescription } from '../model/grid.js';

/**
 * The strategy parameters that only some choices of their family read: field → [family option, choices].
 * planIntervalS is read by every planEvents choice (the first interval under S2/S3), so it is not here.
 * test/cli/inapplicable-options.test.ts checks that every strategy parameter of the registry is here or
 * named as always read.
 */
export const PARAMETER_USED_BY: Readonly<Record<string, readonly [option: string, choices: readonly string[]]>> = {
  noiseBound: ['quality', ['noisy']],
  overdueGraceS: ['runningEstimate', ['overdue']],
  minPlanIntervalS: ['planEvents', ['deviation', 'weighted-deviation']],
  maxPlanIntervalS: ['planEvents', ['deviation', 'weighted-deviation']],
  deviationThreshold: ['planEvents', ['deviation', 'weighted-deviation']],
  deltaS: ['deltaStrategy', ['constant']],
  deltaFraction: ['deltaStrategy', ['proportional']],
  worksPerHost: ['planFill', ['per-host']],
  taskSpaceSize: ['taskSpace', ['random', 'shared-files']],
  hybridWaitS: ['linkOrder', ['hybrid']],
  hybridMaxSkips: ['linkOrder', ['hybrid']],
};

/** The strategy parameters every choice of their family reads. */
export const PARAMETERS_ALWAYS_USED: readonly string[] = ['planIntervalS'];

/** Warnings for scheduler options given on the command line that the chosen strategies never read. */
export function schedulerOptionWarnings(args: CommandArgs, options: SchedulerOptions): string[] {
  const chosen = options as unknown as Record<string, unknown>;
  const out: string[] = [];
  for (const [field, [option, choices]] of Object.entries(PARAMETER_USED_BY)) {
    const flag = flagOfField(field);
    if (!optionGiven(args, flag) || choices.includes(String(chosen[option]))) continue;
    const needs = choices.map((c) => `--${flagOfField(option)} ${c}`).join(' or ');
    out.push(`--${flag} has no effect without ${needs} (this run uses --${flagOfField(option)} ${String(chosen[option])}); it is ignored`);
  }
  const heuristic = options.heuristic;
  if (optionGiven(args, 'random-tolerance') && !heuristic.startsWith('randomized-') && !isPluginRef(heuristic)) {
    out.push(`--random-tolerance has no effect on ${heuristic}, which draws nothing (only the randomized-* heuristics do); it is ignored`);
  }
  return out;
}

/** The batch submission options (submission-flags.ts). */
const SUBMISSION_FLAGS = ['submission', 'pilots', 'pilot-cores', 'pilot-walltime'] as const;

/** Warnings for batch submission options that cannot apply to this grid or this submission strategy. */
export function submissionWarnings(args: CommandArgs, grid: GridDescription): string[] {
  const given = SUBMISSION_FLAGS.filter((f) => optionGiven(args, f));
  if (given.length === 0) return [];
  if (!grid.events.some((e) => e.kind === 'ADD_BATCH_CLUSTER')) {
    return [`${given.map((f) => `--${f}`).join(', ')}: no effect, the grid has no batch cluster (ADD_BATCH_CLUSTER); ignored`];
  }
  if (optionGiven(args, 'pilot-cores') && args.values['submission'] === 'per-work') {
    return ['--pilot-cores has no effect with --submission per-work (each job asks for one core); it is ignored'];
  }
  return [];
}

/** Prints each warning as `gridsweep COMMAND: warning: ...` on stderr. */
export function printWarnings(command: string, warnings: readonly string[]): void {
  for (const w of warnings) console.error(`gridsweep ${command}: warning: ${w}`);
}
