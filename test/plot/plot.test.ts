import { describe, expect, it } from 'vitest';
import { boxPlot, boxStatistics, ganttChart, lineChart, linearScale, logScale, niceTicks, quantile } from '../../src/plot/index.js';
import { axisLabelOf, makespanBoxPlot, makespanLineChart, type LoadedResults } from '../../src/experiment/results-plots.js';
import type { ResultRow } from '../../src/experiment/results.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { findAll, hasClass, parseXml, textsOf } from './xml.js';

describe('scales and ticks', () => {
  it('nice ticks are round and cover the range', () => {
    expect(niceTicks(0, 10, 5)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(0, 9600, 6)).toEqual([0, 2000, 4000, 6000, 8000, 10000]);
    const s = linearScale(3, 97, 0, 100);
    expect(s.ticks[0]).toBeLessThanOrEqual(3);
    expect(s.ticks.at(-1)).toBeGreaterThanOrEqual(97);
    expect(s(s.domain[0])).toBe(0);
    expect(s(s.domain[1])).toBe(100);
    const l = logScale(100, 9600, 0, 100);
    expect(l.ticks).toEqual([100, 200, 500, 1000, 2000, 5000]);
    expect(l(100)).toBe(0);
    expect(l(1000)).toBeCloseTo(100 * (1 / Math.log10(96)), 6);
  });

  it('quartiles interpolate between order statistics', () => {
    expect(quantile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(quantile([7], 0.75)).toBe(7);
  });

  it('axis labels carry the unit of the swept variable', () => {
    expect(axisLabelOf('sharedFileSizeKB')).toBe('shared file size (KB)');
    expect(axisLabelOf('planIntervalS')).toBe('plan interval (s)');
    expect(axisLabelOf('width')).toBe('width');
  });
});

describe('line chart', () => {
  const series = [
    { name: 'minmin', points: [{ x: 100, y: 3000 }, { x: 1200, y: 4000 }, { x: 9600, y: 9000 }] },
    { name: 'xsufferage', points: [{ x: 9600, y: 6000 }, { x: 100, y: 2900 }, { x: 1200, y: 3500 }] },
  ];

  it('one path per series, markers per point, legend, axis labels and ticks', () => {
    const svg = parseXml(lineChart({ title: 'Fig', xLabel: 'shared file size (KB)', yLabel: 'makespan (s)', series }));
    const groups = findAll(svg, (n) => n.name === 'g' && hasClass(n, 'series'));
    expect(groups.map((g) => g.attrs['data-series'])).toEqual(['minmin', 'xsufferage']);
    for (const g of groups) {
      expect(findAll(g, (n) => n.name === 'path')).toHaveLength(1);
      expect(findAll(g, (n) => n.name === 'circle')).toHaveLength(3);
    }
    const texts = textsOf(svg);
    expect(texts).toContain('shared file size (KB)');
    expect(texts).toContain('makespan (s)');
    expect(texts).toContain('Fig');
    expect(findAll(svg, (n) => hasClass(n, 'legend-entry'))).toHaveLength(2);
    expect(findAll(svg, (n) => hasClass(n, 'x-tick')).length).toBeGreaterThanOrEqual(3);
    expect(findAll(svg, (n) => hasClass(n, 'y-tick')).length).toBeGreaterThanOrEqual(3);
  });

  it('maps values monotonically: larger x to the right, larger y higher up, points sorted by x', () => {
    const svg = parseXml(lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series }));
    for (const g of findAll(svg, (n) => n.name === 'g' && hasClass(n, 'series'))) {
      const pts = findAll(g, (n) => n.name === 'circle').map((c) => [Number(c.attrs['cx']), Number(c.attrs['cy'])] as const);
      for (let i = 1; i < pts.length; i++) {
        expect(pts[i]![0]).toBeGreaterThan(pts[i - 1]![0]);
        expect(pts[i]![1]).toBeLessThan(pts[i - 1]![1]); // y grows with x in both series
      }
      const d = findAll(g, (n) => n.name === 'path')[0]!.attrs['d']!;
      expect(d.split(/[ML]/).filter(Boolean)).toHaveLength(3);
    }
  });

  it('categorical x values are evenly spaced in order of appearance', () => {
    const svg = parseXml(lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series: [{ name: 's', points: [{ x: 'small', y: 1 }, { x: 'large', y: 2 }, { x: 'huge', y: 3 }] }] }));
    const xs = findAll(svg, (n) => n.name === 'circle').map((c) => Number(c.attrs['cx']));
    expect(xs[1]! - xs[0]!).toBeCloseTo(xs[2]! - xs[1]!, 6);
    expect(textsOf(svg)).toEqual(expect.arrayContaining(['small', 'large', 'huge']));
  });

  it('escapes names and refuses an empty chart', () => {
    const svg = lineChart({ title: 'a < b & "c"', xLabel: 'x', yLabel: 'y', series: [{ name: '<h>', points: [{ x: 1, y: 1 }] }] });
    expect(textsOf(parseXml(svg))).toContain('a < b & "c"');
    expect(() => lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series: [] })).toThrow(/nothing to plot/);
  });
});

