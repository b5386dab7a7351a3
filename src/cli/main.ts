#!/usr/bin/env -S node --max-semi-space-size=32
// The `gridsweep` command: dispatches to a sub-command, parses its options strictly, prints help and errors.
// Its first line gives node the larger young generation simulations need (src/util/young-generation.ts).
import { parseArgs } from 'node:util';
import { UsageError } from './command.js';
import { commandHelp, mainHelp } from './help.js';
import { loadAllCommands, loadCommand } from './registry.js';
import { InputError } from '../util/diagnostics.js';
import { PluginError } from '../scheduler/heuristics/plugin.js';
import { GRIDSWEEP_VERSION } from '../version.js';

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(mainHelp(await loadAllCommands()));
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    console.log(GRIDSWEEP_VERSION);
    return 0;
  }
  const command = await loadCommand(name);
  if (!command) {
    console.error(`gridsweep: unknown command '${name}'. Run 'gridsweep --help' for the list.`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(commandHelp(command));
    return 0;
  }
  try {
    const options = Object.fromEntries(
      Object.entries(command.options).map(([k, { description: _d, valueName: _v, ...o }]) => [k, o]),
    );
    const parsed = parseArgs({ args: [...rest], options, allowPositionals: true, strict: true });
    const { min, max } = command.positionals;
    if (parsed.positionals.length < min || parsed.positionals.length > max) {
      throw new UsageError(
        max === 0
          ? `takes no arguments, got ${parsed.positionals.length}`
          : `expects ${min === max ? min : `${min} to ${max === Infinity ? 'any number of' : max}`} argument(s), got ${parsed.positionals.length}`,
      );
    }
    return await command.run({ values: parsed.values, positionals: parsed.positionals });
  } catch (err) {
    if (err instanceof InputError) {
      console.error(err.message);
      return 1;
    }
    if (err instanceof PluginError) {
      console.error(`gridsweep ${name}: ${err.message}`);
      return 1;
    }
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`gridsweep ${name}: ${(err as Error).message}\nUsage: ${command.usage}\nRun 'gridsweep ${name} --help' for the options.`);
      return 2;
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
    process.exitCode = 70;
  },
);
