// A line chart: one line per series (e.g. makespan against the swept variable, one line per heuristic),
// with markers, axes, ticks, units and a legend. X values may be numbers (linear or log axis) or
// categories (evenly spaced, in order of first appearance).
import { axes, el, escapeXml, fmt, legend, linearScale, logScale, seriesStyle, svgDocument, text, tickLabel, type Scale } from './svg.js';

export interface LinePoint {
  readonly x: number | string;
  readonly y: number;
}

export interface LineSeries {
  readonly name: string;
  readonly points: readonly LinePoint[];
  /** Drawn grey and dashed, after the coloured series (e.g. a lower bound). */
  readonly reference?: boolean;
}

export interface LineChartOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly LineSeries[];
  readonly logX?: boolean;
  readonly width?: number;
  readonly height?: number;
}

export function lineChart(o: LineChartOptions): string {
  const width = o.width ?? 900;
  const height = o.height ?? 520;
  const legendWidth = 60 + Math.max(8, ...o.series.map((s) => s.name.length)) * 7;
  const area = { left: 80, top: 50, width: width - 80 - legendWidth - 30, height: height - 50 - 70 };
  const all = o.series.flatMap((s) => s.points);
  if (all.length === 0) throw new Error('nothing to plot: no points');
  const categorical = all.some((p) => typeof p.x === 'string');
  const categories = categorical ? [...new Set(all.map((p) => String(p.x)))] : [];

  let xOf: (x: number | string) => number;
  let xTicks: { at: number; label: string }[];
  if (categorical) {
    const step = area.width / categories.length;
    xOf = (x) => area.left + step * (categories.indexOf(String(x)) + 0.5);
    xTicks = categories.map((c) => ({ at: xOf(c), label: c }));
  } else {
    const xs = all.map((p) => p.x as number);
    const lo = Math.min(...xs);
    const hi = Math.max(...xs);
    const sx: Scale = o.logX ? logScale(lo, hi, area.left, area.left + area.width) : linearScale(lo, hi, area.left, area.left + area.width);
    xOf = (x) => sx(x as number);
    xTicks = sx.ticks.map((t) => ({ at: sx(t), label: tickLabel(t) }));
  }
  const ys = all.map((p) => p.y).filter(Number.isFinite);
  const sy = linearScale(Math.min(0, ...ys), Math.max(...ys), area.top + area.height, area.top);

  const body: string[] = [text(width / 2, 28, o.title, { 'text-anchor': 'middle', 'font-size': 16, class: 'chart-title' })];
  body.push(...axes(area, { ticks: xTicks, label: o.xLabel }, { scale: sy, label: o.yLabel }));
  const legendEntries: { label: string; color: string; dash: string | undefined }[] = [];
  let colourIndex = 0;
  for (const s of o.series) {
    const style = s.reference ? { color: '#777', dash: '4 4' } : seriesStyle(colourIndex++);
    const points = [...s.points]
      .filter((p) => Number.isFinite(p.y))
      .sort((a, b) => (categorical ? categories.indexOf(String(a.x)) - categories.indexOf(String(b.x)) : (a.x as number) - (b.x as number)));
    const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${fmt(xOf(p.x))},${fmt(sy(p.y))}`).join(' ');
    const markers = points.map((p) =>
      el('circle', { cx: xOf(p.x), cy: sy(p.y), r: 3, fill: style.color, class: 'point' }, el('title', {}, escapeXml(`${s.name}: ${p.x} → ${fmt(p.y)}`))),
    );
    body.push(
      el('g', { class: s.reference ? 'series reference' : 'series', 'data-series': s.name }, [
        el('path', { d, fill: 'none', stroke: style.color, 'stroke-width': 2, 'stroke-dasharray': style.dash, class: 'series-line' }),
        ...markers,
      ]),
    );
    legendEntries.push({ label: s.name, color: style.color, dash: style.dash });
  }
  body.push(legend(area.left + area.width + 20, area.top, legendEntries));
  return svgDocument(width, height, body, o.title);
}
