// A minimal SVG writer: elements as strings with escaped attributes, a categorical palette, and axis
// helpers (linear and log scales with "nice" ticks). Shared by the line chart, box plot and Gantt chart.

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

type Attrs = Readonly<Record<string, string | number | undefined>>;

function attrs(a: Attrs): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(typeof v === 'number' ? fmt(v) : v!)}"`)
    .join('');
}

/** Numbers printed short: two decimals at most. */
export function fmt(x: number): string {
  return String(Math.round(x * 100) / 100);
}

export function el(name: string, a: Attrs, children: string | readonly string[] = ''): string {
  const body = typeof children === 'string' ? children : children.join('\n');
  return body === '' ? `<${name}${attrs(a)}/>` : `<${name}${attrs(a)}>${body}</${name}>`;
}

export function text(x: number, y: number, content: string, a: Attrs = {}): string {
  return el('text', { x, y, ...a }, escapeXml(content));
}

export function svgDocument(width: number, height: number, body: readonly string[], title: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${el(
    'svg',
    { xmlns: 'http://www.w3.org/2000/svg', width, height, viewBox: `0 0 ${width} ${height}`, 'font-family': 'sans-serif', 'font-size': 12 },
    [el('title', {}, escapeXml(title)), el('rect', { x: 0, y: 0, width, height, fill: 'white', class: 'background' }), ...body],
  )}\n`;
}

/** Ten distinguishable colours (Tableau 10), cycled. */
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const DASHES = [undefined, '6 3', '2 3', '8 3 2 3'];

export function seriesStyle(i: number): { color: string; dash: string | undefined } {
  return { color: PALETTE[i % PALETTE.length]!, dash: DASHES[Math.floor(i / PALETTE.length) % DASHES.length] };
}

/** Round tick values from at or below `lo` to at or above `hi`: steps of 1, 2 or 5 × 10^k, about `count` of them. */
export function niceTicks(lo: number, hi: number, count = 6): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.ceil(hi / step - 1e-9);
  const ticks: number[] = [];
  // Multiplying integers by the step (rather than adding steps) keeps the values round; + 0 turns -0 into 0.
  for (let k = first; k <= last; k++) ticks.push(Number((k * step).toPrecision(12)) + 0);
  return ticks;
}

export interface Scale {
  (v: number): number;
  readonly ticks: readonly number[];
  readonly domain: readonly [number, number];
}

/** A linear scale from [d0, d1] (widened to nice ticks) onto [r0, r1]. */
export function linearScale(d0: number, d1: number, r0: number, r1: number, tickCount = 6): Scale {
  if (d0 === d1) {
    d0 -= d0 === 0 ? 1 : Math.abs(d0) * 0.1;
    d1 += d1 === 0 ? 1 : Math.abs(d1) * 0.1;
  }
  const ticks = niceTicks(d0, d1, tickCount);
  const lo = Math.min(d0, ticks[0]!);
  const hi = Math.max(d1, ticks[ticks.length - 1]!);
  const f = ((v: number) => r0 + ((v - lo) / (hi - lo)) * (r1 - r0)) as Scale;
  return Object.assign(f, { ticks, domain: [lo, hi] as const });
}

/** A base-10 log scale (all values > 0); ticks at 1, 2, 5 × 10^k within the domain. */
export function logScale(d0: number, d1: number, r0: number, r1: number): Scale {
  if (!(d0 > 0 && d1 > 0)) throw new Error('a log scale needs values > 0');
  const lo = Math.log10(Math.min(d0, d1));
  const hi = Math.log10(Math.max(d0, d1));
  const span = hi - lo || 1;
  const ticks: number[] = [];
  for (let k = Math.floor(lo); k <= Math.ceil(hi); k++) for (const m of [1, 2, 5]) {
    const t = m * 10 ** k;
    if (t >= 10 ** lo * (1 - 1e-9) && t <= 10 ** hi * (1 + 1e-9)) ticks.push(t);
  }
  const f = ((v: number) => r0 + ((Math.log10(v) - lo) / span) * (r1 - r0)) as Scale;
  return Object.assign(f, { ticks, domain: [10 ** lo, 10 ** hi] as const });
}

/** A tick label: 12000 → "12000", 0.25 → "0.25", 1.5e6 → "1.5M". */
export function tickLabel(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${fmt(v / 1e6)}M`;
  if (a >= 1e5) return `${fmt(v / 1e3)}k`;
  return fmt(v);
}

export interface PlotArea {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/** Axes with ticks, grid lines and labels. `xTicks` may carry text labels (categorical axes). */
export function axes(area: PlotArea, x: { ticks: readonly { at: number; label: string }[]; label: string }, y: { scale: Scale; label: string }): string[] {
  const { left, top, width, height } = area;
  const bottom = top + height;
  const out: string[] = [];
  out.push(el('line', { x1: left, y1: bottom, x2: left + width, y2: bottom, stroke: 'black', class: 'axis x-axis' }));
  out.push(el('line', { x1: left, y1: top, x2: left, y2: bottom, stroke: 'black', class: 'axis y-axis' }));
  for (const t of x.ticks) {
    out.push(el('line', { x1: t.at, y1: bottom, x2: t.at, y2: bottom + 5, stroke: 'black', class: 'tick x-tick' }));
    out.push(text(t.at, bottom + 18, t.label, { 'text-anchor': 'middle', class: 'tick-label x-tick-label' }));
  }
  for (const v of y.scale.ticks) {
    const py = y.scale(v);
    out.push(el('line', { x1: left, y1: py, x2: left + width, y2: py, stroke: '#e5e5e5', class: 'grid' }));
    out.push(el('line', { x1: left - 5, y1: py, x2: left, y2: py, stroke: 'black', class: 'tick y-tick' }));
    out.push(text(left - 8, py + 4, tickLabel(v), { 'text-anchor': 'end', class: 'tick-label y-tick-label' }));
  }
  out.push(text(left + width / 2, bottom + 40, x.label, { 'text-anchor': 'middle', class: 'axis-label x-label' }));
  out.push(text(16, top + height / 2, y.label, { 'text-anchor': 'middle', transform: `rotate(-90 16 ${fmt(top + height / 2)})`, class: 'axis-label y-label' }));
  return out;
}

/** A legend box at (x, y): one coloured swatch per entry. */
export function legend(x: number, y: number, entries: readonly { label: string; color: string; dash?: string | undefined; marker?: 'line' | 'box' }[]): string {
  const rows = entries.map((e, i) => {
    const cy = y + 14 + i * 18;
    const swatch =
      e.marker === 'box'
        ? el('rect', { x: x + 8, y: cy - 6, width: 18, height: 12, fill: e.color, 'fill-opacity': 0.5, stroke: e.color })
        : el('line', { x1: x + 6, y1: cy, x2: x + 28, y2: cy, stroke: e.color, 'stroke-width': 2, 'stroke-dasharray': e.dash });
    return el('g', { class: 'legend-entry' }, [swatch, text(x + 34, cy + 4, e.label)]);
  });
  const width = 44 + Math.max(...entries.map((e) => e.label.length)) * 7;
  return el('g', { class: 'legend' }, [el('rect', { x, y, width, height: entries.length * 18 + 10, fill: 'white', stroke: '#999' }), ...rows]);
}
