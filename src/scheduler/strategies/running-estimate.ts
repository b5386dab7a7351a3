// When a running sub-task (a computation, or a transfer on a link) is expected to end (Berman et al. 1999, §5.2.1),
// for step (3) of do_plan() and for the hybrid link order:
//  - trust     its estimate made when it started, even once that time has passed;
//  - overdue   that estimate while it is in the future; once overdue, now + overdueGraceS;
//  - progress  from the measurements since it started (port 3): the work done so far is the integral of the
//              measured rate (host availability × 1 s per s, or link bandwidth in bytes/s after the latency);
//              what is left of the estimated amount is divided by the predicted current rate. When the
//              estimated amount is used up (the estimate was too small), the overdue rule applies.
import type { Sample } from '../../interfaces/information.js';
import type { RunningSubtask } from '../state.js';
import type { StrategyChoice, StrategyFamily } from './family.js';

export const RUNNING_ESTIMATES = [
  { name: 'trust', help: 'a running sub-task ends when it was estimated to when it started' },
  { name: 'overdue', help: 'as estimated, or overdueGraceS from now once overdue (the default)' },
  { name: 'progress', help: 'remaining estimated work divided by the predicted rate, progress measured since the start' },
] as const satisfies readonly StrategyChoice[];
export type RunningEstimate = (typeof RUNNING_ESTIMATES)[number]['name'];

export const runningEstimateFamily: StrategyFamily = {
  option: 'runningEstimate',
  section: '5.2.1',
  help: 'completion estimate of running sub-tasks',
  choices: RUNNING_ESTIMATES,
  parameters: [{ name: 'overdueGraceS', help: 'overdue: once a sub-task is overdue, it is expected to end this many seconds from now' }],
};

/** Measured progress of a running sub-task, in its own unit (dedicated CPU seconds or bytes). */
export interface Progress {
  /** Amount done since it started. */
  readonly doneAmount: number;
  /** Predicted rate from now on (amount per second), > 0. */
  readonly rate: number;
}

export interface RunningEstimateRule {
  readonly mode: RunningEstimate;
  readonly overdueGraceS: number;
}

/** The expected end of `running` seen at `nowS`. `progress` is only asked for in 'progress' mode. */
export function expectedEndS(rule: RunningEstimateRule, running: RunningSubtask, nowS: number, progress: () => Progress | undefined): number {
  if (rule.mode === 'trust') return running.estEndS;
  if (rule.mode === 'progress' && running.estAmount !== undefined) {
    const p = progress();
    if (p !== undefined && p.rate > 0) {
      const left = running.estAmount - p.doneAmount;
      if (left > 0) return nowS + left / p.rate;
      return nowS + rule.overdueGraceS;
    }
  }
  return running.estEndS > nowS ? running.estEndS : nowS + rule.overdueGraceS;
}

/**
 * ∫ value dt over [fromS, toS] of a piecewise-constant measured series: each sample holds from its time to
 * the next sample's (the last one until toS); before the first sample the first value is assumed.
 */
export function integrateSamples(samples: readonly Sample[], fromS: number, toS: number): number {
  if (samples.length === 0 || toS <= fromS) return 0;
  let total = 0;
  for (let i = 0; i < samples.length; i++) {
    const segStart = i === 0 ? -Infinity : samples[i]!.timeS;
    const segEnd = i + 1 < samples.length ? samples[i + 1]!.timeS : Infinity;
    const a = Math.max(segStart, fromS);
    const b = Math.min(segEnd, toS);
    if (b > a) total += (b - a) * samples[i]!.value;
  }
  return total;
}
