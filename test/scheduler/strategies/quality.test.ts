// Quality of information (Berman et al. 1999, §5.2.2) and how resource performance is predicted from measurements.
import { describe, expect, it } from 'vitest';
import { LastValueForecaster } from '../../../src/forecast/last-value.js';
import type { Sample } from '../../../src/interfaces/information.js';
import type { Application, FileSpec, WorkSpec } from '../../../src/model/application.js';
import { Estimator } from '../../../src/scheduler/estimates.js';
import { Beliefs, type Quality } from '../../../src/scheduler/strategies/quality.js';
import { Rng } from '../../../src/util/rng.js';
import { FakeGrid } from '../support/fake-grid.js';
import { Harness } from '../support/harness.js';

const files: FileSpec[] = [
  { id: 0, name: 'in', sizeBytes: 1000, estSizeBytes: 800 },
  { id: 1, name: 'out0', sizeBytes: 300, estSizeBytes: 50 },
  { id: 2, name: 'out1', sizeBytes: 500, estSizeBytes: 50 },
];
const works: WorkSpec[] = [
  { id: 0, inputs: [0], outputs: [1], runTimeS: [100, 40], estRunTimeS: [60, 90] },
  { id: 1, inputs: [0], outputs: [2], runTimeS: [200, 80], estRunTimeS: [60, 90] },
];
const beliefs = (quality: Quality, seed = 1, noiseBound = 0.2) => new Beliefs(files, works, quality, noiseBound, () => new Rng(seed));

describe('Beliefs', () => {
  it('estimates: the user estimates as given', () => {
    const b = beliefs('estimates');
    expect(b.work(works[0]!).estRunTimeS).toEqual([60, 90]);
    expect(b.files().map((f) => f.estSizeBytes)).toEqual([800, 50, 50]);
  });

  it('exact: the real run times and sizes', () => {
    const b = beliefs('exact');
    expect(b.work(works[1]!).estRunTimeS).toEqual([200, 80]);
    expect(b.files().map((f) => f.estSizeBytes)).toEqual([1000, 300, 500]);
  });

  it('noisy: within the bound of the real values, not equal to them, the same for the same seed', () => {
    const b = beliefs('noisy', 3, 0.1);
    const est = b.work(works[0]!).estRunTimeS;
    est.forEach((t, a) => {
      expect(Math.abs(t / works[0]!.runTimeS[a]! - 1)).toBeLessThanOrEqual(0.1);
      expect(t).not.toBe(works[0]!.runTimeS[a]);
    });
    b.files().forEach((f, k) => expect(Math.abs(f.estSizeBytes / files[k]!.sizeBytes - 1)).toBeLessThanOrEqual(0.1));
    expect(beliefs('noisy', 3, 0.1).work(works[0]!).estRunTimeS).toEqual(est);
    expect(beliefs('noisy', 4, 0.1).work(works[0]!).estRunTimeS).not.toEqual(est);
    // Asked twice, a Work keeps its noise.
    expect(b.work(works[0]!).estRunTimeS).toEqual(est);
  });

  it('output-unknown: outputs are 0 until one is produced, then the mean of those produced; produced ones are exact', () => {
    const b = beliefs('output-unknown');
    expect(b.files().map((f) => f.estSizeBytes)).toEqual([800, 0, 0]);
    b.observeOutputs(works[0]!, files);
    expect(b.files().map((f) => f.estSizeBytes)).toEqual([800, 300, 300]);
    b.observeOutputs(works[1]!, files);
    expect(b.files().map((f) => f.estSizeBytes)).toEqual([800, 300, 500]);
  });

  it("planFiles: files() frozen, the same array until a believed size changes (the plan's set-up keeps sums while it is)", () => {
    for (const quality of ['estimates', 'output-unknown'] as const) {
      // A copy of the shared files: in 'estimates' mode planFiles freezes the array it was given.
      const b = new Beliefs(files.slice(), works, quality, 0.2, () => new Rng(1));
      const first = b.planFiles();
      expect(Object.isFrozen(first)).toBe(true);
      expect(first).toEqual(b.files());
      expect(b.planFiles()).toBe(first);
      b.observeOutputs(works[0]!, files);
      const second = b.planFiles();
      // Estimates never change; output-unknown learns from the produced output.
      if (quality === 'estimates') expect(second).toBe(first);
      else {
        expect(second).not.toBe(first);
        expect(second.map((f) => f.estSizeBytes)).toEqual([800, 300, 300]);
        expect(first.map((f) => f.estSizeBytes)).toEqual([800, 0, 0]);
      }
      expect(b.planFiles()).toBe(second);
    }
  });
});

describe('quality through the scheduler', () => {
  // The estimates say arch 0 is faster; really arch 1 is.
  const app: Application = { version: '1', files, works: [works[0]!] };
  for (const [quality, host] of [['estimates', 'c1.a'], ['exact', 'c1.b']] as const) {
    it(`${quality}: the Work goes to ${host}`, () => {
      const h = new Harness(app, { quality, heuristic: 'minmin' });
      h.start([{ id: 'c1.a', clusterId: 'c1', arch: 0 }, { id: 'c1.b', clusterId: 'c1', arch: 1 }]);
      h.complete(h.find((op) => op.kind === 'store'), 1);
      expect(h.grid.log.filter((l) => l.startsWith('compute'))).toEqual([`compute 0 ${host}`]);
    });
  }

  it('an unknown strategy name is refused, naming the valid ones', () => {
    expect(() => new Harness(app, { quality: 'perfect' as Quality })).toThrow(/unknown quality "perfect"; expected one of: estimates, exact, noisy, output-unknown/);
  });
});

describe('resource predictors', () => {
  /** Availability mostly 1 with rare dips to 0.2; the last measurement is a dip. */
  const series: Sample[] = Array.from({ length: 60 }, (_, k) => ({ timeS: 5 * k, value: k % 10 === 9 ? 0.2 : 1 }));
  class SeriesGrid extends FakeGrid {
    override hostAvailability(): readonly Sample[] {
      return series;
    }
  }
  const grid = new SeriesGrid();

  it('last-value takes the last measurement; the service given is used as is', () => {
    expect(new Estimator(grid, new LastValueForecaster(), 'last-value').availability('h')).toBe(0.2);
    expect(new Estimator(grid, new LastValueForecaster(), 'service').availability('h')).toBe(0.2);
  });

  it('nws forecasts from the history: the dips are outliers, the forecast stays near 1', () => {
    const a = new Estimator(grid, new LastValueForecaster(), 'nws').availability('h');
    expect(a).toBeGreaterThan(0.9);
  });
});
