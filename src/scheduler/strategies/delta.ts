// Δ (Berman et al. 1999, §5.5 step 5): how far past the next scheduling event t(i+1) the Gantt chart is filled, so
// that hosts running ahead of the plan still have work until the next plan.
//  - constant      deltaS;
//  - proportional  deltaFraction × (t(i+1) − t(i));
//  - adaptive      (t(i+1) − t(i)) × the mean relative error of the last estimates checked against reality
//                  (computations and transfers, |actual − estimated| / estimated, capped at 1): exact
//                  estimates need no slack, poor ones need up to a whole interval. deltaS until a first
//                  sub-task has finished.
import type { StrategyChoice, StrategyFamily } from './family.js';

export const DELTA_STRATEGIES = [
  { name: 'constant', help: 'Δ = deltaS (the default)' },
  { name: 'proportional', help: 'Δ = deltaFraction × the interval to the next scheduling event' },
  { name: 'adaptive', help: 'Δ = the interval × the mean relative error of recent estimates' },
] as const satisfies readonly StrategyChoice[];
export type DeltaStrategy = (typeof DELTA_STRATEGIES)[number]['name'];

export const deltaFamily: StrategyFamily = {
  option: 'deltaStrategy',
  section: '5.5',
  help: 'how far past the next scheduling event the chart is filled (Δ)',
  choices: DELTA_STRATEGIES,
  parameters: [
    { name: 'deltaS', help: 'constant: Δ in seconds, how far past the next scheduling event hosts get work' },
    { name: 'deltaFraction', help: 'proportional: Δ as this fraction of the interval to the next scheduling event' },
  ],
};

/** The adaptive Δ averages this many recent relative errors. */
export const ERROR_WINDOW = 32;

export interface DeltaSettings {
  readonly mode: DeltaStrategy;
  readonly deltaS: number;
  readonly fraction: number;
}

export class DeltaController {
  private readonly errors: number[] = [];
  private errorSum = 0;

  constructor(private readonly s: DeltaSettings) {}

  /** A sub-task estimated to take `estimatedS` took `actualS`. */
  observe(estimatedS: number, actualS: number): void {
    if (this.s.mode !== 'adaptive' || !(estimatedS > 0) || !Number.isFinite(estimatedS) || !Number.isFinite(actualS)) return;
    const error = Math.min(1, Math.abs(actualS - estimatedS) / estimatedS);
    this.errors.push(error);
    this.errorSum += error;
    if (this.errors.length > ERROR_WINDOW) this.errorSum -= this.errors.shift()!;
  }

  /** Mean relative error of the estimates checked so far (undefined before the first). */
  meanError(): number | undefined {
    return this.errors.length === 0 ? undefined : this.errorSum / this.errors.length;
  }

  /** Δ for a plan whose next scheduling event is `intervalS` away (Infinity / 0 when there is none). */
  deltaS(intervalS: number): number {
    const interval = Number.isFinite(intervalS) ? intervalS : 0;
    if (this.s.mode === 'proportional') return this.s.fraction * interval;
    if (this.s.mode === 'adaptive') {
      const err = this.meanError();
      return err === undefined ? this.s.deltaS : err * interval;
    }
    return this.s.deltaS;
  }
}
