// What a strategy family is: one SchedulerOptions field whose values are registered by name with a one-line
// help (like the heuristics), plus the numeric options that tune it. The registry (registry.ts) lists them
// for the CLI help, the docs and the experiment tool.

export interface StrategyChoice<N extends string = string> {
  readonly name: N;
  /** One line. */
  readonly help: string;
}

/** A numeric SchedulerOptions field that tunes a family, with its one-line help. */
export interface StrategyParameter {
  readonly name: string;
  /** One line, with the unit. */
  readonly help: string;
}

export interface StrategyFamily {
  /** The SchedulerOptions field that picks a value. */
  readonly option: string;
  /** Where Berman et al. 1999 discusses it. */
  readonly section: string;
  /** One line. */
  readonly help: string;
  readonly choices: readonly StrategyChoice[];
  /** The numeric SchedulerOptions fields that tune this family. */
  readonly parameters: readonly StrategyParameter[];
}

/** The value names of a family, checked: throws listing the valid names. */
export function checkChoice<N extends string>(family: StrategyFamily, value: string): N {
  if (family.choices.some((c) => c.name === value)) return value as N;
  throw new Error(`unknown ${family.option} "${value}"; expected one of: ${family.choices.map((c) => c.name).join(', ')}`);
}
