// A sample strip makes only the samples some window asks for: asking for a window far past the last one
// jumps there instead of making every sample in between (a long quiet stretch between two plans).
import { describe, expect, it } from 'vitest';
import { Attachment, RateSeries } from '../../backends/sim/rate-series.js';
import { sampleAt, SampleStrip } from '../../backends/sim/sample-strip.js';

/** The values of a 3-sample series, counting how many times a sample value is read. */
function countingValues(values: number[]): { values: Float64Array; reads: () => number } {
  let reads = 0;
  const target = Float64Array.from(values);
  const proxy = new Proxy(target, {
    get(t, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      const v = Reflect.get(t, key, t) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
  return { values: proxy, reads: () => reads };
}

describe('SampleStrip', () => {
  // Series 0.2, 0.5, 0.9 sampled every 5 s from t = 100, starting at sample 1 (offset 1):
  // sample k is taken at 100 + 5k and reads values[(1 + k) mod 3].
  const series = new RateSeries(Float64Array.from([0.2, 0.5, 0.9]), 5);
  const attachment = new Attachment(series, 100, 1);

  it('gives sample k at startS + k·P with value (offset + k) mod n', () => {
    const { values } = countingValues([0.2, 0.5, 0.9]);
    const strip = new SampleStrip(attachment, values);
    // k = 0: t 100, values[1] = 0.5; k = 1: t 105, values[2] = 0.9; k = 2: t 110, values[0] = 0.2.
    expect(strip.window(0, 2)).toEqual([
      { timeS: 100, value: 0.5 },
      { timeS: 105, value: 0.9 },
      { timeS: 110, value: 0.2 },
    ]);
  });

  it('jumps to a window far ahead, making only its samples', () => {
    const { values, reads } = countingValues([0.2, 0.5, 0.9]);
    const strip = new SampleStrip(attachment, values);
    strip.window(0, 3);
    expect(reads()).toBe(4);
    // A million samples later: the 4 asked for are made, not the 999,997 in between.
    const far = strip.window(1_000_000, 1_000_003);
    expect(reads()).toBe(8);
    // k = 1e6: t = 100 + 5e6; (1 + 1e6) mod 3 = 2 (1e6 ≡ 1 mod 3) → 0.9, then 0.2, 0.5, 0.9.
    expect(far).toEqual([
      { timeS: 5_000_100, value: 0.9 },
      { timeS: 5_000_105, value: 0.2 },
      { timeS: 5_000_110, value: 0.5 },
      { timeS: 5_000_115, value: 0.9 },
    ]);
    for (let k = 1_000_000; k <= 1_000_003; k++) expect(far[k - 1_000_000]).toEqual(sampleAt(attachment, series.rates, k));
    // Windows that overlap the kept samples reuse them: one new sample made.
    expect(strip.window(1_000_001, 1_000_004).map((s) => s.timeS)).toEqual([5_000_105, 5_000_110, 5_000_115, 5_000_120]);
    expect(reads()).toBe(9);
  });

  it('still answers a window older than what it keeps after a jump', () => {
    const { values } = countingValues([0.2, 0.5, 0.9]);
    const strip = new SampleStrip(attachment, values);
    strip.window(0, 1);
    strip.window(500, 501);
    // Samples 2..4 were never made: made afresh, k = 2 → values[0] = 0.2, k = 3 → 0.5, k = 4 → 0.9.
    expect(strip.window(2, 4)).toEqual([
      { timeS: 110, value: 0.2 },
      { timeS: 115, value: 0.5 },
      { timeS: 120, value: 0.9 },
    ]);
  });
});
