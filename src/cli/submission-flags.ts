// The command-line options of the submission strategy (src/batch/submission.ts): how a sweep gets cores
// on the batch clusters of its grid.
import type { CommandArgs, OptionSpec } from './command.js';
import { numberOption, stringOption } from './args.js';
import { UsageError } from './command.js';
import { DEFAULT_SUBMISSION, SUBMISSION_PARAMETERS, SUBMISSION_STRATEGIES, type SubmissionOptions } from '../batch/submission.js';

export function submissionFlags(): Record<string, OptionSpec> {
  return {
    submission: { type: 'string', valueName: 'NAME', description: `batch clusters: how the sweep gets cores: ${SUBMISSION_STRATEGIES.map((s) => s.name).join(' | ')}`, default: DEFAULT_SUBMISSION.strategy },
    ...Object.fromEntries(
      SUBMISSION_PARAMETERS.map((p) => [p.flag, { type: 'string', valueName: 'N', description: `batch clusters: ${p.help}`, ...(p.default === undefined ? {} : { default: p.default }) }]),
    ),
  };
}

export function submissionFromArgs(args: CommandArgs): SubmissionOptions {
  const cores = stringOption(args, 'pilot-cores');
  const strategy = stringOption(args, 'submission') ?? DEFAULT_SUBMISSION.strategy;
  if (strategy !== 'pilots' && strategy !== 'per-work') throw new UsageError(`--submission takes ${SUBMISSION_STRATEGIES.map((s) => s.name).join(', ')}, got '${strategy}'`);
  return {
    strategy,
    pilots: numberOption(args, 'pilots', DEFAULT_SUBMISSION.pilots, { min: 1, integer: true }),
    ...(cores === undefined ? {} : { pilotCores: numberOption(args, 'pilot-cores', 1, { min: 1, integer: true }) }),
    pilotWalltimeS: numberOption(args, 'pilot-walltime', DEFAULT_SUBMISSION.pilotWalltimeS, { min: 1 }),
  };
}
