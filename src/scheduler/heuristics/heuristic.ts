// What a task/host selection heuristic is (Berman et al. 1999, §5.6.3, §7.4 "Heuristic"): given the Gantt chart with
// what cannot change already drawn, and the Works to consider, it places Works on hosts (chart.commit)
// until every host has work starting after the horizon t(i+1) + Δ, or the Works run out.
import type { WorkSpec } from '../../model/application.js';
import type { Rng } from '../../util/rng.js';
import type { GanttChart } from '../gantt.js';
import type { HostCandidates } from '../strategies/host-candidates.js';
import type { WorkIndex } from './work-index.js';

export interface PlanContext {
  readonly chart: GanttChart;
  /** The Works to consider (not started, not kept), sorted by increasing id. */
  readonly works: readonly WorkSpec[];
  readonly rng: Rng;
  /** Randomized heuristics: candidates within this relative tolerance of the best are equivalent. */
  readonly randomTolerance: number;
  /** Which hosts Works are scored on; default 'all' (appendix C). The work queue ignores it. */
  readonly hostCandidates?: HostCandidates;
  /** What the Works' specifications give, kept between plans (work-index.ts); default: found afresh. */
  readonly workIndex?: WorkIndex;
}

export interface Heuristic {
  readonly name: string;
  /** 'H0' … 'H9' as in Berman et al. 1999, §5.6.3, or 'XS' for XSufferage. */
  readonly code: string;
  /** One line for the CLI help and the docs table. */
  readonly help: string;
  plan(ctx: PlanContext): void;
}
