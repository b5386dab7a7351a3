// The Gantt chart of a run as inline SVG (Berman et al. 1999, §5.5, Fig. 6): one row per link and per host, grouped
// by cluster, one rectangle per sub-task coloured by kind; failed sub-tasks, re-executions and the
// periods a host was down are marked.
import type { Bar, RunState } from './run-state.js';
import { escapeHtml, tickStepS } from './format.js';

export interface GanttLayout {
  readonly widthPx: number;
  readonly gutterPx: number;
  readonly rowPx: number;
  readonly clusterHeaderPx: number;
  readonly axisPx: number;
}

export const DEFAULT_GANTT_LAYOUT: GanttLayout = { widthPx: 1200, gutterPx: 150, rowPx: 14, clusterHeaderPx: 18, axisPx: 26 };

/** The CSS the chart's classes rely on (the report inlines it once). */
export const GANTT_CSS = `
.gantt { font: 11px system-ui, sans-serif; }
.gantt .bar.input { fill: #4e79a7; }
.gantt .bar.compute { fill: #59a14f; }
.gantt .bar.output { fill: #f28e2b; }
.gantt .bar.failed { stroke: #d62728; stroke-width: 2; fill-opacity: 0.55; }
.gantt .bar.retry { stroke: #222; stroke-width: 1; stroke-dasharray: 3 2; }
.gantt .bar.unfinished { fill-opacity: 0.4; }
.gantt .down { fill: url(#down-hatch); }
.gantt .fail-mark { stroke: #d62728; stroke-width: 1.5; }
.gantt .row-label { fill: #222; }
.gantt .cluster-label { fill: #000; font-weight: bold; }
.gantt .row-bg { fill: #f6f6f6; }
.gantt .grid-line { stroke: #ddd; stroke-width: 1; }
.gantt .axis-label { fill: #555; }
`;

function barTitle(b: Bar, endS: number): string {
  const what = b.kind === 'input' ? `file ${b.file ?? '?'}` : `work ${b.work ?? '?'}${b.kind === 'output' && b.file !== undefined ? ` (file ${b.file})` : ''}`;
  const status = b.ok === null ? 'running' : b.ok ? 'ok' : 'FAILED';
  const attempt = b.attempt > 1 ? `, attempt ${b.attempt}` : '';
  const size = b.sizeBytes !== undefined ? `, ${b.sizeBytes} B` : '';
  return `${b.kind} ${what}: ${b.startS.toFixed(2)}–${endS.toFixed(2)} s, ${status}${attempt}${size}`;
}

/** Renders the chart from time 0 to `endS` (default: the makespan, else the latest event). */
export function renderGanttSvg(state: RunState, options: { endS?: number; layout?: GanttLayout } = {}): string {
  const L = options.layout ?? DEFAULT_GANTT_LAYOUT;
  const endS = Math.max(options.endS ?? state.end?.makespanS ?? state.timeS, 1e-9);
  const plotPx = L.widthPx - L.gutterPx - 10;
  const x = (t: number) => L.gutterPx + (t / endS) * plotPx;
  const groups = state.rowsByCluster();
  const rowCount = groups.reduce((n, g) => n + g.rows.length, 0);
  const heightPx = L.axisPx + groups.length * L.clusterHeaderPx + rowCount * L.rowPx + 6;
  const parts: string[] = [];
  parts.push(
    `<svg class="gantt" xmlns="http://www.w3.org/2000/svg" width="${L.widthPx}" height="${heightPx}" viewBox="0 0 ${L.widthPx} ${heightPx}" data-rows="${rowCount}">`,
    '<defs><pattern id="down-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#eee"/><line x1="0" y1="0" x2="0" y2="6" stroke="#999" stroke-width="2"/></pattern></defs>',
  );
  const step = tickStepS(endS);
  for (let t = 0; t <= endS + 1e-9; t += step) {
    const tx = x(t).toFixed(1);
    parts.push(`<line class="grid-line" x1="${tx}" y1="${L.axisPx - 4}" x2="${tx}" y2="${heightPx}"/><text class="axis-label" x="${tx}" y="${L.axisPx - 8}" text-anchor="middle">${+t.toPrecision(6)}</text>`);
  }
  parts.push(`<text class="axis-label" x="4" y="${L.axisPx - 8}">time (s)</text>`);
  let y = L.axisPx;
  for (const g of groups) {
    parts.push(`<g class="cluster" data-cluster="${escapeHtml(g.cluster)}"><text class="cluster-label" x="4" y="${y + L.clusterHeaderPx - 5}">${escapeHtml(g.cluster)}</text>`);
    y += L.clusterHeaderPx;
    for (const row of g.rows) {
      const top = y + 1;
      const h = L.rowPx - 2;
      parts.push(`<g class="row ${row.type}" data-resource="${escapeHtml(row.label)}">`);
      parts.push(`<rect class="row-bg" x="${L.gutterPx}" y="${top}" width="${plotPx}" height="${h}"/>`);
      parts.push(`<text class="row-label" x="14" y="${y + L.rowPx - 3}">${escapeHtml(row.label)}</text>`);
      if (row.host !== undefined) {
        for (const d of state.hostDownSpans(row.host)) {
          const to = d.toS ?? endS;
          parts.push(`<rect class="down" x="${x(d.fromS).toFixed(2)}" y="${top}" width="${Math.max(0.5, x(to) - x(d.fromS)).toFixed(2)}" height="${h}"><title>down ${d.fromS.toFixed(1)}–${d.toS === null ? 'end' : d.toS.toFixed(1)} s</title></rect>`);
        }
      }
      for (const b of row.bars) {
        const barEnd = b.endS ?? endS;
        const classes = ['bar', b.kind];
        if (b.ok === false) classes.push('failed');
        if (b.attempt > 1) classes.push('retry');
        if (b.endS === null) classes.push('unfinished');
        const bx = x(b.startS);
        const bw = Math.max(0.5, x(barEnd) - bx);
        parts.push(`<rect class="${classes.join(' ')}" data-id="${b.id}" x="${bx.toFixed(2)}" y="${top}" width="${bw.toFixed(2)}" height="${h}"><title>${escapeHtml(barTitle(b, barEnd))}</title></rect>`);
        if (b.ok === false) {
          const fx = (bx + bw).toFixed(2);
          parts.push(`<path class="fail-mark" d="M${(bx + bw - 4).toFixed(2)} ${top} L${fx} ${top + h} M${fx} ${top} L${(bx + bw - 4).toFixed(2)} ${top + h}"/>`);
        }
      }
      parts.push('</g>');
      y += L.rowPx;
    }
    parts.push('</g>');
  }
  parts.push('</svg>');
  return parts.join('\n');
}
