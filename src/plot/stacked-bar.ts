// A stacked bar chart: one bar per category, each split into the same ordered parts (e.g. the execution
// profile of a time-sharing strategy — compute, spin, context switch, interrupt, idle — as a share of the
// CPUs' time, the way Zhang and Sivasubramaniam 2004 draw it in their Figure 9).
import { axes, el, escapeXml, fmt, legend, linearScale, seriesStyle, svgDocument, text } from './svg.js';

export interface StackedBar {
  readonly label: string;
  /** One value per part, in the order of `parts`; values ≥ 0. */
  readonly values: readonly number[];
}

export interface StackedBarOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly parts: readonly string[];
  readonly bars: readonly StackedBar[];
  /** Fixed top of the y axis (e.g. 100 for percentages); default the tallest bar. */
  readonly yMax?: number;
  readonly width?: number;
  readonly height?: number;
  /** Colours per part; default the palette in order. */
  readonly colors?: readonly string[];
}

export function stackedBarChart(o: StackedBarOptions): string {
  if (o.bars.length === 0) throw new Error('nothing to plot: no bars');
  for (const b of o.bars) if (b.values.length !== o.parts.length) throw new Error(`bar ${b.label}: ${b.values.length} values for ${o.parts.length} parts`);
  const width = o.width ?? Math.max(600, 160 + o.bars.length * 70);
  const height = o.height ?? 480;
  const legendWidth = 60 + Math.max(8, ...o.parts.map((p) => p.length)) * 7;
  const area = { left: 80, top: 50, width: width - 80 - legendWidth - 30, height: height - 50 - 90 };
  const totals = o.bars.map((b) => b.values.reduce((a, v) => a + v, 0));
  const sy = linearScale(0, o.yMax ?? Math.max(...totals), area.top + area.height, area.top);
  const step = area.width / o.bars.length;
  const barWidth = Math.min(60, step * 0.7);
  const xOf = (i: number) => area.left + step * (i + 0.5);
  const color = (j: number) => o.colors?.[j] ?? seriesStyle(j).color;
  const body: string[] = [text(width / 2, 28, o.title, { 'text-anchor': 'middle', 'font-size': 16, class: 'chart-title' })];
  body.push(...axes(area, { ticks: o.bars.map((b, i) => ({ at: xOf(i), label: b.label })), label: o.xLabel }, { scale: sy, label: o.yLabel }));
  o.bars.forEach((b, i) => {
    let base = 0;
    const rects = b.values.map((v, j) => {
      const y0 = sy(base);
      const y1 = sy(base + v);
      base += v;
      return el('rect', { x: xOf(i) - barWidth / 2, y: y1, width: barWidth, height: Math.max(0, y0 - y1), fill: color(j), class: 'segment', 'data-part': o.parts[j] }, el('title', {}, escapeXml(`${b.label} ${o.parts[j]}: ${fmt(v)}`)));
    });
    body.push(el('g', { class: 'bar', 'data-bar': b.label }, rects));
  });
  body.push(legend(area.left + area.width + 20, area.top, o.parts.map((p, j) => ({ label: p, color: color(j), marker: 'box' as const })).reverse()));
  return svgDocument(width, height, body, o.title);
}
