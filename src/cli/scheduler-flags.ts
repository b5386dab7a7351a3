// The scheduler's command-line options, built from SchedulerOptions' defaults, the heuristic registry and
// the strategy registry, so that a new heuristic or strategy reaches every command without editing it.
import type { CommandArgs, OptionSpec } from './command.js';
import { UsageError } from './command.js';
import { flagOption, numberOption, stringOption } from './args.js';
import { getHeuristic, listHeuristics } from '../scheduler/heuristics/registry.js';
import { isPluginRef, loadPlugin } from '../scheduler/heuristics/plugin.js';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../scheduler/options.js';
import { listStrategyFamilies } from '../scheduler/strategies/registry.js';


/** A field's flag: kebab-case, without the seconds suffix of its name (overdueGraceS → overdue-grace). */
function kebab(field: string): string {
  return field.replace(/(?<=[a-z])S$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Numeric fields whose flags are not named after the field (the strategy parameters' help comes from the registry). */
const NUMERIC: Readonly<Record<string, { flag: string; description?: string; integer?: boolean }>> = {
  planIntervalS: { flag: 'plan-interval' },
  deltaS: { flag: 'delta' },
  planDurationS: { flag: 'plan-duration', description: 'simulated duration of one do_plan()' },
  keepWorksPerHost: { flag: 'keep-works', description: 'works kept at the head of each host FIFO at re-planning', integer: true },
  randomTolerance: { flag: 'random-tolerance', description: 'randomized heuristics: relative tolerance around the best' },
};

/** The flag of a SchedulerOptions field: --plan-interval for planIntervalS, --noise-bound for noiseBound. */
export function flagOfField(field: string): string {
  return NUMERIC[field]?.flag ?? kebab(field);
}

/** Every strategy parameter's help, from the registry. */
function parameterHelp(): Map<string, string> {
  const help = new Map<string, string>();
  for (const family of listStrategyFamilies()) for (const p of family.parameters) help.set(p.name, p.help);
  return help;
}

/** The strategy parameters without a flag in NUMERIC: [field, flag], each once. */
function strategyParameterFlags(): [string, string][] {
  return [...parameterHelp().keys()].filter((p) => !NUMERIC[p]).map((p) => [p, kebab(p)]);
}

/** The flags, with the defaults a command uses (simulate: DEFAULT_SCHEDULER_OPTIONS). */
export function schedulerFlags(defaults: SchedulerOptions = DEFAULT_SCHEDULER_OPTIONS): Record<string, OptionSpec> {
  const d = defaults as SchedulerOptions & Record<string, unknown>;
  const flags: Record<string, OptionSpec> = {
    heuristic: {
      type: 'string',
      valueName: 'H',
      description: `task/host selection heuristic: ${listHeuristics().map((h) => h.name).join(' | ')} | the path of a plug-in (./my-heuristic.js, docs/plugins.md)`,
      default: d.heuristic,
    },
  };
  const help = parameterHelp();
  for (const [field, spec] of Object.entries(NUMERIC)) {
    const description = spec.description ?? help.get(field);
    if (description === undefined) throw new Error(`bug: no help for --${spec.flag}`);
    flags[spec.flag] = { type: 'string', valueName: spec.integer ? 'N' : 'X', description, default: String(d[field]) };
  }
  flags['work-stealing'] = { type: 'boolean', description: 'an idle host may take a ready work queued on another host of its cluster' };
  for (const family of listStrategyFamilies()) {
    flags[kebab(family.option)] = {
      type: 'string',
      valueName: 'NAME',
      description: `${family.help} (§${family.section}): ${family.choices.map((c) => c.name).join(' | ')}`,
      default: String(d[family.option]),
    };
  }
  for (const [field, flag] of strategyParameterFlags()) {
    flags[flag] = { type: 'string', valueName: 'X', description: help.get(field)!, default: String(d[field]) };
  }
  return flags;
}

/** Loads the heuristic plug-ins among `names` (paths, relative to the current folder), before the options are read. */
export async function loadHeuristicPlugins(names: readonly (string | undefined)[]): Promise<void> {
  for (const name of names) if (name !== undefined && isPluginRef(name)) await loadPlugin(name);
}

/** SchedulerOptions from the flags of schedulerFlags(); bad values are usage errors naming the flag. */
export function schedulerOptionsFromArgs(args: CommandArgs, defaults: SchedulerOptions = DEFAULT_SCHEDULER_OPTIONS): SchedulerOptions {
  const d = defaults as SchedulerOptions & Record<string, unknown>;
  const out: Record<string, unknown> = { ...d };
  const name = stringOption(args, 'heuristic') ?? d.heuristic;
  try {
    out.heuristic = getHeuristic(name).name;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  for (const [field, spec] of Object.entries(NUMERIC)) {
    out[field] = numberOption(args, spec.flag, d[field] as number, { min: 0, integer: spec.integer ?? false });
  }
  out.workStealing = flagOption(args, 'work-stealing') || d.workStealing;
  for (const family of listStrategyFamilies()) {
    const flag = kebab(family.option);
    const value = stringOption(args, flag);
    if (value === undefined) continue;
    const names = family.choices.map((c) => c.name);
    if (!names.includes(value)) throw new UsageError(`--${flag} takes one of ${names.join(', ')}, got '${value}'`);
    out[family.option] = value;
  }
  for (const [field, flag] of strategyParameterFlags()) {
    out[field] = numberOption(args, flag, d[field] as number, { min: 0 });
  }
  return out as unknown as SchedulerOptions;
}

/** Every strategy choice with its one-line help, for the details of the commands that take these flags. */
export function strategyChoicesHelp(): string {
  const lines = ['Strategy choices (the flags above; each value with what it does):'];
  for (const family of listStrategyFamilies()) {
    const width = Math.max(...family.choices.map((c) => c.name.length));
    lines.push(`  --${kebab(family.option)}`);
    for (const c of family.choices) lines.push(`    ${c.name.padEnd(width)}  ${c.help}`);
  }
  return lines.join('\n');
}
