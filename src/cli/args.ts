// Typed readers for parsed command-line values, with usage errors that name the option.
import type { CommandArgs } from './command.js';
import { UsageError } from './command.js';

export function stringOption(args: CommandArgs, name: string): string | undefined {
  const v = args.values[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new UsageError(`--${name} takes a value`);
  return v;
}

export function requiredString(args: CommandArgs, name: string): string {
  const v = stringOption(args, name);
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
}

export function flagOption(args: CommandArgs, name: string): boolean {
  return args.values[name] === true;
}

export function numberOption(
  args: CommandArgs,
  name: string,
  fallback: number,
  bounds: { min?: number; max?: number; integer?: boolean } = {},
): number {
  const raw = stringOption(args, name);
  if (raw === undefined) return fallback;
  const v = Number(raw);
  const { min = -Infinity, max = Infinity, integer = false } = bounds;
  if (raw.trim() === '' || !Number.isFinite(v) || (integer && !Number.isInteger(v)) || v < min || v > max) {
    const kind = integer ? 'a whole number' : 'a number';
    const range = min > -Infinity || max < Infinity ? ` from ${min} to ${max}` : '';
    throw new UsageError(`--${name} takes ${kind}${range}, got '${raw}'`);
  }
  return v;
}

/** Whether the user wrote --name (a default value in `values` does not count). */
export function optionGiven(args: CommandArgs, name: string): boolean {
  return args.given ? args.given.has(name) : args.values[name] !== undefined;
}
