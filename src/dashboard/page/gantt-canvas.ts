// One run's Gantt chart, drawn on a canvas that keeps its pixels between frames. A frame repaints only
// the strips that changed since the last one (bars that started, grew or ended, host down periods, the
// old and new place of the clock line), so its cost follows what changed, not how big the run is; a new
// view, size or set of rows repaints the whole chart.
//
// The chart is a stack of horizontal bands (the axis, a header per cluster, a row per link or host, and
// for a batch cluster two rows of levels: its cores in use and its queue, other users' jobs below the
// sweep's pilots). A
// strip of a band is repainted by clipping to it and drawing, in a fixed order, everything that reaches
// into it; a whole repaint is the same thing with strips as wide as the chart. Bars are snapped to whole
// pixels, so a strip comes out exactly as the whole repaint would have drawn it, and bars narrower than
// a pixel are drawn once per pixel column instead of once each.
//
// Like client.ts, this function's source is inlined into the page: it must be self-contained.
import type { WireBatchCluster, WireBatchLevel, WireEnd, WireHost, WireResource, WireStart } from '../protocol.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const Path2D: any;

export interface GanttFrame {
  /** The time window shown, shared by every chart. */
  readonly startS: number;
  readonly endS: number;
  /** Where the shared clock line is drawn. */
  readonly clockS: number;
  /** How far this run has got: running bars reach here. */
  readonly nowS: number;
  /** The canvas's width in CSS pixels. */
  readonly widthPx: number;
  readonly dpr: number;
  /** Repaint everything even when nothing requires it. */
  readonly whole: boolean;
}

export interface GanttPaint {
  /** Whether this frame repainted the whole chart. */
  readonly whole: boolean;
  /** Bars in the time window. */
  readonly drawnBars: number;
}

export interface GanttChart {
  addResource(resource: WireResource): void;
  /** Adds a batch cluster's rows of levels (the next batch cluster index). */
  addBatchCluster(cluster: WireBatchCluster): void;
  batchLevel(level: WireBatchLevel): void;
  /** False when the bar is already known (a snapshot may repeat bars already streamed). */
  start(start: WireStart): boolean;
  end(end: WireEnd): void;
  /** The hosts' down periods, from the run's latest summary. */
  setHosts(hosts: readonly WireHost[]): void;
  /** Where the time axis lies across a canvas `widthPx` wide (for zoom and pan). */
  plotArea(widthPx: number): { leftPx: number; widthPx: number };
  paint(frame: GanttFrame): GanttPaint;
}

