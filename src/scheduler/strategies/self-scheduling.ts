// Self-scheduling (Berman et al. 1999, §5.2.1, heuristic H0 "workqueue"): a host that runs out of work takes the next
// one. That needs no Gantt chart, so by default (options.selfScheduling 'direct') a host that empties its FIFO
// under the work queue gets the todo Work of smallest id at once, inside do_schedule(), without a plan:
//  - the Work is queued on the host and its inputs the cluster neither holds nor brings are queued on the
//    cluster's link for now, in decreasing usage (§5.6.4), as a plan would send them;
//  - it is done only when nothing else asks for a plan at this instant (no plan requested or running):
//    host additions, failures that re-plan and the periodic scheduling events still run do_plan(), which
//    places Works on idle hosts exactly as before;
//  - with nothing left to do (no todo Work, or none the host may run), the host asks for a plan as before;
//  - only with the default task space ('all'): a reduced task space chooses the Works, so plans do.
// What changes compared with 'plan' (the original behaviour: one do_plan() per instant at which some host runs
// dry, each redrawing the whole chart): far fewer plan records; hosts freed at the same instant by separate
// events are served in event order rather than host order; the new inputs go on the link at once instead of
// at their planned position, and an output enters its link FIFO when its computation ends rather than at its
// planned time (as it does under 'greedy' link order anyway).
import type { StrategyChoice } from './family.js';

export const SELF_SCHEDULINGS = [
  { name: 'direct', help: 'work queue: a host that empties its FIFO takes the next Work without a plan (the default)' },
  { name: 'plan', help: 'work queue: a host that empties its FIFO asks do_plan() for work, like other heuristics' },
] as const satisfies readonly StrategyChoice[];
export type SelfScheduling = (typeof SELF_SCHEDULINGS)[number]['name'];

/** Heuristics that place Works by increasing id on idle hosts only, ignoring estimates. */
const SELF_SCHEDULING_HEURISTICS: ReadonlySet<string> = new Set(['workqueue']);

/** A reduced task space (random, shared-files) picks which Works go out: then plans do it, as before. */
export function schedulesDirectly(mode: SelfScheduling, heuristic: string, taskSpace: string): boolean {
  return mode === 'direct' && SELF_SCHEDULING_HEURISTICS.has(heuristic) && taskSpace === 'all';
}

export function checkSelfScheduling(value: unknown): void {
  if (value === undefined || SELF_SCHEDULINGS.some((c) => c.name === value)) return;
  throw new Error(`unknown selfScheduling "${String(value)}"; expected one of: ${SELF_SCHEDULINGS.map((c) => c.name).join(', ')}`);
}
