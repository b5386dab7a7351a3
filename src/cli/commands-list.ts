// The sub-commands, in the order --help lists them. Each name is a module src/cli/commands/<name>.ts.
export const COMMAND_NAMES = [
  'validate',
  'simulate',
  'experiment',
  'plot',
  'demo',
  'generate',
  'describe',
  'run',
  'probe',
  'report',
  'dashboard',
] as const;
