// A grouped box plot: for each group (e.g. a swept value) one box per series (e.g. a heuristic) showing
// the spread of a measure across seeds (or jobs): the box from the first to the third quartile, a line at
// the median, whiskers to the minimum and maximum. A box is drawn from its values, or from a summary when
// the values are too many to keep (a million jobs' slowdowns).
import { meanAndSd } from '../util/stats.js';
import { axes, el, escapeXml, fmt, legend, linearScale, logScale, seriesStyle, svgDocument, text, type Scale } from './svg.js';

/** The five numbers a box shows, and optionally the mean and standard deviation (shown in its tooltip). */
export interface BoxSummary {
  readonly min: number;
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
  readonly max: number;
  readonly count: number;
  readonly mean?: number;
  readonly sd?: number;
}

export type Box = { readonly series: string } & ({ readonly values: readonly number[] } | { readonly summary: BoxSummary });

export interface BoxGroup {
  readonly label: string;
  readonly boxes: readonly Box[];
}

export interface BoxPlotOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly groups: readonly BoxGroup[];
  readonly width?: number;
  readonly height?: number;
  /** A base-10 log axis (every value > 0), for heavy-tailed measures such as slowdown. */
  readonly logY?: boolean;
}

/** Quantile by linear interpolation between order statistics (type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const i = Math.floor(pos);
  const frac = pos - i;
  return i + 1 < sorted.length ? sorted[i]! + frac * (sorted[i + 1]! - sorted[i]!) : sorted[i]!;
}

/** The five numbers (type-7 quartiles), the mean and the population standard deviation of `values`. */
export function boxStatistics(values: readonly number[]): BoxSummary | undefined {
  if (values.length === 0) return undefined;
  const s = [...values].sort((p, q) => p - q);
  const { mean, sd } = meanAndSd(s);
  return { min: s[0]!, q1: quantile(s, 0.25), median: quantile(s, 0.5), q3: quantile(s, 0.75), max: s[s.length - 1]!, count: s.length, mean, sd };
}

function summaryOf(box: Box): BoxSummary | undefined {
  return 'summary' in box ? box.summary : boxStatistics(box.values);
}

export function boxPlot(o: BoxPlotOptions): string {
  const seriesNames = [...new Set(o.groups.flatMap((g) => g.boxes.map((b) => b.series)))];
  const summaries = o.groups.flatMap((g) => g.boxes.flatMap((b) => summaryOf(b) ?? []));
  const all = summaries.flatMap((b) => [b.min, b.max]);
  if (all.length === 0) throw new Error('nothing to plot: no values');
  const legendWidth = 60 + Math.max(8, ...seriesNames.map((s) => s.length)) * 7;
  const width = o.width ?? Math.max(700, 120 + o.groups.length * (seriesNames.length * 14 + 30) + legendWidth);
  const height = o.height ?? 520;
  const area = { left: 80, top: 50, width: width - 80 - legendWidth - 30, height: height - 50 - 70 };
  const sy: Scale = o.logY ? logScale(Math.min(...all), Math.max(...all), area.top + area.height, area.top) : linearScale(Math.min(0, ...all), Math.max(...all), area.top + area.height, area.top);
  const groupWidth = area.width / o.groups.length;
  const boxWidth = Math.max(3, Math.min(24, (groupWidth * 0.8) / seriesNames.length));

  const body: string[] = [text(width / 2, 28, o.title, { 'text-anchor': 'middle', 'font-size': 16, class: 'chart-title' })];
  const xTicks = o.groups.map((g, i) => ({ at: area.left + groupWidth * (i + 0.5), label: g.label }));
  body.push(...axes(area, { ticks: xTicks, label: o.xLabel }, { scale: sy, label: o.yLabel }));
  o.groups.forEach((g, gi) => {
    const start = area.left + groupWidth * (gi + 0.5) - (boxWidth * seriesNames.length) / 2;
    for (const b of g.boxes) {
      const sm = summaryOf(b);
      if (sm === undefined) continue;
      const si = seriesNames.indexOf(b.series);
      const { color } = seriesStyle(si);
      const x = start + si * boxWidth + 1;
      const w = boxWidth - 2;
      const cx = x + w / 2;
      const meanSd = sm.mean === undefined ? '' : `, mean ${fmt(sm.mean)}${sm.sd === undefined ? '' : ` ± ${fmt(sm.sd)}`}`;
      body.push(
        el('g', { class: 'box', 'data-series': b.series, 'data-group': g.label }, [
          el('title', {}, escapeXml(`${b.series} @ ${g.label}: median ${fmt(sm.median)}, quartiles ${fmt(sm.q1)}–${fmt(sm.q3)}, range ${fmt(sm.min)}–${fmt(sm.max)}${meanSd} (${sm.count} values)`)),
          el('line', { x1: cx, y1: sy(sm.min), x2: cx, y2: sy(sm.max), stroke: color, class: 'whisker' }),
          el('rect', { x, y: sy(sm.q3), width: w, height: Math.max(1, sy(sm.q1) - sy(sm.q3)), fill: color, 'fill-opacity': 0.5, stroke: color, class: 'iqr' }),
          el('line', { x1: x, y1: sy(sm.median), x2: x + w, y2: sy(sm.median), stroke: color, 'stroke-width': 3, class: 'median' }),
        ]),
      );
    }
  });
  body.push(legend(area.left + area.width + 20, area.top, seriesNames.map((name, i) => ({ label: name, color: seriesStyle(i).color, marker: 'box' as const }))));
  return svgDocument(width, height, body, o.title);
}
