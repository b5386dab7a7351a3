// The scheduler's command-line options, built from SchedulerOptions' defaults, the heuristic registry and
// the strategy registry, so that a new heuristic or strategy reaches every command without editing it.
import type { CommandArgs, OptionSpec } from './command.js';
import { UsageError } from './command.js';
import { flagOption, numberOption, stringOption } from './args.js';
import { getHeuristic, listHeuristics } from '../scheduler/heuristics/registry.js';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../scheduler/options.js';
import { listStrategyFamilies } from '../scheduler/strategies/registry.js';


function kebab(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The numeric fields with flags of their own, and their lower bounds. */
const NUMERIC: Readonly<Record<string, { flag: string; description: string; integer?: boolean }>> = {
  planIntervalS: { flag: 'plan-interval', description: 'seconds between scheduling events (S2/S3: the first interval)' },
  deltaS: { flag: 'delta', description: 'Δ: plan until every host has work past t(i+1) + Δ' },
  planDurationS: { flag: 'plan-duration', description: 'simulated duration of one do_plan()' },
  keepWorksPerHost: { flag: 'keep-works', description: 'works kept at the head of each host FIFO at re-planning', integer: true },
  randomTolerance: { flag: 'random-tolerance', description: 'randomized heuristics: relative tolerance around the best' },
};

function strategyParameterFlags(): [string, string][] {
  const seen = new Set<string>();
  const out: [string, string][] = [];
  for (const family of listStrategyFamilies()) {
    for (const p of family.parameters) {
      if (seen.has(p) || NUMERIC[p]) continue;
      seen.add(p);
      out.push([p, kebab(p)]);
    }
  }
  return out;
}

/** The flags, with the defaults a command uses (simulate: DEFAULT_SCHEDULER_OPTIONS). */
export function schedulerFlags(defaults: SchedulerOptions = DEFAULT_SCHEDULER_OPTIONS): Record<string, OptionSpec> {
  const d = defaults as SchedulerOptions & Record<string, unknown>;
  const flags: Record<string, OptionSpec> = {
    heuristic: {
      type: 'string',
      valueName: 'H',
      description: `task/host selection heuristic: ${listHeuristics().map((h) => h.name).join(' | ')}`,
      default: d.heuristic,
    },
  };
  for (const [field, spec] of Object.entries(NUMERIC)) {
    flags[spec.flag] = { type: 'string', valueName: spec.integer ? 'N' : 'X', description: spec.description, default: String(d[field]) };
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
    flags[flag] = { type: 'string', valueName: 'X', description: `strategy parameter ${field}`, default: String(d[field]) };
  }
  return flags;
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
