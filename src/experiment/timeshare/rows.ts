// What one run of a time-sharing experiment measured (a row of results.json / results.csv), and the rows
// that differ only by seed averaged into one (summary.md and the plots).

/** Shares of the CPUs' time over the run (Σ nodes × makespan = 1). */
export interface ProfileShares {
  readonly compute: number;
  readonly spin: number;
  readonly switch: number;
  readonly interrupt: number;
  readonly idle: number;
}

export const PROFILE_PARTS: readonly (keyof ProfileShares)[] = ['compute', 'spin', 'switch', 'interrupt', 'idle'];

export interface TimeshareRow {
  readonly workload: string;
  /** null for an SWF workload (its arrivals are its own). */
  readonly load: number | null;
  readonly seed: number | null;
  /** The configuration's name in the spec, and the strategy it runs. */
  readonly config: string;
  readonly strategy: string;
  readonly mpl: number;
  readonly sliceS: number;
  readonly jobs: number;
  readonly makespanS: number;
  readonly meanResponseS: number;
  readonly meanExecutionS: number;
  readonly meanWaitS: number;
  /** Mean over jobs of the pace of progress (1: never slowed). */
  readonly meanPace: number;
  readonly profile: ProfileShares;
  readonly lossOfCpu: number;
  readonly lossOfCapacity: number;
  readonly schedulingSkewnessS: number;
  readonly responseCv: number;
  readonly classResponseCv: number;
  readonly classMeanResponseS: Readonly<Record<string, number>>;
  readonly events: number;
  readonly messages: number;
}

/** Rows that differ only by seed, averaged: one per workload × load × configuration × MPL × slice, in first-seen order. */
export interface TimeshareGroup {
  readonly workload: string;
  readonly load: number | null;
  readonly config: string;
  readonly strategy: string;
  readonly mpl: number;
  readonly sliceS: number;
  readonly runs: number;
  readonly meanResponseS: number;
  readonly meanExecutionS: number;
  readonly meanWaitS: number;
  readonly makespanS: number;
  readonly lossOfCpu: number;
  readonly schedulingSkewnessS: number;
  readonly profile: ProfileShares;
}

export function groupOverSeeds(rows: readonly TimeshareRow[]): TimeshareGroup[] {
  const groups = new Map<string, TimeshareRow[]>();
  for (const r of rows) {
    const key = JSON.stringify([r.workload, r.load, r.config, r.mpl, r.sliceS]);
    const list = groups.get(key) ?? [];
    list.push(r);
    groups.set(key, list);
  }
  return [...groups.values()].map((list) => {
    const m = (f: (r: TimeshareRow) => number) => list.reduce((a, r) => a + f(r), 0) / list.length;
    const first = list[0]!;
    return {
      workload: first.workload,
      load: first.load,
      config: first.config,
      strategy: first.strategy,
      mpl: first.mpl,
      sliceS: first.sliceS,
      runs: list.length,
      meanResponseS: m((r) => r.meanResponseS),
      meanExecutionS: m((r) => r.meanExecutionS),
      meanWaitS: m((r) => r.meanWaitS),
      makespanS: m((r) => r.makespanS),
      lossOfCpu: m((r) => r.lossOfCpu),
      schedulingSkewnessS: m((r) => r.schedulingSkewnessS),
      profile: { compute: m((r) => r.profile.compute), spin: m((r) => r.profile.spin), switch: m((r) => r.profile.switch), interrupt: m((r) => r.profile.interrupt), idle: m((r) => r.profile.idle) },
    };
  });
}