describe('box plot', () => {
  it('one box per series and group; median line between the quartiles', () => {
    const svg = parseXml(
      boxPlot({
        title: 'b',
        xLabel: 'size (KB)',
        yLabel: 'makespan (s)',
        groups: [
          { label: '100', boxes: [{ series: 'a', values: [10, 20, 30, 40, 50] }, { series: 'b', values: [5, 6, 7] }] },
          { label: '200', boxes: [{ series: 'a', values: [100, 110, 120] }, { series: 'b', values: [50, 60] }] },
        ],
      }),
    );
    const boxes = findAll(svg, (n) => n.name === 'g' && hasClass(n, 'box'));
    expect(boxes).toHaveLength(4);
    for (const box of boxes) {
      const rect = findAll(box, (n) => hasClass(n, 'iqr'))[0]!;
      const med = Number(findAll(box, (n) => hasClass(n, 'median'))[0]!.attrs['y1']);
      const top = Number(rect.attrs['y']);
      expect(med).toBeGreaterThanOrEqual(top - 1e-9);
      expect(med).toBeLessThanOrEqual(top + Number(rect.attrs['height']) + 1e-9);
    }
    const medianY = (series: string, group: string) =>
      Number(findAll(boxes.find((b) => b.attrs['data-series'] === series && b.attrs['data-group'] === group)!, (n) => hasClass(n, 'median'))[0]!.attrs['y1']);
    expect(medianY('a', '200')).toBeLessThan(medianY('a', '100')); // 110 is drawn above 30
    expect(textsOf(svg)).toEqual(expect.arrayContaining(['size (KB)', 'makespan (s)', '100', '200']));
  });
});

function row(heuristic: string, sweep: number, seed: number, makespanS: number): ResultRow {
  return {
    application: 'a', applicationSha256: 'x', grid: 'g', gridSha256: 'y', heuristic, strategy: 'default', sweep, seed, makespanS,
    lowerBoundS: sweep, workBoundS: sweep, lowerBoundBinding: 'cpu', utilization: 0.5, bytesMoved: 0, planCalls: 1, planCpuMs: 0, wallMs: 0, finished: true, worksDone: 1, worksTotal: 1, failures: 0, reexecutions: 0, key: `${heuristic}${sweep}${seed}`,
  };
}

describe('charts from experiment results', () => {
  const results: LoadedResults = {
    header: { gridsweepVersion: '0', resultsVersion: 1, experiment: 'exp', spec: { path: 's', sha256: 'z' }, sweepVariable: 'sharedFileSizeKB', seeds: [1, 2, 3], heuristics: ['h1', 'h2'], strategies: {}, inputs: [] },
    rows: [100, 200, 400].flatMap((kb) => ['h1', 'h2'].flatMap((h) => [1, 2, 3].map((seed) => row(h, kb, seed, kb * (h === 'h1' ? 2 : 3) + seed)))),
  };

  it('line: the median across seeds per heuristic, plus the lower bound', () => {
    const svg = parseXml(makespanLineChart(results));
    const series = findAll(svg, (n) => n.name === 'g' && hasClass(n, 'series'));
    expect(series.map((s) => s.attrs['data-series'])).toEqual(['h1', 'h2', 'lower bound']);
    const titles = findAll(series[0]!, (n) => n.name === 'title').map((t) => t.text);
    expect(titles).toEqual(['h1: 100 → 202', 'h1: 200 → 402', 'h1: 400 → 802']);
    expect(textsOf(svg)).toContain('shared file size (KB)');
  });

  it('box: one box per heuristic and swept value', () => {
    const svg = parseXml(makespanBoxPlot(results));
    expect(findAll(svg, (n) => n.name === 'g' && hasClass(n, 'box'))).toHaveLength(6);
  });
});

