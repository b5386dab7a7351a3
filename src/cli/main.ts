#!/usr/bin/env -S node --max-semi-space-size=32
// The `gridsweep` command: dispatches to a sub-command, parses its options strictly, prints help and errors.
// Its first line gives node the larger young generation simulations need (src/util/young-generation.ts).
import { parseArgs } from 'node:util';
import { UsageError, type Command } from './command.js';
import { COMMAND_NAMES } from './commands-list.js';
import { EXIT } from './exit-codes.js';
import { closestName } from '../util/names.js';
import { commandHelp, mainHelp } from './help.js';
import { renameOldOptions } from './option-scheme.js';
import { loadCommand } from './registry.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { InputError } from '../util/diagnostics.js';
import { PluginError } from '../scheduler/heuristics/plugin.js';
import { StallError } from '../batch/timeshare/stall-guard.js';
import { JournalBusyError } from '../../backends/real/journal-lock.js';
import { OriginWriteError } from '../../backends/real/origin-failure.js';
import { GRIDSWEEP_VERSION } from '../version.js';

/** "unknown command 'X'", with the closest command name when one is near. */
function unknownCommand(name: string): string {
  const near = closestName(name, COMMAND_NAMES);
  return `gridsweep: unknown command '${name}'${near ? ` (did you mean '${near}'?)` : ''}. Run 'gridsweep --help' for the list.`;
}

/** Node's "Unknown option '--x'" rewritten as ours, with the closest option of the command. */
function unknownOption(err: unknown, command: Command): string | undefined {
  if ((err as { code?: string }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
  const given = /Unknown option '([^']+)'/.exec((err as Error).message)?.[1];
  if (given === undefined) return undefined;
  const names = [...Object.keys(command.options), 'help'];
  const near = given.startsWith('--') ? closestName(given.slice(2).split('=')[0]!, names) : undefined;
  return `unknown option '${given}'${near ? `; did you mean --${near}?` : ''}`;
}

/** An error from the file system about a path (ENOENT, ENOTDIR, EACCES, ENOSPC, …). */
function isFileSystemError(err: unknown): err is NodeJS.ErrnoException {
  const e = err as NodeJS.ErrnoException;
  return e instanceof Error && typeof e.code === 'string' && typeof e.syscall === 'string' && typeof e.path === 'string';
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    console.log(mainHelp(COMMAND_NAMES.map((n) => ({ name: n, summary: COMMAND_SUMMARIES[n] }))));
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version') {
    console.log(GRIDSWEEP_VERSION);
    return EXIT.ok;
  }
  if (name === 'help') {
    // `gridsweep help CMD`, as git and cargo have it
    const target = await loadCommand(rest[0]!);
    if (!target || rest.length > 1) {
      console.error(target ? 'gridsweep help: takes one command name, e.g. gridsweep help simulate' : unknownCommand(rest[0]!));
      return EXIT.usage;
    }
    console.log(commandHelp(target));
    return EXIT.ok;
  }
  const command = await loadCommand(name);
  if (!command) {
    console.error(unknownCommand(name));
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(commandHelp(command));
    return EXIT.ok;
  }
  try {
    const options = Object.fromEntries(
      Object.entries(command.options).map(([k, { description: _d, valueName: _v, ...o }]) => [k, o]),
    );
    const renamed = renameOldOptions(name, new Set(Object.keys(command.options)), rest);
    for (const note of renamed.notes) console.error(note);
    const parsed = parseArgs({ args: renamed.args, options, allowPositionals: true, strict: true, tokens: true });
    const { min, max } = command.positionals;
    if (parsed.positionals.length < min || parsed.positionals.length > max) {
      throw new UsageError(
        max === 0
          ? `takes no arguments, got ${parsed.positionals.length}`
          : `expects ${min === max ? min : `${min} to ${max === Infinity ? 'any number of' : max}`} argument(s), got ${parsed.positionals.length}`,
      );
    }
    const given = new Set(parsed.tokens.flatMap((t) => (t.kind === 'option' ? [t.name] : [])));
    return await command.run({ values: parsed.values, positionals: parsed.positionals, given });
  } catch (err) {
    if (err instanceof InputError) {
      console.error(err.message);
      return EXIT.failure;
    }
    if (isFileSystemError(err)) {
      // A path that cannot be read or written (a file where a folder should be, no permission, a full
      // disk): the user's to fix, so one line, not a stack.
      console.error(`gridsweep ${name}: ${err.message}`);
      return EXIT.failure;
    }
    if (err instanceof PluginError || err instanceof StallError || err instanceof JournalBusyError || err instanceof OriginWriteError) {
      console.error(`gridsweep ${name}: ${err.message}`);
      return EXIT.failure;
    }
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`gridsweep ${name}: ${unknownOption(err, command) ?? (err as Error).message}\nUsage: ${command.usage}\nRun 'gridsweep ${name} --help' for the options.`);
      return EXIT.usage;
    }
    throw err;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`gridsweep: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exitCode = EXIT.internal;
  },
);
