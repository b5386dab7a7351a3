// Every knob of the scheduler, with its default. The simulator, the real runner and the experiment tool
// all build a SchedulerOptions; the run record's header stores it so that a run can be repeated.
// The strategy knobs (Berman et al. 1999, §5.2, §5.6) name values registered in src/scheduler/strategies/: each is
// optional so that older option sets stay valid, and its default keeps the scheduler's original behaviour.
import type { DeltaStrategy } from './strategies/delta.js';
import type { HostCandidates } from './strategies/host-candidates.js';
import type { LinkOrder } from './strategies/link-order.js';
import type { PlanEventsStrategy, ReplanOn } from './strategies/plan-events.js';
import type { PlanFill } from './strategies/plan-fill.js';
import type { Quality, ResourcePredictor } from './strategies/quality.js';
import type { RunningEstimate } from './strategies/running-estimate.js';
import type { SelfScheduling } from './strategies/self-scheduling.js';
import type { TaskSpace } from './strategies/task-space.js';

export type { DeltaStrategy, HostCandidates, LinkOrder, PlanEventsStrategy, PlanFill, Quality, ReplanOn, ResourcePredictor, RunningEstimate, SelfScheduling, TaskSpace };

export interface SchedulerOptions {
  /** Registered heuristic name (src/scheduler/heuristics/registry.ts). */
  readonly heuristic: string;
  /** S1: seconds between scheduling events t(i+1) - t(i); S2/S3: the first interval. */
  readonly planIntervalS: number;
  /** Δ: the Gantt chart is filled until every host has work starting after t(i+1) + Δ. */
  readonly deltaS: number;
  /** Simulated duration of one do_plan() call; the grid keeps running meanwhile (§7.3.1). */
  readonly planDurationS: number;
  /** Works kept at the head of each host FIFO when do_plan() truncates the FIFOs (§7.4). */
  readonly keepWorksPerHost: number;
  /** do_schedule(): an idle host may take a ready Work from another host of its cluster (Fig. 10 lines 7-8). */
  readonly workStealing: boolean;
  /** §5.6.5: what a link does when the head of its FIFO is an output not computed yet. */
  readonly linkOrder: LinkOrder;
  /** §5.6.1: which resource changes trigger an immediate do_plan(). */
  readonly replanOn: ReplanOn;
  /** Randomized heuristics (H5–H8): candidates within this relative tolerance of the best are equivalent. */
  readonly randomTolerance: number;
  /** Appendix C: which hosts the estimate-based heuristics score a Work on (strategies/host-candidates.ts). */
  readonly hostCandidates?: HostCandidates;
  /** A Work whose program fails ('exit') this many times is given up (reported final). Default 3. */
  readonly maxExitFailures?: number;

  // ── §5.2 quality of information ──
  /** Where the run-time and file-size estimates come from (strategies/quality.ts). */
  readonly quality?: Quality;
  /** 'noisy': the estimates are the real values times (1 + u), u uniform in [-noiseBound, noiseBound]. */
  readonly noiseBound?: number;
  /** How host availability and link performance are predicted from the measurements of port (3). */
  readonly resourcePredictor?: ResourcePredictor;
  /** §5.2.1: when a running sub-task is expected to end (strategies/running-estimate.ts). */
  readonly runningEstimate?: RunningEstimate;
  /** 'overdue' (and 'progress' once the estimated work is used up): an overdue sub-task ends this long from now. */
  readonly overdueGraceS?: number;

  // ── §5.6.1 scheduling events and Δ ──
  /** S1 constant, S2 deviation, S3 weighted deviation (strategies/plan-events.ts). */
  readonly planEvents?: PlanEventsStrategy;
  /** S2/S3: the interval stays within [minPlanIntervalS, maxPlanIntervalS]. */
  readonly minPlanIntervalS?: number;
  readonly maxPlanIntervalS?: number;
  /** S2/S3: above this deviation (0–1) the interval shrinks fast; at or below it, it grows slowly. */
  readonly deviationThreshold?: number;
  /** How Δ is chosen (strategies/delta.ts). */
  readonly deltaStrategy?: DeltaStrategy;
  /** 'proportional': Δ = deltaFraction × (t(i+1) − t(i)). */
  readonly deltaFraction?: number;
  /** How many Works one plan places: up to the horizon, or per host (strategies/plan-fill.ts, §7.4). */
  readonly planFill?: PlanFill;
  /** 'per-host': Works placed per plan for each available host. */
  readonly worksPerHost?: number;

  // ── §5.6.2 task-space reduction ──
  readonly taskSpace?: TaskSpace;
  /** 'random' and 'shared-files': how many not-started Works one plan considers. */
  readonly taskSpaceSize?: number;

  // ── §5.6.5 hybrid link order ──
  /** 'hybrid': an output not computed yet is skipped only if its computation should take longer than this. */
  readonly hybridWaitS?: number;
  /** 'hybrid': … and only if it has been skipped fewer times than this. */
  readonly hybridMaxSkips?: number;

  // ── §5.2.1 self-scheduling ──
  /**
   * Work queue: 'direct' (default) gives a host that empties its FIFO the next Work without a plan; 'plan'
   * asks do_plan() for it, the original behaviour (strategies/self-scheduling.ts).
   */
  readonly selfScheduling?: SelfScheduling;
}

export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = {
  heuristic: 'xsufferage',
  planIntervalS: 300,
  deltaS: 300,
  planDurationS: 0,
  keepWorksPerHost: 1,
  workStealing: false,
  linkOrder: 'greedy',
  replanOn: 'add',
  randomTolerance: 0.05,
  hostCandidates: 'all',
  maxExitFailures: 3,
  quality: 'estimates',
  noiseBound: 0.2,
  resourcePredictor: 'service',
  runningEstimate: 'overdue',
  overdueGraceS: 5,
  planEvents: 'constant',
  minPlanIntervalS: 30,
  maxPlanIntervalS: 3600,
  deviationThreshold: 0.25,
  deltaStrategy: 'constant',
  deltaFraction: 1,
  planFill: 'horizon',
  worksPerHost: 2,
  taskSpace: 'all',
  taskSpaceSize: 200,
  hybridWaitS: 30,
  hybridMaxSkips: 3,
  selfScheduling: 'direct',
};

/** The options with every optional knob filled in from the defaults. */
export type ResolvedSchedulerOptions = Required<SchedulerOptions>;

export function resolveSchedulerOptions(options: SchedulerOptions): ResolvedSchedulerOptions {
  const resolved: Record<string, unknown> = { ...DEFAULT_SCHEDULER_OPTIONS };
  for (const [k, v] of Object.entries(options)) if (v !== undefined) resolved[k] = v;
  return resolved as ResolvedSchedulerOptions;
}
