// The time-sharing strategies' parameters as `gridsweep trace` flags, generated from the registry
// (src/batch/timeshare/registry.ts): one flag per parameter name, its help from the first strategy that
// has it, the strategies that read it and their defaults. Reading them: only the flags given, checked
// against the chosen strategy (a flag it does not read is a usage error naming the ones it does).
import type { CommandArgs, OptionSpec } from './command.js';
import { UsageError } from './command.js';
import { optionGiven, stringOption } from './args.js';
import { listTimeshareStrategies, type StrategyParameter } from '../batch/timeshare/registry.js';

interface FlagInfo {
  readonly parameter: StrategyParameter;
  /** Strategy name → its default for this parameter. */
  readonly defaults: Map<string, number>;
}

/** Every parameter name of every strategy, in registry order. */
function parameterFlags(): Map<string, FlagInfo> {
  const out = new Map<string, FlagInfo>();
  for (const s of listTimeshareStrategies()) {
    for (const p of s.parameters) {
      const info = out.get(p.name) ?? { parameter: p, defaults: new Map<string, number>() };
      info.defaults.set(s.name, p.defaultValue);
      out.set(p.name, info);
    }
  }
  return out;
}

const showNumber = (v: number): string => (v === Infinity ? 'Infinity' : String(v));

/** One row per parameter: its flag's help, the strategies that read it ('all' for every one) and its default(s). */
export interface TimeshareParameterRow {
  readonly name: string;
  readonly help: string;
  readonly integer: boolean;
  readonly strategies: string;
  /** "0.1", or per strategy where they differ: "0.0002 (spin-block, demand), Infinity (boost)". */
  readonly defaults: string;
}

export function timeshareParameterRows(): TimeshareParameterRow[] {
  const all = listTimeshareStrategies().length;
  return [...parameterFlags()].map(([name, { parameter, defaults }]) => {
    const byValue = new Map<string, string[]>();
    for (const [s, v] of defaults) byValue.set(showNumber(v), [...(byValue.get(showNumber(v)) ?? []), s]);
    const text = byValue.size === 1 ? [...byValue.keys()][0]! : [...byValue].map(([v, ss]) => `${v} (${ss.join(', ')})`).join(', ');
    return { name, help: parameter.help, integer: parameter.integer === true, strategies: defaults.size === all ? 'all' : [...defaults.keys()].join(', '), defaults: text };
  });
}

/** The option specs, for the command's `options`. */
export function timeshareOptionSpecs(): Record<string, OptionSpec> {
  const out: Record<string, OptionSpec> = {};
  for (const r of timeshareParameterRows()) {
    out[r.name] = { type: 'string', description: `time-sharing: ${r.help} (${r.strategies === 'all' ? 'every strategy' : r.strategies}; default ${r.defaults})`, valueName: r.integer ? 'N' : 'S' };
  }
  return out;
}

/** The names of every strategy parameter flag. */
export function timeshareFlagNames(): string[] {
  return [...parameterFlags().keys()];
}

/** The parameter values given on the command line for `strategy`; usage errors for flags it does not read or values that are not numbers. */
export function readTimeshareFlags(args: CommandArgs, strategy: string): Record<string, number> {
  const own = listTimeshareStrategies().find((s) => s.name === strategy)!;
  const values: Record<string, number> = {};
  for (const name of timeshareFlagNames()) {
    if (!optionGiven(args, name)) continue;
    if (!own.parameters.some((p) => p.name === name)) {
      throw new UsageError(`--${name} does not apply to --timeshare ${strategy}; its parameters are ${own.parameters.map((p) => `--${p.name}`).join(', ')}`);
    }
    const raw = stringOption(args, name)!.trim();
    const choices = own.parameters.find((p) => p.name === name)!.choices;
    const chosen = choices?.indexOf(raw.toLowerCase()) ?? -1;
    const v = chosen >= 0 ? chosen : /^\+?inf(inity)?$/i.test(raw) ? Infinity : raw === '' ? NaN : Number(raw);
    if (Number.isNaN(v)) {
      const names = choices === undefined ? '' : ` or one of ${choices.map((c, i) => `${c} (${i})`).join(', ')}`;
      throw new UsageError(`--${name} takes a number (or Infinity)${names}, got '${raw}'`);
    }
    values[name] = v;
  }
  return values;
}
