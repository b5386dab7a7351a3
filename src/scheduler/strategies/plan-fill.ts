// How much one do_plan() places (Berman et al. 1999, §5.5 step 5 and §7.4 "Task set selection"):
//  - horizon   until every host has work starting after the horizon t(i+1) + Δ (§5.5; the default);
//  - per-host  a number of Works proportional to the number of available hosts — worksPerHost × hosts,
//              rounded up — with no time horizon, as the paper's own implementation does (§7.4).
import type { StrategyChoice, StrategyFamily } from './family.js';

export const PLAN_FILLS = [
  { name: 'horizon', help: 'fill the chart until every host has work past t(i+1) + Δ (the default, §5.5)' },
  { name: 'per-host', help: "place worksPerHost × the available hosts Works per plan, no horizon (the paper's implementation, §7.4)" },
] as const satisfies readonly StrategyChoice[];
export type PlanFill = (typeof PLAN_FILLS)[number]['name'];

export const planFillFamily: StrategyFamily = {
  option: 'planFill',
  section: '7.4',
  help: 'how many Works one plan places',
  choices: PLAN_FILLS,
  parameters: [{ name: 'worksPerHost', help: 'per-host: Works placed per plan for each available host (rounded up in total)' }],
};

/** The horizon and the most Works a plan may place, under `fill`. */
export function planLimits(fill: PlanFill, horizonS: number, worksPerHost: number, hosts: number): { horizonS: number; maxPlacements: number } {
  return fill === 'per-host' ? { horizonS: Infinity, maxPlacements: Math.ceil(worksPerHost * hosts) } : { horizonS, maxPlacements: Infinity };
}
