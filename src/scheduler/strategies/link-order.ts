// Link ordering (Berman et al. 1999, §5.6.5, Fig. 10 lines 10–16): what a cluster's link does when the entry at the head
// of its FIFO is an output whose computation has not finished.
//  - keep    wait for it: the planned order is kept;
//  - greedy  skip it and send the first entry that can go (out of order; the default, as Fig. 10);
//  - hybrid  skip it only if its computation is not expected to end within hybridWaitS seconds (a Work
//            still queued is not expected soon) and it has been skipped fewer than hybridMaxSkips times;
//            otherwise wait for it.
import type { StrategyChoice, StrategyFamily } from './family.js';

export const LINK_ORDERS = [
  { name: 'greedy', help: 'out of order: a link skips outputs not computed yet (the default, Fig. 10)' },
  { name: 'keep', help: 'the planned order: a link waits for an output not computed yet' },
  { name: 'hybrid', help: 'skip an output only if it is not due within hybridWaitS, at most hybridMaxSkips times' },
] as const satisfies readonly StrategyChoice[];
export type LinkOrder = (typeof LINK_ORDERS)[number]['name'];

export const linkOrderFamily: StrategyFamily = {
  option: 'linkOrder',
  section: '5.6.5',
  help: 'what a link does with an output that is not ready at the head of its FIFO',
  choices: LINK_ORDERS,
  parameters: [
    { name: 'hybridWaitS', help: 'hybrid: a link waits for an output whose computation ends within this many seconds' },
    { name: 'hybridMaxSkips', help: 'hybrid: how many times an output may be skipped before its link waits for it' },
  ],
};

export interface LinkOrderRule {
  readonly mode: LinkOrder;
  readonly waitS: number;
  readonly maxSkips: number;
}

/** May the link send something queued behind this not-ready output? */
export function maySkipOutput(rule: LinkOrderRule, expectedInS: number, timesSkipped: number): boolean {
  if (rule.mode === 'greedy') return true;
  if (rule.mode === 'keep') return false;
  return expectedInS > rule.waitS && timesSkipped < rule.maxSkips;
}
