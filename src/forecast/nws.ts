// NWS-style forecasting (port 4): run every predictor of the battery over the series, score each by its
// mean absolute one-step-ahead error so far, and forecast with the best one (ties: first in battery order).
import type { Forecast, ForecastingService } from '../interfaces/forecasting.js';
import type { Sample } from '../interfaces/information.js';
import { nwsBattery, type Predictor } from './predictors.js';

/** One series, fed incrementally: `observe` each new value, `forecast` at any time. */
export class NwsSeries {
  private readonly predictors: Predictor[];
  private readonly absErrorSums: number[];
  private scored = 0;
  private seen = 0;

  constructor(makeBattery: () => Predictor[] = nwsBattery) {
    this.predictors = makeBattery();
    this.absErrorSums = this.predictors.map(() => 0);
  }

  get length(): number {
    return this.seen;
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new Error(`forecast series value must be finite, got ${value}`);
    if (this.seen > 0) {
      for (let i = 0; i < this.predictors.length; i++) this.absErrorSums[i]! += Math.abs(this.predictors[i]!.predict() - value);
      this.scored++;
    }
    for (const p of this.predictors) p.observe(value);
    this.seen++;
  }

  /** Mean absolute error of each predictor so far, in battery order. */
  scores(): { predictor: string; meanAbsError: number }[] {
    return this.predictors.map((p, i) => ({ predictor: p.name, meanAbsError: this.scored === 0 ? 0 : this.absErrorSums[i]! / this.scored }));
  }

  forecast(): Forecast | undefined {
    if (this.seen === 0) return undefined;
    let best = 0;
    for (let i = 1; i < this.predictors.length; i++) if (this.absErrorSums[i]! < this.absErrorSums[best]!) best = i;
    return {
      value: this.predictors[best]!.predict(),
      meanAbsError: this.scored === 0 ? 0 : this.absErrorSums[best]! / this.scored,
      predictor: this.predictors[best]!.name,
    };
  }
}

const RECENT_FORECASTS = 32;

/**
 * The forecasting service. `forecast(series)` replays the whole series (O(length × battery)); a caller that
 * asks again and again about a growing series should use `forecastSamples(key, samples)`, which keeps one
 * NwsSeries per key and feeds it only the samples newer than the last one it saw (so a sliding window of
 * recent measurements, as the information service returns, works too).
 */
export class NwsForecaster implements ForecastingService {
  private readonly series = new Map<string, { state: NwsSeries; lastTimeS: number }>();
  /** The last few series asked about and their forecasts: a scheduler asks about the same window many times. */
  private readonly recent: { series: number[]; forecast: Forecast | undefined }[] = [];

  constructor(private readonly makeBattery: () => Predictor[] = nwsBattery) {}

  forecast(series: readonly number[]): Forecast | undefined {
    if (series.length === 0) return undefined;
    // A constant series: every predictor is exact, so the first of the default battery (last value) answers.
    if (this.makeBattery === nwsBattery && Number.isFinite(series[0]) && series.every((v) => v === series[0])) {
      return { value: series[0]!, meanAbsError: 0, predictor: 'last-value' };
    }
    const hit = this.recent.find((r) => r.series.length === series.length && r.series.every((v, i) => v === series[i]));
    if (hit) return hit.forecast;
    const state = new NwsSeries(this.makeBattery);
    for (const v of series) state.observe(v);
    const forecast = state.forecast();
    this.recent.push({ series: [...series], forecast });
    if (this.recent.length > RECENT_FORECASTS) this.recent.shift();
    return forecast;
  }

  forecastSamples(key: string, samples: readonly Sample[]): Forecast | undefined {
    let entry = this.series.get(key);
    if (!entry) {
      entry = { state: new NwsSeries(this.makeBattery), lastTimeS: -Infinity };
      this.series.set(key, entry);
    }
    for (const s of samples) {
      if (s.timeS > entry.lastTimeS) {
        entry.state.observe(s.value);
        entry.lastTimeS = s.timeS;
      }
    }
    return entry.state.forecast();
  }

  /** Forget one series (e.g. a host that left the grid). */
  forget(key: string): void {
    this.series.delete(key);
  }
}
