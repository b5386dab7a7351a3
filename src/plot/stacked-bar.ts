// A stacked bar chart: one bar per category (e.g. a time-sharing strategy), split into parts (e.g. the
// execution profile's compute, spin, context switch, interrupt and idle), each part's height its share of
// the bar's total — so every bar reaches 100 % and bars of different totals compare by composition, as in
// the execution profiles of Zhang and Sivasubramaniam 2004 (Figure 9). Parts are stacked from the bottom
// in the order given; each segment carries a tooltip with its value and share.
import { axes, el, escapeXml, fmt, legend, linearScale, seriesStyle, svgDocument, text } from './svg.js';

export interface StackedBar {
  readonly label: string;
  /** One value per part (same order as `parts`), each >= 0. */
  readonly values: readonly number[];
}

export interface StackedBarOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly parts: readonly string[];
  readonly bars: readonly StackedBar[];
  /** Unit of the values, for tooltips (e.g. " s"). */
  readonly unit?: string;
  readonly width?: number;
  readonly height?: number;
  /** Colours per part; default the palette in order. */
  readonly colors?: readonly string[];
}

export function stackedBarChart(o: StackedBarOptions): string {
  if (o.bars.length === 0) throw new Error('nothing to plot: no bars');
  for (const b of o.bars) {
    if (b.values.length !== o.parts.length) throw new Error(`bar ${b.label}: ${b.values.length} values for ${o.parts.length} parts`);
    if (b.values.some((v) => !(v >= 0) || !Number.isFinite(v))) throw new Error(`bar ${b.label}: every value must be a finite number >= 0`);
  }
  const legendWidth = 60 + Math.max(8, ...o.parts.map((p) => p.length)) * 7;
  const width = o.width ?? Math.max(560, 140 + o.bars.length * 90 + legendWidth);
  const height = o.height ?? 460;
  const area = { left: 80, top: 50, width: width - 80 - legendWidth - 30, height: height - 50 - 70 };
  const sy = linearScale(0, 100, area.top + area.height, area.top, 5);
  const slot = area.width / o.bars.length;
  const barWidth = Math.min(60, slot * 0.6);
  const body: string[] = [text(width / 2, 28, o.title, { 'text-anchor': 'middle', 'font-size': 16, class: 'chart-title' })];
  const xTicks = o.bars.map((b, i) => ({ at: area.left + slot * (i + 0.5), label: b.label }));
  body.push(...axes(area, { ticks: xTicks, label: o.xLabel }, { scale: sy, label: o.yLabel }));
  const unit = o.unit ?? '';
  o.bars.forEach((b, i) => {
    const total = b.values.reduce((a, v) => a + v, 0);
    const x = area.left + slot * (i + 0.5) - barWidth / 2;
    let below = 0;
    const segments: string[] = [];
    b.values.forEach((v, p) => {
      const share = total === 0 ? 0 : (100 * v) / total;
      const y0 = sy(below);
      const y1 = sy(below + share);
      below += share;
      if (share === 0) return;
      segments.push(
        el('rect', { x, y: y1, width: barWidth, height: Math.max(0, y0 - y1), fill: o.colors?.[p] ?? seriesStyle(p).color, stroke: 'white', 'stroke-width': 0.5, class: 'segment', 'data-part': o.parts[p]!, 'data-share': share.toFixed(4) }, el('title', {}, escapeXml(`${b.label}: ${o.parts[p]} ${fmt(share)} % (${fmt(v)}${unit})`))),
      );
    });
    body.push(el('g', { class: 'bar', 'data-bar': b.label }, segments));
  });
  body.push(legend(area.left + area.width + 20, area.top, [...o.parts].map((name, p) => ({ label: name, color: o.colors?.[p] ?? seriesStyle(p).color, marker: 'box' as const })).reverse()));
  return svgDocument(width, height, body, o.title);
}