export function createGanttChart(canvas: any, tickStepS: (spanS: number, target?: number) => number): GanttChart {
  const KIND_COLORS = ['#4e79a7', '#59a14f', '#f28e2b'];
  /** Levels: other users' jobs, then the sweep's pilots stacked on them. */
  const LEVEL_COLORS = ['#79706e', '#b07aa1'];
  const ROW_PX = 14;
  /** A row of levels is taller: its values are drawn as heights. */
  const LEVELS_ROW_PX = 30;
  const CLUSTER_PX = 16;
  const AXIS_PX = 22;
  const GUTTER_PX = 110;
  const RIGHT_PX = 8;
  const BOTTOM_PX = 4;
  /** How far past its time span a bar's pixels may reach: rounding, the failure outline, and the ✕,
   * which is 4 px wide however narrow the bar. */
  const BLEED_PX = 5;
  /** Dirty strips of one band closer than this are repainted as one. */
  const MERGE_GAP_PX = 16;
  const FONT = '11px system-ui, sans-serif';
  const BOLD_FONT = `bold ${FONT}`;

  interface Bar {
    readonly row: Row;
    readonly kind: number;
    readonly startS: number;
    /** -1 while running. */
    endS: number;
    /** -1 while running, 1 ok, 0 failed. */
    ok: number;
    readonly attempt: number;
  }

  /** A step function of two stacked values, drawn as a fraction of `scale`. */
  interface Levels {
    /** [t, below, above, t, below, above, …] in time order; each holds until the next (the last, until now). */
    readonly points: number[];
    scale: number;
    /** The scale follows the largest total seen (a queue has no fixed size). */
    readonly growing: boolean;
  }

  interface Row {
    readonly resource: { readonly type: 'link' | 'host' | 'levels'; readonly cluster: string; readonly label: string };
    readonly levels: Levels | null;
    /** Ordered by start time. */
    readonly bars: Bar[];
    readonly running: Set<Bar>;
    /** The longest ended bar: every bar reaching into a time span starts at most this long before it. */
    longestS: number;
    downs: readonly (readonly [number, number | null])[];
    /** Time spans [from, to, from, to, ...] to repaint at the next frame. */
    dirtyS: number[];
    band: Band | null;
  }

  interface Band {
    readonly y0: number;
    readonly y1: number;
    readonly kind: 'axis' | 'cluster' | 'row' | 'bottom';
    readonly row: Row | null;
    readonly cluster: string;
    /** Pixel spans to repaint this frame. */
    strips: [number, number][];
  }

  const rows: Row[] = [];
  const hostRows = new Map<string, Row>();
  /** Per batch cluster: its cores-in-use row and its queue row. */
  const batchRows: [Row, Row][] = [];
  const byId = new Map<number, Bar>();
  /** Bars started or ended since the last frame. */
  let changed: Bar[] = [];
  /** Bars started since the last frame (to count those in view). */
  let fresh: Bar[] = [];
  let bands: Band[] = [];
  let heightPx = AXIS_PX;
  let layoutDirty = true;

  // What the canvas shows, as of the last frame.
  let shownGeometry = '';
  let shownNowS = 0;
  let shownClockS = 0;
  let drawnBars = 0;

  // The frame being painted.
  let frame: GanttFrame;
  let plotPx = 0;
  let ctx: any = null;
  /** The grid lines and their labels; a label spans [labelX0, labelX1). */
  let ticks: { x: number; label: string; labelX0: number; labelX1: number }[] = [];
  const textWidths = new Map<string, number>();
  const x = (t: number): number => GUTTER_PX + ((t - frame.startS) / (frame.endS - frame.startS)) * plotPx;
  const timeAt = (px: number): number => frame.startS + ((px - GUTTER_PX) / plotPx) * (frame.endS - frame.startS);

  function addRow(resource: Row['resource'], levels: Levels | null): Row {
    const row: Row = { resource, levels, bars: [], running: new Set(), longestS: 0, downs: [], dirtyS: [], band: null };
    rows.push(row);
    layoutDirty = true;
    return row;
  }

  function addResource(resource: WireResource): void {
    const row = addRow(resource, null);
    if (resource.type === 'host' && !hostRows.has(resource.label)) hostRows.set(resource.label, row);
  }

  function addBatchCluster(c: WireBatchCluster): void {
    // A real Slurm cluster's size is not known (0): its scale grows with the cores its pilots hold.
    const inUse = addRow({ type: 'levels', cluster: c.cluster, label: 'cores in use' }, { points: [], scale: Math.max(1, c.cores), growing: c.cores === 0 });
    const queue = addRow({ type: 'levels', cluster: c.cluster, label: 'jobs waiting' }, { points: [], scale: 1, growing: true });
    batchRows.push([inUse, queue]);
  }

  function addLevel(row: Row, t: number, below: number, above: number): void {
    const levels = row.levels!;
    const points = levels.points;
    const lastS = points.length > 0 ? points[points.length - 3]! : -Infinity;
    if (t < lastS) return;
    if (t === lastS) points.length -= 3;
    points.push(t, below, above);
    row.dirtyS.push(t, Infinity);
    if (levels.growing && below + above > levels.scale) {
      levels.scale = below + above;
      row.dirtyS.push(-Infinity, Infinity);
    }
  }

  function batchLevel(l: WireBatchLevel): void {
    const pair = batchRows[l[0]];
    if (!pair) return;
    addLevel(pair[0], l[1], l[2], l[3]);
    addLevel(pair[1], l[1], l[4], l[5]);
  }

  function start(s: WireStart): boolean {
    if (byId.has(s[0])) return false;
    const row = rows[s[1]];
    if (!row) return false;
    const bar: Bar = { row, kind: s[2], startS: s[3], endS: -1, ok: -1, attempt: s[4] };
    byId.set(s[0], bar);
    const bars = row.bars;
    if (bars.length === 0 || bars[bars.length - 1]!.startS <= bar.startS) bars.push(bar);
    else bars.splice(firstStartingFrom(bars, bar.startS), 0, bar);
    row.running.add(bar);
    changed.push(bar);
    fresh.push(bar);
    return true;
  }

  function end(e: WireEnd): void {
    const bar = byId.get(e[0]);
    if (!bar || bar.endS >= 0) return;
    bar.endS = e[1];
    bar.ok = e[2];
    bar.row.running.delete(bar);
    bar.row.longestS = Math.max(bar.row.longestS, bar.endS - bar.startS);
    changed.push(bar);
  }

  function setHosts(hosts: readonly WireHost[]): void {
    for (const h of hosts) {
      const row = hostRows.get(h.host);
      if (!row) continue;
      const old = row.downs;
      let same = 0;
      while (same < old.length && same < h.down.length && old[same]![0] === h.down[same]![0] && old[same]![1] === h.down[same]![1]) same++;
      if (same === old.length && same === h.down.length) continue;
      // An open period was drawn up to the clock, wherever it closed: repaint from the first change on.
      const fromS = Math.min(old[same]?.[0] ?? Infinity, h.down[same]?.[0] ?? Infinity);
      row.dirtyS.push(fromS, Infinity);
      row.downs = h.down;
    }
  }

  function plotArea(widthPx: number): { leftPx: number; widthPx: number } {
    return { leftPx: GUTTER_PX, widthPx: widthPx - GUTTER_PX - RIGHT_PX };
  }

  // ---- layout ----

  function layout(): void {
    const clusters: string[] = [];
    for (const r of rows) if (!clusters.includes(r.resource.cluster)) clusters.push(r.resource.cluster);
    bands = [{ y0: 0, y1: AXIS_PX, kind: 'axis', row: null, cluster: '', strips: [] }];
    let y = AXIS_PX;
    for (const c of clusters) {
      bands.push({ y0: y, y1: y + CLUSTER_PX, kind: 'cluster', row: null, cluster: c, strips: [] });
      y += CLUSTER_PX;
      for (const type of ['link', 'levels', 'host']) {
        for (const row of rows) {
          if (row.resource.cluster !== c || row.resource.type !== type) continue;
          const rowPx = row.levels === null ? ROW_PX : LEVELS_ROW_PX;
          row.band = { y0: y, y1: y + rowPx, kind: 'row', row, cluster: c, strips: [] };
          bands.push(row.band);
          y += rowPx;
        }
      }
    }
    bands.push({ y0: y, y1: y + BOTTOM_PX, kind: 'bottom', row: null, cluster: '', strips: [] });
    heightPx = y + BOTTOM_PX;
    layoutDirty = false;
  }

  // ---- finding bars ----

  /** The index of the first bar starting at `t` or later (bars are ordered by start). */
  function firstStartingFrom(bars: readonly Bar[], t: number): number {
    let lo = 0;
    let hi = bars.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bars[mid]!.startS < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  function shownEndS(bar: Bar): number {
    return bar.endS < 0 ? Math.max(frame.nowS, bar.startS) : bar.endS;
  }

  /** Calls `visit` for each bar of `row` whose time span meets [fromS, toS], in start order. */
  function forBarsBetween(row: Row, fromS: number, toS: number, visit: (bar: Bar) => void): void {
    let reachS = row.longestS;
    for (const b of row.running) reachS = Math.max(reachS, frame.nowS - b.startS);
    const bars = row.bars;
    for (let i = firstStartingFrom(bars, fromS - reachS); i < bars.length && bars[i]!.startS <= toS; i++) {
      const bar = bars[i]!;
      if (shownEndS(bar) >= fromS) visit(bar);
    }
  }

  function countBarsInView(): number {
    let n = 0;
    for (const row of rows) forBarsBetween(row, frame.startS, frame.endS, () => n++);
    return n;
  }

  // ---- painting strips ----
  //
  // Chrome anti-aliases a shape differently when a clip cuts through it, so nothing a strip may cut is
  // anti-aliased: bars and their marks are whole-pixel rectangles, and strips are widened over text.

  /** Whole-pixel rectangles filled at once; one equal to the last one added is skipped, so bars
   * narrower than a pixel that share a column are drawn once. */
  interface RectPath {
    readonly path: any;
    lastX: number;
    lastW: number;
  }

  const rectPath = (): RectPath => ({ path: new Path2D(), lastX: NaN, lastW: NaN });

  function isNewRect(p: RectPath, x0: number, w: number): boolean {
    if (x0 === p.lastX && w === p.lastW) return false;
    p.lastX = x0;
    p.lastW = w;
    return true;
  }

  /** A failed bar: a 2 px outline and a ✕ over its last 4 px, in whole pixels. */
  function addFailureMark(path: any, x0: number, w: number, y: number, h: number): void {
    path.rect(x0 - 1, y - 1, w + 2, 2);
    path.rect(x0 - 1, y + h - 1, w + 2, 2);
    path.rect(x0 - 1, y - 1, 2, h + 2);
    path.rect(x0 + w - 1, y - 1, 2, h + 2);
    for (let r = 0; r < h; r++) {
      const dx = Math.round((4 * (r + 0.5)) / h);
      path.rect(x0 + w - 5 + dx, y + r, 2, 1);
      path.rect(x0 + w - 1 - dx, y + r, 2, 1);
    }
  }

  /** A re-execution: a dashed 1 px outline (3 px on, 2 off). */
  function addRetryMark(path: any, x0: number, w: number, y: number, h: number): void {
    for (let k = 0; k < w; k += 5) {
      path.rect(x0 + k, y, Math.min(3, w - k), 1);
      path.rect(x0 + k, y + h - 1, Math.min(3, w - k), 1);
    }
    for (let k = 0; k < h; k += 5) {
      path.rect(x0, y + k, 1, Math.min(3, h - k));
      path.rect(x0 + w - 1, y + k, 1, Math.min(3, h - k));
    }
  }

  function paintRowPlot(row: Row, band: Band, x0: number, x1: number): void {
    const y = band.y0 + 1;
    const h = ROW_PX - 2;
    ctx.fillStyle = '#f4f4f4';
    ctx.fillRect(x0, y, x1 - x0, h);
    ctx.fillStyle = 'rgba(120,120,120,0.35)';
    for (const [fromS, toS] of row.downs) {
      const a = Math.round(x(fromS));
      ctx.fillRect(a, y, Math.max(1, Math.round(x(toS ?? frame.clockS)) - a), h);
    }
    // One path per style (three kinds, ended or running), each filled once.
    const fills = [rectPath(), rectPath(), rectPath(), rectPath(), rectPath(), rectPath()];
    const failed = rectPath();
    const retried = rectPath();
    forBarsBetween(row, timeAt(x0 - BLEED_PX), timeAt(x1 + BLEED_PX), (bar) => {
      const a = Math.round(x(bar.startS));
      const full = Math.round(x(shownEndS(bar))) - a;
      // A 1 px gap keeps back-to-back sub-tasks apart once they are wide enough.
      const w = full >= 4 ? full - 1 : Math.max(1, full);
      const fill = fills[(bar.endS < 0 ? 3 : 0) + bar.kind]!;
      if (isNewRect(fill, a, w)) fill.path.rect(a, y, w, h);
      if (bar.ok === 0) {
        if (isNewRect(failed, a, w)) addFailureMark(failed.path, a, w, y, h);
      } else if (bar.attempt > 1) {
        if (isNewRect(retried, a, w)) addRetryMark(retried.path, a, w, y, h);
      }
    });
    for (let k = 0; k < 3; k++) {
      ctx.fillStyle = KIND_COLORS[k]!;
      ctx.fill(fills[k]!.path);
      ctx.globalAlpha = 0.5;
      ctx.fill(fills[3 + k]!.path);
      ctx.globalAlpha = 1;
    }
    ctx.fillStyle = '#d62728';
    ctx.fill(failed.path);
    ctx.fillStyle = '#222';
    ctx.fill(retried.path);
  }

  /** A row of levels: each step as whole-pixel rectangles, at least a pixel wide (a column shows its highest). */
  function paintLevelsPlot(levels: Levels, band: Band, x0: number, x1: number): void {
    const y = band.y0 + 1;
    const h = band.y1 - band.y0 - 2;
    ctx.fillStyle = '#f4f4f4';
    ctx.fillRect(x0, y, x1 - x0, h);
    const points = levels.points;
    const n = points.length / 3;
    const fromS = timeAt(x0 - 1);
    const toS = timeAt(x1 + 1);
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (points[3 * mid]! <= fromS) lo = mid + 1;
      else hi = mid;
    }
    const below = new Path2D();
    const above = new Path2D();
    for (let i = Math.max(0, lo - 1); i < n && points[3 * i]! <= toS; i++) {
      const t = points[3 * i]!;
      const endS = i + 1 < n ? points[3 * i + 3]! : Math.max(frame.nowS, t);
      const a = Math.round(x(t));
      const w = Math.max(1, Math.round(x(endS)) - a);
      const hBelow = Math.round(h * Math.min(1, points[3 * i + 1]! / levels.scale));
      const hBoth = Math.round(h * Math.min(1, (points[3 * i + 1]! + points[3 * i + 2]!) / levels.scale));
      if (hBelow > 0) below.rect(a, y + h - hBelow, w, hBelow);
      if (hBoth > hBelow) above.rect(a, y + h - hBoth, w, hBoth - hBelow);
    }
    ctx.fillStyle = LEVEL_COLORS[0]!;
    ctx.fill(below);
    ctx.fillStyle = LEVEL_COLORS[1]!;
    ctx.fill(above);
  }

  function clipTo(x0: number, y0: number, x1: number, y1: number): void {
    ctx.beginPath();
    ctx.rect(x0, y0, x1 - x0, y1 - y0);
    ctx.clip();
  }

  /** Repaints columns [x0, x1) of `band`. */
  function paintStrip(band: Band, x0: number, x1: number): void {
    ctx.save();
    clipTo(x0, band.y0, x1, band.y1);
    ctx.clearRect(x0, band.y0, x1 - x0, band.y1 - band.y0);
    const lineTop = Math.max(band.y0, AXIS_PX - 4);
    if (band.y1 > lineTop) {
      ctx.fillStyle = '#e2e2e2';
      for (const tick of ticks) if (tick.x >= x0 - 1 && tick.x <= x1) ctx.fillRect(tick.x, lineTop, 1, band.y1 - lineTop);
    }
    if (band.kind === 'axis') {
      ctx.font = FONT;
      ctx.fillStyle = '#555';
      ctx.textAlign = 'center';
      for (const tick of ticks) if (tick.labelX1 > x0 && tick.labelX0 < x1) ctx.fillText(tick.label, tick.x + 0.5, AXIS_PX - 8);
      ctx.textAlign = 'left';
      ctx.fillText('time (s)', 4, AXIS_PX - 8);
    } else if (band.kind === 'cluster') {
      ctx.font = BOLD_FONT;
      ctx.fillStyle = '#000';
      ctx.fillText(band.cluster, 4, band.y0 + CLUSTER_PX - 4);
    } else if (band.row !== null && x0 < GUTTER_PX) {
      const label = band.row.resource.label;
      ctx.save();
      clipTo(0, band.y0, GUTTER_PX, band.y1);
      ctx.font = FONT;
      ctx.fillStyle = '#222';
      ctx.fillText(label.length > 16 ? `${label.slice(0, 15)}…` : label, 12, band.y0 + ROW_PX - 3);
      ctx.restore();
    }
    const p0 = Math.max(x0, GUTTER_PX);
    const p1 = Math.min(x1, GUTTER_PX + plotPx);
    if (band.row !== null && p1 > p0) {
      ctx.save();
      clipTo(p0, band.y0, p1, band.y1);
      if (band.row.levels !== null) paintLevelsPlot(band.row.levels, band, p0, p1);
      else paintRowPlot(band.row, band, p0, p1);
      ctx.restore();
    }
    const clockX = Math.round(x(frame.clockS));
    const c0 = Math.max(clockX - 1, p0);
    const c1 = Math.min(clockX + 1, p1);
    if (c1 > c0 && band.y1 > lineTop) {
      ctx.fillStyle = '#d62728';
      ctx.fillRect(c0, lineTop, c1 - c0, band.y1 - lineTop);
    }
    ctx.restore();
  }

  /** Where the text of `band` lies, [x0, x1] per run of text: a strip that meets one repaints all of it. */
  function textSpans(band: Band): [number, number][] {
    if (band.kind === 'axis') return ticks.map((t) => [t.labelX0, t.labelX1]);
    if (band.kind === 'cluster') return [[0, 4 + textWidth(BOLD_FONT, band.cluster) + 2]];
    return [];
  }

  function textWidth(font: string, text: string): number {
    const key = `${font}|${text}`;
    let w = textWidths.get(key);
    if (w === undefined) {
      ctx.font = font;
      w = ctx.measureText(text).width as number;
      textWidths.set(key, w);
    }
    return w;
  }

  // ---- frames ----

  function prepareFrame(f: GanttFrame): void {
    frame = f;
    plotPx = Math.round(f.widthPx) - GUTTER_PX - RIGHT_PX;
    ctx = canvas.getContext('2d');
    ticks = [];
    const step = tickStepS(f.endS - f.startS, Math.max(2, Math.floor(plotPx / 90)));
    for (let t = Math.ceil(f.startS / step) * step; t <= f.endS + 1e-9; t += step) {
      const tickX = Math.round(x(t));
      const label = String(+t.toPrecision(6));
      const half = textWidth(FONT, label) / 2;
      ticks.push({ x: tickX, label, labelX0: Math.floor(tickX + 0.5 - half) - 1, labelX1: Math.ceil(tickX + 0.5 + half) + 1 });
    }
  }

  function paintWhole(widthPx: number): void {
    const dpr = frame.dpr;
    if (canvas.width !== Math.round(widthPx * dpr) || canvas.height !== Math.round(heightPx * dpr)) {
      canvas.width = Math.round(widthPx * dpr);
      canvas.height = Math.round(heightPx * dpr);
      canvas.style.height = `${heightPx}px`;
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    for (const band of bands) paintStrip(band, 0, widthPx);
    for (const row of rows) row.dirtyS = [];
    drawnBars = countBarsInView();
  }

  /** Marks the columns of times [fromS, toS] of `row` (within the plot) for repainting. */
  function markTimes(row: Row, fromS: number, toS: number): void {
    markColumns(row.band!, Math.floor(x(fromS)) - BLEED_PX, Math.ceil(x(toS)) + BLEED_PX);
  }

  function markColumns(band: Band, x0: number, x1: number): void {
    const from = Math.max(x0, GUTTER_PX);
    const to = Math.min(x1, GUTTER_PX + plotPx);
    if (to > from) band.strips.push([from, to]);
  }

  function paintChanges(widthPx: number): void {
    ctx.setTransform(frame.dpr, 0, 0, frame.dpr, 0, 0);
    for (const bar of changed) markTimes(bar.row, bar.startS, Math.max(shownEndS(bar), shownNowS));
    for (const bar of fresh) if (bar.startS <= frame.endS && shownEndS(bar) >= frame.startS) drawnBars++;
    for (const row of rows) {
      for (let i = 0; i < row.dirtyS.length; i += 2) markTimes(row, row.dirtyS[i]!, row.dirtyS[i + 1]!);
      row.dirtyS = [];
      // A running bar grows until now.
      if (frame.nowS !== shownNowS && row.running.size > 0) markTimes(row, shownNowS, frame.nowS);
      // The last level holds until now.
      if (frame.nowS !== shownNowS && row.levels !== null && row.levels.points.length > 0) markTimes(row, shownNowS, frame.nowS);
      const lastDown = row.downs[row.downs.length - 1];
      if (lastDown && lastDown[1] === null && frame.clockS !== shownClockS) markTimes(row, shownClockS, frame.clockS);
    }
    const oldClockX = Math.round(x(shownClockS));
    const clockX = Math.round(x(frame.clockS));
    if (clockX !== oldClockX) {
      for (const band of bands) {
        markColumns(band, oldClockX - 2, oldClockX + 2);
        markColumns(band, clockX - 2, clockX + 2);
      }
    }
    for (const band of bands) {
      if (band.strips.length === 0) continue;
      for (const [x0, x1] of mergeSpans(widenOverText(mergeSpans(band.strips), textSpans(band)))) paintStrip(band, Math.max(0, x0), Math.min(widthPx, x1));
      band.strips = [];
    }
  }

  /** The spans, each widened to take in whole any run of text it meets. */
  function widenOverText(spans: [number, number][], text: readonly [number, number][]): [number, number][] {
    for (const span of spans) {
      for (const [t0, t1] of text) {
        if (t1 <= span[0] || t0 >= span[1]) continue;
        span[0] = Math.min(span[0], t0);
        span[1] = Math.max(span[1], t1);
      }
    }
    return spans;
  }

  /** The spans sorted and joined where they overlap or nearly touch. */
  function mergeSpans(spans: [number, number][]): [number, number][] {
    spans.sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [spans[0]!];
    for (const s of spans.slice(1)) {
      const last = merged[merged.length - 1]!;
      if (s[0] <= last[1] + MERGE_GAP_PX) last[1] = Math.max(last[1], s[1]);
      else merged.push(s);
    }
    return merged;
  }

  function paint(f: GanttFrame): GanttPaint {
    if (layoutDirty) layout();
    prepareFrame(f);
    const widthPx = Math.round(f.widthPx);
    const geometry = `${widthPx} ${heightPx} ${f.dpr} ${f.startS} ${f.endS}`;
    const whole = f.whole || geometry !== shownGeometry || f.nowS < shownNowS || f.clockS < shownClockS;
    if (whole) paintWhole(widthPx);
    else paintChanges(widthPx);
    shownGeometry = geometry;
    shownNowS = f.nowS;
    shownClockS = f.clockS;
    changed = [];
    fresh = [];
    return { whole, drawnBars };
  }

  return { addResource, addBatchCluster, batchLevel, start, end, setHosts, plotArea, paint };
}
