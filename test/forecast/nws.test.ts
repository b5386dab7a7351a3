import { describe, expect, it } from 'vitest';
import {
  AdaptiveMedianPredictor,
  ExponentialSmoothingPredictor,
  NwsForecaster,
  NwsSeries,
  SlidingWindowPredictor,
  nwsBattery,
} from '../../src/forecast/index.js';
import { Rng } from '../../src/util/rng.js';

function feed(values: readonly number[]): NwsSeries {
  const s = new NwsSeries();
  for (const v of values) s.observe(v);
  return s;
}

function scoreOf(series: NwsSeries, name: string): number {
  const found = series.scores().find((s) => s.predictor === name);
  if (!found) throw new Error(`no predictor ${name}`);
  return found.meanAbsError;
}

describe('predictors', () => {
  it('the battery holds the NWS families in a fixed order', () => {
    const names = nwsBattery().map((p) => p.name);
    expect(names[0]).toBe('last-value');
    expect(names[1]).toBe('running-mean');
    expect(names.filter((n) => n.startsWith('exp-smoothing-'))).toEqual(
      [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75].map((g) => `exp-smoothing-${g}`),
    );
    expect(names.filter((n) => n.startsWith('sliding-median-'))).toEqual([5, 11, 21, 31, 51].map((w) => `sliding-median-${w}`));
    expect(names.filter((n) => n.startsWith('sliding-trimmed-mean-'))).toHaveLength(5);
    expect(names.at(-1)).toBe('adaptive-median');
  });

  it('exponential smoothing follows s += g(x - s) from the first value', () => {
    const p = new ExponentialSmoothingPredictor(0.5);
    p.observe(10);
    expect(p.predict()).toBe(10);
    p.observe(20);
    expect(p.predict()).toBe(15);
    p.observe(0);
    expect(p.predict()).toBe(7.5);
  });

  it('sliding median and trimmed mean look only at the last window', () => {
    const median = new SlidingWindowPredictor('median', 5);
    const trimmed = new SlidingWindowPredictor('trimmed-mean', 5);
    for (const v of [1000, 1000, 3, 1, 2, 100, 4]) {
      median.observe(v);
      trimmed.observe(v);
    }
    // Window [3, 1, 2, 100, 4] → sorted [1, 2, 3, 4, 100]: median 3; trimming one value at each end: mean(2, 3, 4) = 3.
    expect(median.predict()).toBe(3);
    expect(trimmed.predict()).toBe(3);
    const even = new SlidingWindowPredictor('median', 5);
    for (const v of [4, 1, 3, 2]) even.observe(v);
    expect(even.predict()).toBe(2.5);
  });

  it('the adaptive median moves to a short window after a level shift', () => {
    const p = new AdaptiveMedianPredictor();
    for (let i = 0; i < 60; i++) p.observe(10);
    for (let i = 0; i < 12; i++) p.observe(50);
    expect(p.chosenWindow()).toBe(5);
    expect(p.predict()).toBe(50);
  });
});

describe('NwsSeries selection', () => {
  it('an empty series has no forecast; one value forecasts itself', () => {
    expect(new NwsSeries().forecast()).toBeUndefined();
    expect(feed([7]).forecast()).toEqual({ value: 7, meanAbsError: 0, predictor: 'last-value' });
  });

  it('a constant series: every predictor is exact, the first in battery order answers', () => {
    const f = feed(new Array(40).fill(3.5)).forecast()!;
    expect(f).toEqual({ value: 3.5, meanAbsError: 0, predictor: 'last-value' });
  });

  it('a step: last value errs once and wins, forecasting the new level', () => {
    const values = [...new Array(30).fill(10), ...new Array(30).fill(20)];
    const s = feed(values);
    const f = s.forecast()!;
    expect(f.predictor).toBe('last-value');
    expect(f.value).toBe(20);
    expect(f.meanAbsError).toBeCloseTo(10 / 59, 12);
    expect(scoreOf(s, 'sliding-median-5')).toBeGreaterThan(f.meanAbsError);
  });

  it('a linear ramp: last value lags by one slope, smoothing lags more', () => {
    const values = Array.from({ length: 50 }, (_, i) => 2 * i);
    const s = feed(values);
    const f = s.forecast()!;
    expect(f.predictor).toBe('last-value');
    expect(f.value).toBe(98);
    expect(f.meanAbsError).toBeCloseTo(2, 12);
    expect(scoreOf(s, 'exp-smoothing-0.75')).toBeGreaterThan(2);
  });

  it('a long alternating series: the running mean (middle value) wins', () => {
    // Smoothing with gain g settles at an error of 5·(1 + g/(2-g)) > 5; the running mean's excess decays as log(n)/n.
    const values = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? 0 : 10));
    const s = feed(values);
    const f = s.forecast()!;
    expect(f.predictor).toBe('running-mean');
    expect(f.value).toBeCloseTo(5, 12);
    expect(scoreOf(s, 'last-value')).toBe(10);
    expect(f.meanAbsError).toBeLessThan(5.2);
  });

  it('a constant with rare spikes: a median wins and ignores the spikes', () => {
    const rng = new Rng(11);
    const values = Array.from({ length: 400 }, () => (rng.next() < 0.03 ? 100 : 5));
    values[values.length - 1] = 100; // the forecast right after a spike must still be the base level
    const s = feed(values);
    const f = s.forecast()!;
    expect(f.predictor).toMatch(/median/);
    expect(f.value).toBe(5);
    expect(scoreOf(s, 'last-value')).toBeGreaterThan(1.4 * f.meanAbsError);
  });

  it('a smooth drift: last value or exponential smoothing wins', () => {
    const values = Array.from({ length: 300 }, (_, i) => 50 + 20 * Math.sin(i / 25));
    const f = feed(values).forecast()!;
    expect(f.predictor).toMatch(/^(last-value|exp-smoothing-)/);
    expect(Math.abs(f.value - (50 + 20 * Math.sin(300 / 25)))).toBeLessThan(1.5);
  });

  it('noise around a mean: the forecast is near the mean and beats last value', () => {
    const rng = new Rng(5);
    const values = Array.from({ length: 500 }, () => 40 + rng.uniform(-8, 8));
    const s = feed(values);
    const f = s.forecast()!;
    expect(Math.abs(f.value - 40)).toBeLessThan(1.5);
    expect(f.meanAbsError).toBeLessThan(scoreOf(s, 'last-value') * 0.8);
    expect(f.predictor).toMatch(/^(running-mean|exp-smoothing-0\.05|sliding-(median|trimmed-mean)-51|adaptive-median)$/);
  });
});