describe('Gantt chart', () => {
  const link1 = { type: 'link', cluster: 'c1' } as const;
  const h11 = { type: 'host', host: 'h1.1', cluster: 'c1' } as const;
  const h21 = { type: 'host', host: 'h2.1', cluster: 'c2' } as const;
  const events: RunRecordEvent[] = [
    { type: 'header', t: 0, gridsweepVersion: '0', mode: 'sim', heuristic: 'xsufferage', seed: 1, inputs: {}, options: {}, taskCount: 2 },
    { type: 'grid', t: 0, event: { timeS: 0, kind: 'ADD_CLUSTER', cluster: 'c1', behavior: 'l', offset: 0 } },
    { type: 'grid', t: 0, event: { timeS: 0, kind: 'ADD_HOST', cluster: 'c1', host: 'h1.1', behavior: 'b', offset: 0, arch: 0 } },
    { type: 'grid', t: 0, event: { timeS: 0, kind: 'ADD_CLUSTER', cluster: 'c2', behavior: 'l', offset: 0 } },
    { type: 'grid', t: 0, event: { timeS: 0, kind: 'ADD_HOST', cluster: 'c2', host: 'h2.1', behavior: 'b', offset: 0, arch: 0 } },
    { type: 'start', t: 0, id: 1, kind: 'input', resource: link1, file: 0, sizeBytes: 100 },
    { type: 'end', t: 10, id: 1, ok: true },
    { type: 'start', t: 10, id: 2, kind: 'compute', resource: h11, work: 0 },
    { type: 'start', t: 10, id: 3, kind: 'compute', resource: h21, work: 1 },
    { type: 'end', t: 40, id: 3, ok: false },
    { type: 'end', t: 60, id: 2, ok: true },
    { type: 'start', t: 60, id: 4, kind: 'output', resource: link1, work: 0 },
    { type: 'end', t: 70, id: 4, ok: true },
    { type: 'run-end', t: 70, makespanS: 70, worksDone: 1, worksFailed: 1 },
  ];

  it('rows per link and host grouped by cluster, bars coloured by kind, failures marked', () => {
    const svg = parseXml(ganttChart(events));
    const labels = findAll(svg, (n) => n.name === 'text' && hasClass(n, 'row-label')).map((n) => n.text);
    expect(labels).toEqual(['c1 link', 'h1.1', 'c2 link', 'h2.1']);
    const bars = findAll(svg, (n) => n.name === 'rect' && hasClass(n, 'bar'));
    expect(bars.filter((b) => hasClass(b, 'input'))).toHaveLength(1);
    expect(bars.filter((b) => hasClass(b, 'compute'))).toHaveLength(2);
    expect(bars.filter((b) => hasClass(b, 'output'))).toHaveLength(1);
    expect(bars.filter((b) => hasClass(b, 'failed'))).toHaveLength(1);
    expect(new Set(bars.filter((b) => !hasClass(b, 'failed')).map((b) => b.attrs['fill'])).size).toBe(3);
    // Widths are proportional to durations: compute 50 s is 5 × the input's 10 s.
    const width = (kind: string) => Number(bars.find((b) => hasClass(b, kind) && !hasClass(b, 'failed'))!.attrs['width']);
    expect(width('compute') / width('input')).toBeCloseTo(5, 1);
    // The output bar starts where the compute bar ends, on the link row of c1 (same y as the input).
    const output = bars.find((b) => hasClass(b, 'output'))!;
    const input = bars.find((b) => hasClass(b, 'input'))!;
    expect(output.attrs['y']).toBe(input.attrs['y']);
    const compute = bars.find((b) => hasClass(b, 'compute') && !hasClass(b, 'failed'))!;
    expect(Number(output.attrs['x'])).toBeCloseTo(Number(compute.attrs['x']) + Number(compute.attrs['width']), 1);
    expect(textsOf(svg)).toEqual(expect.arrayContaining(['time (s)', 'computation', 'input transfer', 'output transfer']));
    expect(textsOf(svg).some((t) => t.includes('xsufferage'))).toBe(true);
  });
});

describe('box statistics, by hand', () => {
  it('quartiles (type 7), mean and population sd of 1, 2, 3, 4, 10', () => {
    // Quartile positions (n − 1) × q = 1, 2, 3 → 2, 3, 4; mean 20 / 5 = 4; sd √((9 + 4 + 1 + 0 + 36) / 5) = √10.
    const s = boxStatistics([10, 3, 1, 4, 2])!;
    expect(s).toMatchObject({ min: 1, q1: 2, median: 3, q3: 4, max: 10, count: 5, mean: 4 });
    expect(s.sd).toBeCloseTo(Math.sqrt(10), 12);
  });

  it('interpolates between order statistics for an even count', () => {
    // 1, 2, 3, 4: q1 at 0.75 → 1.75, median at 1.5 → 2.5, q3 at 2.25 → 3.25.
    expect(boxStatistics([4, 1, 3, 2])).toMatchObject({ q1: 1.75, median: 2.5, q3: 3.25, mean: 2.5 });
    expect(boxStatistics([])).toBeUndefined();
  });
});
