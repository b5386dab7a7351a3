// Scheduling events (Berman et al. 1999, §5.6.1): when the next do_plan() runs.
// t(i+1) − t(i):
//  - constant            S1: planIntervalS every time;
//  - deviation           S2: each plan records which Work each host should be computing at any later time;
//                        the next plan compares that prediction with what the hosts actually compute now.
//                        deviation = 1 − (correct predictions / predictions), over the hosts predicted busy.
//                        Above deviationThreshold the interval is halved (shrink fast), otherwise it grows
//                        by a quarter (grow slowly), within [minPlanIntervalS, maxPlanIntervalS];
//  - weighted-deviation  S3: the same, each host's miss weighted by how reliable its predictions have been
//                        (an exponential average of its hits), so unstable hosts weigh less.
// The paper compares at t(i+1); we compare at the time the next plan actually runs (a plan may come early,
// on a host addition or an idle host), which is the same when plans only come from the timer.
// replanOn: which resource changes call do_plan() at once; otherwise a new host waits for the next event.
// Whatever it says, Works lost with a failure go at once to hosts that are idle then (scheduler.ts runs
// do_schedule() after a failure that gave Works back): only the re-planning of the rest waits.
import type { HostId } from '../../model/grid.js';
import type { WorkId } from '../../model/application.js';
import type { StrategyChoice, StrategyFamily } from './family.js';

export const PLAN_EVENTS = [
  { name: 'constant', help: 'S1: a constant interval planIntervalS between scheduling events (the default)' },
  { name: 'deviation', help: 'S2: the interval shrinks when the last plan mispredicted what runs, grows when it did not' },
  { name: 'weighted-deviation', help: 'S3: as S2, with unstable hosts weighing less in the deviation' },
] as const satisfies readonly StrategyChoice[];
export type PlanEventsStrategy = (typeof PLAN_EVENTS)[number]['name'];

export const REPLAN_ONS = [
  { name: 'add', help: 'plan at once when hosts or clusters join (the default)' },
  { name: 'fail', help: 'plan at once when hosts or clusters fail' },
  { name: 'both', help: 'plan at once on additions and on failures' },
  { name: 'never', help: 'wait for the next scheduling event (new hosts stay idle until then)' },
] as const satisfies readonly StrategyChoice[];
export type ReplanOn = (typeof REPLAN_ONS)[number]['name'];

export const planEventsFamily: StrategyFamily = {
  option: 'planEvents',
  section: '5.6.1',
  help: 'how the interval between scheduling events is chosen',
  choices: PLAN_EVENTS,
  parameters: [
    { name: 'planIntervalS', help: 'seconds between scheduling events (S2/S3: the first interval)' },
    { name: 'minPlanIntervalS', help: 'S2/S3: the shortest interval, in seconds, the deviation may shrink it to' },
    { name: 'maxPlanIntervalS', help: 'S2/S3: the longest interval, in seconds, it may grow to' },
    { name: 'deviationThreshold', help: 'S2/S3: above this share of mispredicted hosts (0–1) the interval is halved' },
  ],
};

export const replanOnFamily: StrategyFamily = {
  option: 'replanOn',
  section: '5.6.1',
  help: 'which resource changes trigger an immediate re-plan',
  choices: REPLAN_ONS,
  parameters: [],
};

export const INTERVAL_SHRINK = 0.5;
export const INTERVAL_GROW = 1.25;
/** S3: weight of the newest hit/miss in a host's reliability, and the lowest weight a host can have. */
export const RELIABILITY_GAIN = 0.3;
export const MIN_RELIABILITY = 0.05;

/** One planned computation: `workId` on a host over [startS, endS). */
export interface PlannedSlot {
  readonly workId: WorkId;
  readonly startS: number;
  readonly endS: number;
}

export interface IntervalSettings {
  readonly mode: PlanEventsStrategy;
  readonly initialS: number;
  readonly minS: number;
  readonly maxS: number;
  readonly threshold: number;
}

export class IntervalController {
  private intervalS: number;
  private prediction: ReadonlyMap<HostId, readonly PlannedSlot[]> | null = null;
  private readonly reliability = new Map<HostId, number>();
  /** The deviation measured by the last plan (null: nothing was predicted). */
  lastDeviation: number | null = null;

  constructor(private readonly s: IntervalSettings) {
    this.intervalS = s.mode === 'constant' ? s.initialS : clamp(s.initialS, s.minS, s.maxS);
  }

  /** The interval t(i+1) − t(i) the current plan uses. */
  get currentS(): number {
    return this.intervalS;
  }

  /**
   * Called at the start of a plan: compares the last prediction with what each host computes now
   * (`running`: host → Work, for every host up and computing) and adapts the interval. Returns it.
   */
  update(nowS: number, running: ReadonlyMap<HostId, WorkId>): number {
    this.lastDeviation = null;
    if (this.s.mode === 'constant' || this.prediction === null) return this.intervalS;
    let missed = 0;
    let total = 0;
    const hits: [HostId, boolean][] = [];
    for (const [hostId, slots] of this.prediction) {
      const expected = slots.find((slot) => slot.startS <= nowS && nowS < slot.endS);
      if (expected === undefined) continue;
      const hit = running.get(hostId) === expected.workId;
      const weight = this.s.mode === 'weighted-deviation' ? (this.reliability.get(hostId) ?? 1) : 1;
      total += weight;
      if (!hit) missed += weight;
      hits.push([hostId, hit]);
    }
    for (const [hostId, hit] of hits) {
      const old = this.reliability.get(hostId) ?? 1;
      this.reliability.set(hostId, Math.max(MIN_RELIABILITY, old + RELIABILITY_GAIN * ((hit ? 1 : 0) - old)));
    }
    if (total === 0) return this.intervalS;
    const deviation = missed / total;
    this.lastDeviation = deviation;
    const factor = deviation > this.s.threshold ? INTERVAL_SHRINK : INTERVAL_GROW;
    this.intervalS = clamp(this.intervalS * factor, this.s.minS, this.s.maxS);
    return this.intervalS;
  }

  /** Called at the end of a plan with what each host should compute from now on. */
  predict(slots: ReadonlyMap<HostId, readonly PlannedSlot[]>): void {
    if (this.s.mode !== 'constant') this.prediction = slots;
  }

  /** S3: how much a host's predictions count, 0 < w ≤ 1 (1 for a host not seen yet). */
  reliabilityOf(hostId: HostId): number {
    return this.reliability.get(hostId) ?? 1;
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), Math.max(lo, hi));
}
