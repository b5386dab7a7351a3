// The sub-commands, each loaded only when used; --help lists them in COMMAND_SUMMARIES's order.
import type { Command } from './command.js';
import { COMMAND_SUMMARIES, type CommandName } from './command-summaries.js';

type Loader = () => Promise<{ default: Command }>;

export const COMMAND_LOADERS: Readonly<Record<CommandName, Loader>> = {
  validate: () => import('./commands/validate.js'),
  simulate: () => import('./commands/simulate.js'),
  experiment: () => import('./commands/experiment.js'),
  trace: () => import('./commands/trace.js'),
  map: () => import('./commands/map.js'),
  plot: () => import('./commands/plot.js'),
  demo: () => import('./commands/demo.js'),
  generate: () => import('./commands/generate.js'),
  describe: () => import('./commands/describe.js'),
  'check-heuristic': () => import('./commands/check-heuristic.js'),
  run: () => import('./commands/run.js'),
  probe: () => import('./commands/probe.js'),
  report: () => import('./commands/report.js'),
  dashboard: () => import('./commands/dashboard.js'),
};

export const COMMAND_NAMES: readonly CommandName[] = Object.keys(COMMAND_SUMMARIES) as CommandName[];
