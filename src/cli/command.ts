// What every `gridsweep` sub-command provides. Each lives in src/cli/commands/<name>.ts and default-exports one.
import type { ParseArgsConfig } from 'node:util';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>[string] & {
  /** One line for --help; for string options, name the value in `valueName`. */
  readonly description: string;
  readonly valueName?: string;
};

export interface CommandArgs {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
  /** The options written on the command line (values also holds defaults); absent when built in code. */
  readonly given?: ReadonlySet<string>;
}

export interface Command {
  readonly name: string;
  /** One line for `gridsweep --help`. */
  readonly summary: string;
  /** The synopsis, e.g. `gridsweep validate FILE...`. */
  readonly usage: string;
  /** Longer help text printed after the options, or '' . */
  readonly details: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Bounds on the number of positional arguments. */
  readonly positionals: { readonly min: number; readonly max: number };
  /** Runs the command; resolves to the process exit code. Throw InputError or UsageError for bad input. */
  run(args: CommandArgs): Promise<number>;
}

/** Bad command-line usage: printed with the command's usage line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
