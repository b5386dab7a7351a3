// Every knob of the scheduler, with its default. The simulator, the real runner and the experiment tool
// all build a SchedulerOptions; the run record's header stores it so that a run can be repeated.

/** §5.6.5: what a link does when the head of its FIFO is an output that is not ready yet. */
export type LinkOrder = 'greedy' | 'keep';

/** §5.6.1: which resource changes trigger an immediate do_plan(). */
export type ReplanOn = 'add' | 'fail' | 'both' | 'never';

export interface SchedulerOptions {
  /** Registered heuristic name (src/scheduler/heuristics/registry.ts). */
  readonly heuristic: string;
  /** S1: seconds between scheduling events t(i+1) - t(i). */
  readonly planIntervalS: number;
  /** Δ: the Gantt chart is filled until every host has work starting after t(i+1) + Δ. */
  readonly deltaS: number;
  /** Simulated duration of one do_plan() call; the grid keeps running meanwhile (§7.3.1). */
  readonly planDurationS: number;
  /** Works kept at the head of each host FIFO when do_plan() truncates the FIFOs (§7.4). */
  readonly keepWorksPerHost: number;
  /** do_schedule(): an idle host may take a ready Work from another host of its cluster (Fig. 10 lines 7-8). */
  readonly workStealing: boolean;
  readonly linkOrder: LinkOrder;
  readonly replanOn: ReplanOn;
  /** Randomized heuristics (H5–H8): candidates within this relative tolerance of the best are equivalent. */
  readonly randomTolerance: number;
  /** A Work whose program fails ('exit') this many times is given up (reported final). Default 3. */
  readonly maxExitFailures?: number;
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
  maxExitFailures: 3,
};
