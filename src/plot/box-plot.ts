// A grouped box plot: for each group (e.g. a swept value) one box per series (e.g. a heuristic) showing
// the spread of a measure across seeds: the box from the first to the third quartile, a line at the
// median, whiskers to the minimum and maximum.
import { axes, el, escapeXml, fmt, legend, linearScale, seriesStyle, svgDocument, text } from './svg.js';

export interface BoxGroup {
  readonly label: string;
  readonly boxes: ReadonlyArray<{ readonly series: string; readonly values: readonly number[] }>;
}

export interface BoxPlotOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly groups: readonly BoxGroup[];
  readonly width?: number;
  readonly height?: number;
}

/** Quantile by linear interpolation between order statistics (type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const i = Math.floor(pos);
  const frac = pos - i;
  return i + 1 < sorted.length ? sorted[i]! + frac * (sorted[i + 1]! - sorted[i]!) : sorted[i]!;
}

export function boxPlot(o: BoxPlotOptions): string {
  const seriesNames = [...new Set(o.groups.flatMap((g) => g.boxes.map((b) => b.series)))];
  const all = o.groups.flatMap((g) => g.boxes.flatMap((b) => b.values));
  if (all.length === 0) throw new Error('nothing to plot: no values');
  const legendWidth = 60 + Math.max(8, ...seriesNames.map((s) => s.length)) * 7;
  const width = o.width ?? Math.max(700, 120 + o.groups.length * (seriesNames.length * 14 + 30) + legendWidth);
  const height = o.height ?? 520;
  const area = { left: 80, top: 50, width: width - 80 - legendWidth - 30, height: height - 50 - 70 };
  const sy = linearScale(Math.min(0, ...all), Math.max(...all), area.top + area.height, area.top);
  const groupWidth = area.width / o.groups.length;
  const boxWidth = Math.max(3, Math.min(24, (groupWidth * 0.8) / seriesNames.length));

  const body: string[] = [text(width / 2, 28, o.title, { 'text-anchor': 'middle', 'font-size': 16, class: 'chart-title' })];
  const xTicks = o.groups.map((g, i) => ({ at: area.left + groupWidth * (i + 0.5), label: g.label }));
  body.push(...axes(area, { ticks: xTicks, label: o.xLabel }, { scale: sy, label: o.yLabel }));
  o.groups.forEach((g, gi) => {
    const start = area.left + groupWidth * (gi + 0.5) - (boxWidth * seriesNames.length) / 2;
    for (const b of g.boxes) {
      if (b.values.length === 0) continue;
      const si = seriesNames.indexOf(b.series);
      const { color } = seriesStyle(si);
      const s = [...b.values].sort((p, q) => p - q);
      const [min, q1, med, q3, max] = [s[0]!, quantile(s, 0.25), quantile(s, 0.5), quantile(s, 0.75), s[s.length - 1]!];
      const x = start + si * boxWidth + 1;
      const w = boxWidth - 2;
      const cx = x + w / 2;
      body.push(
        el('g', { class: 'box', 'data-series': b.series, 'data-group': g.label }, [
          el('title', {}, escapeXml(`${b.series} @ ${g.label}: median ${fmt(med)}, quartiles ${fmt(q1)}–${fmt(q3)}, range ${fmt(min)}–${fmt(max)} (${s.length} values)`)),
          el('line', { x1: cx, y1: sy(min), x2: cx, y2: sy(max), stroke: color, class: 'whisker' }),
          el('rect', { x, y: sy(q3), width: w, height: Math.max(1, sy(q1) - sy(q3)), fill: color, 'fill-opacity': 0.5, stroke: color, class: 'iqr' }),
          el('line', { x1: x, y1: sy(med), x2: x + w, y2: sy(med), stroke: color, 'stroke-width': 3, class: 'median' }),
        ]),
      );
    }
  });
  body.push(legend(area.left + area.width + 20, area.top, seriesNames.map((name, i) => ({ label: name, color: seriesStyle(i).color, marker: 'box' as const }))));
  return svgDocument(width, height, body, o.title);
}
