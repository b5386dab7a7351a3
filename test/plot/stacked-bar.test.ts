// The stacked bar chart: segment heights are shares of each bar's total (by hand below), stacked bottom-up
// in the parts' order; bad bars are refused.
import { describe, expect, it } from 'vitest';
import { stackedBarChart } from '../../src/plot/stacked-bar.js';
import { findAll, parseXml } from './xml.js';

describe('stackedBarChart', () => {
  it('splits each bar into shares of its total, stacked in order', () => {
    // Bar a: 3 + 1 = 4 → 75 % and 25 %; bar b: 0 and 10 → 0 % (no segment drawn) and 100 %.
    const svg = parseXml(stackedBarChart({ title: 't', xLabel: 'x', yLabel: 'y', parts: ['compute', 'idle'], bars: [{ label: 'a', values: [3, 1] }, { label: 'b', values: [0, 10] }] }));
    const bars = findAll(svg, (n) => n.name === 'g' && n.attrs['class'] === 'bar');
    expect(bars.map((b) => b.attrs['data-bar'])).toEqual(['a', 'b']);
    const seg = (b: number) => bars[b]!.children.map((s) => [s.attrs['data-part'], Number(s.attrs['data-share']), Number(s.attrs['y']), Number(s.attrs['height'])] as const);
    const a = seg(0);
    expect(a.map(([p, s]) => [p, s])).toEqual([['compute', 75], ['idle', 25]]);
    // compute sits below idle (larger y), and the two heights are 3 : 1 and fill the plot's height.
    expect(a[0]![2]).toBeGreaterThan(a[1]![2]);
    expect(a[0]![3] / a[1]![3]).toBeCloseTo(3, 1);
    expect(seg(1).map(([p, s]) => [p, s])).toEqual([['idle', 100]]);
    expect(seg(1)[0]![3]).toBeCloseTo(a[0]![3] + a[1]![3], 1);
  });

  it('refuses bars without a value per part, or with negative values', () => {
    expect(() => stackedBarChart({ title: 't', xLabel: 'x', yLabel: 'y', parts: ['p', 'q'], bars: [{ label: 'a', values: [1] }] })).toThrow('bar a: 1 values for 2 parts');
    expect(() => stackedBarChart({ title: 't', xLabel: 'x', yLabel: 'y', parts: ['p'], bars: [{ label: 'a', values: [-1] }] })).toThrow('finite number >= 0');
    expect(() => stackedBarChart({ title: 't', xLabel: 'x', yLabel: 'y', parts: ['p'], bars: [] })).toThrow('no bars');
  });
});
