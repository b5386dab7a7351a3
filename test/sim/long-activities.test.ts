// An activity's end is found in closed form (backends/sim/rate-series.ts: whole cycles of the circular
// series by division, then a binary search in the prefix sums of one cycle), so a computation or transfer a
// trillion cycles long costs the simulator what a short one does: the same events, the end to the bit
// where the arithmetic is exact. Where a walk sample by sample is exact (dyadic rates, amounts and period),
// the closed form gives the very same double.
import { describe, expect, it } from 'vitest';
import { Attachment, RateSeries } from '../../backends/sim/rate-series.js';
import { Rng } from '../../src/util/rng.js';
import { addCluster, addHost, makeApp, makeGrid } from './support/build.js';
import { runScripted } from './support/harness.js';

/** The end of `amount` started at fromS, walking the series one sample at a time (the reference). */
function walkFinish(rates: readonly number[], periodS: number, startS: number, offset: number, fromS: number, amount: number): number {
  let k = Math.floor((fromS - startS) / periodS);
  let t = fromS;
  for (;;) {
    const rate = rates[(offset + k) % rates.length]!;
    const segEndS = startS + (k + 1) * periodS;
    const can = rate * (segEndS - t);
    if (rate > 0 && can >= amount) return t + amount / rate;
    amount -= can;
    t = segEndS;
    k++;
  }
}

describe('long activities', () => {
  it('dyadic series: the closed form gives the same double as the walk, sample by sample', () => {
    // Rates 0, 1/4, 1/2, 1, 2; period 2 or 4 s; amounts in quarters; start and offset whole. Every sum and
    // quotient in both computations is then a small dyadic number, exact in a double, so they must agree
    // to the bit (toBe), not merely closely.
    const rng = new Rng(6);
    for (let trial = 0; trial < 2000; trial++) {
      const n = 1 + rng.int(6);
      const rates = Array.from({ length: n }, () => rng.pick([0, 0.25, 0.5, 1, 2]));
      if (!rates.some((r) => r !== 0)) rates[rng.int(n)] = 1;
      const periodS = rng.pick([2, 4]);
      const startS = rng.int(40);
      const offset = rng.int(10);
      const fromS = startS + rng.int(30);
      const amount = rng.int(4000) / 4;
      const closed = new Attachment(new RateSeries(Float64Array.from(rates), periodS), startS, offset).finishTime(fromS, amount);
      expect(closed, `rates ${rates} period ${periodS} start ${startS} offset ${offset} from ${fromS} amount ${amount}`).toBe(
        amount === 0 ? fromS : walkFinish(rates, periodS, startS, offset, fromS, amount),
      );
    }
  });

  it('a computation a trillion cycles long: the end by hand, and no more events than a short one', () => {
    // Availability 100, 50, 0, 50 % (5 s each): one 20 s cycle gives 5 + 2.5 + 0 + 2.5 = 10 work-s.
    // W = 10m + 6.25 work-s from t = 0: m whole cycles (20m s), then 5 in [20m, 20m + 5) at 100 %, and the
    // last 1.25 at 50 % takes 2.5 s → ends at 20m + 7.5. For m = 1e12: W = 1e13 + 6.25 and the end
    // 2e13 + 7.5 are exact doubles (spacing 2^-9 and 2^-8 there), and so is every step of the closed form.
    const run = (m: number) => {
      const app = makeApp([], [{ inputs: [], outputs: [], runTimeS: [10 * m + 6.25] }]);
      const grid = makeGrid([addCluster(0, 'c', 'L'), addHost(0, 'c', 'h', 'wave')], { L: [{ latencyMs: 0, bandwidthBps: 1000 }] }, { wave: [100, 50, 0, 50] });
      return runScripted(app, grid, [
        { op: 'compute', work: 0, host: 'h' },
        { op: 'retrieve', work: 0, host: 'h', cluster: 'c' },
      ]);
    };
    const short = run(1000);
    const long = run(1e12);
    expect(short.spans.find((s) => s.kind === 'compute')!.endS).toBe(20_007.5);
    expect(long.spans.find((s) => s.kind === 'compute')!.endS).toBe(2e13 + 7.5);
    expect(long.result.finished).toBe(true);
    expect(long.result.events).toBe(short.result.events);
  });

  it('a transfer a billion cycles long: the end by hand, and no more events than a short one', () => {
    // Link 1000, 0, 4000 B/s (5 s each, latency 0): one 15 s cycle carries 5000 + 0 + 20000 = 25000 B.
    // The Work computes 15 s on a full host (0 → 15, a cycle boundary of the link); its output of
    // 25000m + 6000 B then goes in m cycles (15m s), 5000 B in the first sample (5 s), none in the second
    // (5 s), and the last 1000 B at 4000 B/s (0.25 s): it ends at 15 + 15m + 10.25 = 15m + 25.25.
    const run = (m: number) => {
      const app = makeApp([25000 * m + 6000], [{ inputs: [], outputs: [0], runTimeS: [15] }]);
      const grid = makeGrid(
        [addCluster(0, 'c', 'L'), addHost(0, 'c', 'h', 'full')],
        { L: [{ latencyMs: 0, bandwidthBps: 1000 }, { latencyMs: 0, bandwidthBps: 0 }, { latencyMs: 0, bandwidthBps: 4000 }] },
        { full: [100] },
      );
      return runScripted(app, grid, [
        { op: 'compute', work: 0, host: 'h' },
        { op: 'retrieve', work: 0, host: 'h', cluster: 'c' },
      ]);
    };
    const short = run(1000);
    const long = run(1e9);
    expect(short.spans.find((s) => s.kind === 'output')!.endS).toBe(15_025.25);
    expect(long.spans.find((s) => s.kind === 'output')!.endS).toBe(15e9 + 25.25);
    expect(long.result.events).toBe(short.result.events);
  });
});