describe('NwsForecaster', () => {
  it('forecast(series) equals incremental observation of the same values', () => {
    const rng = new Rng(3);
    const values = Array.from({ length: 120 }, () => rng.uniform(0, 10));
    expect(new NwsForecaster().forecast(values)).toEqual(feed(values).forecast());
    expect(new NwsForecaster().forecast([])).toBeUndefined();
  });

  it('forecastSamples feeds each sample once, even from overlapping sliding windows', () => {
    const rng = new Rng(9);
    const samples = Array.from({ length: 100 }, (_, i) => ({ timeS: 5 * i, value: rng.uniform(0, 1) }));
    const keyed = new NwsForecaster();
    let last;
    for (let end = 10; end <= 100; end += 7) last = keyed.forecastSamples('h1', samples.slice(Math.max(0, end - 20), end));
    last = keyed.forecastSamples('h1', samples.slice(80));
    expect(last).toEqual(feed(samples.map((s) => s.value)).forecast());
    // Another key has its own state.
    expect(keyed.forecastSamples('h2', [{ timeS: 0, value: 42 }])!.value).toBe(42);
    keyed.forget('h2');
    expect(keyed.forecastSamples('h2', [{ timeS: 0, value: 1 }])!.value).toBe(1);
  });

  it('rejects non-finite values', () => {
    expect(() => new NwsForecaster().forecast([1, NaN])).toThrow(/finite/);
  });
});

describe('the incremental windows match a direct computation', () => {
  const direct = (values: readonly number[], w: number, stat: 'median' | 'trimmed'): number => {
    const s = values.slice(-w).sort((a, b) => a - b);
    if (stat === 'median') return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
    const drop = Math.floor(s.length * 0.2);
    const kept = s.slice(drop, s.length - drop);
    return kept.reduce((a, b) => a + b, 0) / kept.length;
  };

  it('sliding medians and trimmed means on a random series with repeated values', () => {
    const rng = new Rng(21);
    const values = Array.from({ length: 150 }, () => Math.floor(rng.uniform(0, 8)));
    const s = new NwsSeries();
    const errors = new Map<string, number>();
    for (let n = 0; n < values.length; n++) {
      if (n > 0) {
        for (const w of [5, 11, 21, 31, 51]) {
          for (const stat of ['median', 'trimmed'] as const) {
            const name = stat === 'median' ? `sliding-median-${w}` : `sliding-trimmed-mean-${w}`;
            errors.set(name, (errors.get(name) ?? 0) + Math.abs(direct(values.slice(0, n), w, stat) - values[n]!));
          }
        }
      }
      s.observe(values[n]!);
    }
    for (const [name, total] of errors) expect(scoreOf(s, name)).toBeCloseTo(total / (values.length - 1), 9);
  });

  it('the forecaster answers the same from its constant fast path and its memo', () => {
    const f = new NwsForecaster();
    expect(f.forecast(new Array(64).fill(0.7))).toEqual(feed(new Array(64).fill(0.7)).forecast());
    const rng = new Rng(4);
    const values = Array.from({ length: 64 }, () => rng.uniform(0, 1));
    const first = f.forecast(values);
    expect(f.forecast([...values])).toEqual(first);
    expect(first).toEqual(feed(values).forecast());
    expect(() => f.forecast([NaN])).toThrow(/finite/);
  });
});
