// The Gantt chart of one run, from its run record: one row per cluster link and per host, grouped by
// cluster (link first), bars coloured by sub-task kind (input transfer, computation, output transfer);
// a sub-task that ended badly (its resource failed, or it was cancelled) is drawn hatched with a red edge.
import type { RunRecordEvent, SubtaskKind } from '../record/events.js';
import { el, escapeXml, fmt, linearScale, svgDocument, text, tickLabel } from './svg.js';

export const KIND_COLORS: Readonly<Record<SubtaskKind, string>> = { input: '#4e79a7', compute: '#59a14f', output: '#f28e2b' };

interface Bar {
  readonly kind: SubtaskKind;
  readonly row: string;
  readonly t0: number;
  t1: number;
  ok: boolean;
  readonly label: string;
}

interface Row {
  readonly key: string;
  readonly label: string;
  readonly cluster: string;
  readonly isLink: boolean;
}

export interface GanttOptions {
  readonly title?: string;
  readonly width?: number;
}

/** Draws the chart; `events` may be any iterable (e.g. events read one by one from a JSONL file). */
export function ganttChart(events: Iterable<RunRecordEvent>, o: GanttOptions = {}): string {
  const open = new Map<number, Bar>();
  const bars: Bar[] = [];
  const rows = new Map<string, Row>();
  const clusters: string[] = [];
  let heuristic = '';
  let endS = 0;
  const rowFor = (cluster: string, host: string | undefined): string => {
    if (!clusters.includes(cluster)) clusters.push(cluster);
    const key = host === undefined ? `link:${cluster}` : `host:${host}`;
    if (!rows.has(key)) rows.set(key, { key, label: host ?? `${cluster} link`, cluster, isLink: host === undefined });
    return key;
  };
  for (const e of events) {
    endS = Math.max(endS, e.t);
    switch (e.type) {
      case 'header':
        heuristic = e.heuristic;
        break;
      case 'start': {
        const r = e.resource;
        const row = rowFor(r.cluster, r.type === 'host' ? r.host : undefined);
        const what = e.kind === 'input' ? `file ${e.file ?? '?'}` : `work ${e.work ?? '?'}`;
        const bar: Bar = { kind: e.kind, row, t0: e.t, t1: e.t, ok: true, label: `${e.kind} ${what}` };
        open.set(e.id, bar);
        bars.push(bar);
        break;
      }
      case 'end': {
        const bar = open.get(e.id);
        if (bar) {
          bar.t1 = e.t;
          bar.ok = e.ok;
          open.delete(e.id);
        }
        break;
      }
      case 'grid': {
        const g = e.event;
        if (g.kind === 'ADD_CLUSTER') rowFor(g.cluster, undefined);
        if (g.kind === 'ADD_HOST') rowFor(g.cluster, g.host);
        break;
      }
      case 'run-end':
        endS = Math.max(endS, e.makespanS);
        break;
      default:
        break;
    }
  }
  for (const bar of open.values()) bar.t1 = endS; // still running when the record stops

  const ordered: Row[] = clusters.flatMap((c) => {
    const inCluster = [...rows.values()].filter((r) => r.cluster === c);
    return [...inCluster.filter((r) => r.isLink), ...inCluster.filter((r) => !r.isLink)];
  });
  const rowHeight = 14;
  const gap = 8;
  const width = o.width ?? 1100;
  const left = 150;
  const top = 50;
  const right = 30;
  const yOf = new Map<string, number>();
  let y = top;
  const separators: string[] = [];
  clusters.forEach((c, ci) => {
    if (ci > 0) {
      separators.push(el('line', { x1: 10, y1: y + gap / 2 - 1, x2: width - right, y2: y + gap / 2 - 1, stroke: '#bbb', class: 'cluster-separator' }));
      y += gap;
    }
    for (const r of ordered.filter((x) => x.cluster === c)) {
      yOf.set(r.key, y);
      y += rowHeight;
    }
  });
  const plotBottom = y;
  const height = plotBottom + 80;
  const sx = linearScale(0, Math.max(endS, 1e-9), left, width - right, 10);
  const title = o.title ?? `Gantt chart${heuristic ? ` (${heuristic})` : ''}, makespan ${fmt(endS)} s`;

  const body: string[] = [text(width / 2, 28, title, { 'text-anchor': 'middle', 'font-size': 16, class: 'chart-title' })];
  body.push(
    el('defs', {}, el('pattern', { id: 'failed', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, el('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#d62728', 'stroke-width': 2 }))),
  );
  for (const r of ordered) {
    const ry = yOf.get(r.key)!;
    body.push(text(left - 6, ry + rowHeight - 3, r.label, { 'text-anchor': 'end', class: r.isLink ? 'row-label link-row' : 'row-label host-row', 'font-weight': r.isLink ? 'bold' : undefined }));
  }
  body.push(...separators);
  for (const t of sx.ticks) {
    const px = sx(t);
    body.push(el('line', { x1: px, y1: top, x2: px, y2: plotBottom, stroke: '#eee', class: 'grid' }));
    body.push(text(px, plotBottom + 16, tickLabel(t), { 'text-anchor': 'middle', class: 'tick-label x-tick-label' }));
  }
  body.push(el('line', { x1: left, y1: plotBottom, x2: width - right, y2: plotBottom, stroke: 'black', class: 'axis x-axis' }));
  body.push(text((left + width - right) / 2, plotBottom + 36, 'time (s)', { 'text-anchor': 'middle', class: 'axis-label x-label' }));
  for (const b of bars) {
    const ry = yOf.get(b.row)!;
    const x = sx(b.t0);
    const w = Math.max(0.5, sx(b.t1) - x);
    body.push(
      el(
        'rect',
        {
          x,
          y: ry + 1,
          width: w,
          height: rowHeight - 2,
          fill: b.ok ? KIND_COLORS[b.kind] : 'url(#failed)',
          stroke: b.ok ? 'none' : '#d62728',
          class: `bar ${b.kind}${b.ok ? '' : ' failed'}`,
        },
        el('title', {}, escapeXml(`${b.label}: ${fmt(b.t0)}–${fmt(b.t1)} s${b.ok ? '' : ' (failed)'}`)),
      ),
    );
  }
  body.push(
    el(
      'g',
      { class: 'legend' },
      (['input', 'compute', 'output'] as const).map((k, i) =>
        el('g', { class: 'legend-entry' }, [
          el('rect', { x: left + i * 130, y: plotBottom + 48, width: 18, height: 12, fill: KIND_COLORS[k] }),
          text(left + i * 130 + 24, plotBottom + 58, k === 'compute' ? 'computation' : `${k} transfer`),
        ]),
      ),
    ),
  );
  return svgDocument(width, height, body, title);
}
