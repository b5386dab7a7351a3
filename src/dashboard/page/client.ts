// The dashboard page's script. It runs in the browser: the server inlines this function's source
// (`dashboardClient.toString()`) into the page, so it must not refer to anything outside itself
// except the `helpers` and `createChart` it is given and browser globals. Types are checked; DOM
// objects are `any` because the project compiles without the DOM library. The charts themselves are
// drawn by gantt-canvas.ts.
import type { ServerMessage, SourceUpdate, WireBatchCluster, WireBatchLevel, WireClock, WireMatrixProgress, WireSourceInfo, WireSummary } from '../protocol.js';
import type { createGanttChart, GanttChart } from './gantt-canvas.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const location: any;
declare const WebSocket: any;
declare const requestAnimationFrame: (fn: () => void) => number;
declare const performance: { now(): number };

export interface ClientHelpers {
  formatBytes(bytes: number): string;
  formatPercent(fraction: number): string;
  tickStepS(spanS: number, target?: number): number;
}

export function dashboardClient(helpers: ClientHelpers, createChart: typeof createGanttChart): void {
  /** Following a live run, the time axis reaches this many times past what is needed, and is stretched
   * again only when the run outgrows it (each change of the axis repaints every chart whole); once the
   * runs have ended it fits them. */
  const LIVE_AXIS_HEADROOM = 1.25;

  interface SourceView {
    readonly info: WireSourceInfo;
    readonly section: any;
    readonly canvas: any;
    readonly statsEl: any;
    readonly progressDone: any;
    readonly progressFailed: any;
    readonly progressText: any;
    /** The LIVE mark of a live run, hidden once the run has ended. */
    readonly liveEl: any;
    readonly clustersEl: any;
    readonly hostsEl: any;
    readonly batchEl: any;
    readonly chart: GanttChart;
    /** Each batch cluster and its latest level. */
    readonly batch: { cluster: WireBatchCluster; level: WireBatchLevel | null }[];
    batchLevels: number;
    summary: WireSummary | null;
    barCount: number;
    wholePaints: number;
  }

  const token: string = new URLSearchParams(location.search).get('token') ?? '';
  const $ = (id: string): any => document.getElementById(id);
  const chartsEl = $('charts');
  const errorEl = $('parse-error');
  const messageEl = $('message');
  const clockEl = $('clock');
  const statusEl = $('status');
  const connEl = $('conn');
  const pauseBtn = $('pause');
  const speedInput = $('speed');

  let ws: any = null;
  let generation = -1;
  let sources: SourceView[] = [];
  let clock: WireClock = { timeS: 0, speed: 1, paused: false, finished: false, endS: null };
  const view = { follow: true, startS: 0, endS: 1 };
  let drawQueued = false;
  /** The next frame repaints every chart whole. */
  let repaintWhole = false;
  let messageTimer: ReturnType<typeof setTimeout> | null = null;
  const matrixEl = $('matrix');
  /** An experiment's progress, once one is shown. */
  let matrix: WireMatrixProgress | null = null;

  function el(tag: string, cls: string, text?: string): any {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function fmtS(t: number): string {
    return `${t.toFixed(t < 100 ? 2 : 1)} s`;
  }

  function send(cmd: object): void {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(cmd));
  }

  function queueDraw(): void {
    if (drawQueued) return;
    drawQueued = true;
    requestAnimationFrame(() => {
      drawQueued = false;
      draw();
    });
  }

  // ---- building the page for a set of runs ----

  function buildSources(infos: readonly WireSourceInfo[]): void {
    chartsEl.textContent = '';
    sources = infos.map((info) => {
      const v = buildSource(info);
      chartsEl.appendChild(v.section);
      return v;
    });
  }

  /** Chart `index` now shows another run, or is added when `index` is one past the last. */
  function setSource(index: number, info: WireSourceInfo): void {
    if (index > sources.length) return;
    const v = buildSource(info);
    const old = sources[index];
    if (old) chartsEl.replaceChild(v.section, old.section);
    else chartsEl.appendChild(v.section);
    sources[index] = v;
  }

  function buildSource(info: WireSourceInfo): SourceView {
    const section = el('section', 'source');
    section.dataset['name'] = info.name;
    section.dataset['barCount'] = '0';
    section.dataset['progressPct'] = '0.0';
    const h = el('h2', '', info.name);
    if (info.heuristic && info.heuristic !== info.name) h.appendChild(el('span', 'heuristic', ` — ${info.heuristic}`));
    const liveEl = info.live ? h.appendChild(el('span', 'live', ' LIVE')) : null;
    section.appendChild(h);
    const progress = el('div', 'progress');
    const progressDone = el('div', 'done');
    const progressFailed = el('div', 'failed');
    const progressText = el('span', 'progress-text', '');
    progress.append(progressDone, progressFailed, progressText);
    section.appendChild(progress);
    const statsEl = el('div', 'stats', '');
    section.appendChild(statsEl);
    const canvas = el('canvas', 'gantt');
    section.appendChild(canvas);
    const details = el('div', 'details');
    const clustersEl = el('table', 'clusters');
    const hostsEl = el('div', 'hosts');
    const batchEl = el('table', 'clusters batch');
    batchEl.hidden = true;
    details.append(clustersEl, batchEl, hostsEl);
    section.appendChild(details);
    const v: SourceView = {
      info,
      section,
      canvas,
      statsEl,
      progressDone,
      progressFailed,
      progressText,
      liveEl,
      clustersEl,
      hostsEl,
      batchEl,
      chart: createChart(canvas, helpers.tickStepS),
      batch: [],
      batchLevels: 0,
      summary: null,
      barCount: 0,
      wholePaints: 0,
    };
    attachZoomPan(v);
    return v;
  }

  function applyUpdate(u: SourceUpdate): void {
    const v = sources[u.source];
    if (!v) return;
    for (const r of u.resources) v.chart.addResource(r);
    for (const s of u.starts) if (v.chart.start(s)) v.barCount++;
    for (const e of u.ends) v.chart.end(e);
    for (const c of u.batchClusters) {
      v.chart.addBatchCluster(c);
      v.batch.push({ cluster: c, level: null });
    }
    for (const l of u.batchLevels) {
      v.chart.batchLevel(l);
      const b = v.batch[l[0]];
      if (b && (b.level === null || b.level[1] <= l[1])) b.level = l;
    }
    v.batchLevels += u.batchLevels.length;
    v.section.dataset['batchLevels'] = String(v.batchLevels);
    v.chart.setHosts(u.summary.hosts);
    v.summary = u.summary;
    v.section.dataset['barCount'] = String(v.barCount);
    showSummary(v);
  }

  function showSummary(v: SourceView): void {
    const s = v.summary;
    if (!s) return;
    const total = Math.max(1, s.total);
    const pct = ((s.done + s.failed) / total) * 100;
    v.section.dataset['progressPct'] = pct.toFixed(1);
    v.section.dataset['done'] = String(s.done);
    v.progressDone.style.width = `${(s.done / total) * 100}%`;
    v.progressFailed.style.width = `${(s.failed / total) * 100}%`;
    if (v.liveEl) v.liveEl.hidden = s.makespanS !== null;
    v.progressText.textContent = `${pct.toFixed(1)} % — done ${s.done} · running ${s.running} · pending ${s.pending} · failed ${s.failed}`;
    const span = s.makespanS !== null && s.timeS >= s.makespanS ? `makespan ${fmtS(s.makespanS)} (finished)` : `makespan so far ${fmtS(s.timeS)}`;
    const projected = s.projectedFinishS !== null && s.makespanS === null ? ` · projected finish ${fmtS(s.projectedFinishS)}` : '';
    v.statsEl.textContent = `${span}${projected} · failed attempts ${s.failures} · re-executions ${s.reexecutions}`;
    v.clustersEl.textContent = '';
    const head = el('tr', '');
    for (const h of ['cluster', 'bytes over link', 'link busy', 'host utilization']) head.appendChild(el('th', '', h));
    v.clustersEl.appendChild(head);
    for (const c of s.clusters) {
      const tr = el('tr', '');
      tr.append(el('td', '', c.cluster), el('td', 'num', helpers.formatBytes(c.linkBytes)), el('td', 'num', helpers.formatPercent(c.linkUtilization)), el('td', 'num', helpers.formatPercent(c.computeUtilization)));
      v.clustersEl.appendChild(tr);
    }
    showBatch(v);
    v.hostsEl.textContent = '';
    for (const h of s.hosts) {
      const chip = el('span', `host ${h.state}`, h.host);
      chip.title = `${h.host} (${h.cluster}): ${h.state}`;
      chip.dataset['state'] = h.state;
      v.hostsEl.appendChild(chip);
    }
  }

  /** Each batch cluster's cores and queue now: other users' jobs and the sweep's pilots. */
  function showBatch(v: SourceView): void {
    v.batchEl.hidden = v.batch.length === 0;
    if (v.batch.length === 0) return;
    v.batchEl.textContent = '';
    const head = el('tr', '');
    for (const h of ['batch cluster', 'cores used by others', 'by the sweep', 'jobs waiting', 'pilots waiting']) head.appendChild(el('th', '', h));
    v.batchEl.appendChild(head);
    for (const { cluster, level } of v.batch) {
      const tr = el('tr', '');
      tr.dataset['cluster'] = cluster.cluster;
      const [others, sweep, waiting, pilotsWaiting] = level === null ? [0, 0, 0, 0] : level.slice(2);
      // a real Slurm cluster's size is unknown (0), and only the sweep's pilots are seen there
      const byOthers = cluster.cores === 0 ? 'not seen' : `${others} / ${cluster.cores}`;
      tr.append(el('td', '', cluster.cluster), el('td', 'num', byOthers), el('td', 'num', String(sweep)), el('td', 'num', String(waiting)), el('td', 'num', String(pilotsWaiting)));
      v.batchEl.appendChild(tr);
    }
  }

  // ---- drawing ----

  function fitView(): void {
    view.startS = 0;
    if (clock.endS !== null) {
      view.endS = Math.max(clock.endS, 1e-6);
      return;
    }
    let needS = Math.max(clock.timeS * 1.05, 1);
    for (const v of sources) if (v.summary?.projectedFinishS) needS = Math.max(needS, v.summary.projectedFinishS);
    if (clock.finished) view.endS = needS;
    else if (view.endS < needS || view.endS > needS * LIVE_AXIS_HEADROOM * LIVE_AXIS_HEADROOM) view.endS = needS * LIVE_AXIS_HEADROOM;
  }

  function draw(): void {
    const t0 = performance.now();
    if (view.follow) fitView();
    const dpr = window.devicePixelRatio || 1;
    const whole = repaintWhole;
    repaintWhole = false;
    for (const v of sources) {
      const nowS = Math.min(clock.timeS, v.summary?.timeS ?? clock.timeS);
      const widthPx = Math.max(300, v.canvas.clientWidth || v.section.clientWidth || 800);
      const painted = v.chart.paint({ startS: view.startS, endS: view.endS, clockS: clock.timeS, nowS, widthPx, dpr, whole });
      if (painted.whole) v.wholePaints++;
      v.section.dataset['drawnBars'] = String(painted.drawnBars);
      v.section.dataset['wholePaints'] = String(v.wholePaints);
      v.section.dataset['viewStartS'] = String(view.startS);
      v.section.dataset['viewEndS'] = String(view.endS);
      v.section.dataset['clockS'] = String(clock.timeS);
    }
    chartsEl.dataset['drawMs'] = (performance.now() - t0).toFixed(1);
  }

  /** Repaints every chart whole at the next frame, e.g. to show the whole run again. */
  function queueWholeRepaint(): void {
    repaintWhole = true;
    queueDraw();
  }

  // ---- zoom and pan, shared by every chart ----

  function zoom(factor: number, atS: number): void {
    const start = atS - (atS - view.startS) * factor;
    const end = atS + (view.endS - atS) * factor;
    if (end - start < 1e-6) return;
    view.follow = false;
    view.startS = start;
    view.endS = end;
    queueDraw();
  }

  /** Where the time axis lies on the screen for chart `v`. */
  function plotOnScreen(v: SourceView): { leftPx: number; widthPx: number } {
    const rect = v.canvas.getBoundingClientRect();
    const plot = v.chart.plotArea(rect.width);
    return { leftPx: rect.left + plot.leftPx, widthPx: plot.widthPx };
  }

  function attachZoomPan(v: SourceView): void {
    v.canvas.addEventListener(
      'wheel',
      (e: any) => {
        e.preventDefault();
        const plot = plotOnScreen(v);
        zoom(e.deltaY > 0 ? 1.25 : 0.8, view.startS + ((e.clientX - plot.leftPx) / plot.widthPx) * (view.endS - view.startS));
      },
      { passive: false },
    );
    v.canvas.addEventListener('mousedown', (e: any) => {
      drag = { v, x: e.clientX };
    });
  }

  // One drag at a time, followed on the window (charts can be replaced, so nothing per chart is kept there).
  let drag: { v: SourceView; x: number } | null = null;
  window.addEventListener('mouseup', () => {
    drag = null;
  });
  window.addEventListener('mousemove', (e: any) => {
    if (drag === null) return;
    const dS = ((e.clientX - drag.x) / plotOnScreen(drag.v).widthPx) * (view.endS - view.startS);
    drag.x = e.clientX;
    view.follow = false;
    view.startS -= dS;
    view.endS -= dS;
    queueDraw();
  });

  // ---- controls and status ----

  function showClock(): void {
    clockEl.textContent = `t = ${fmtS(clock.timeS)}`;
    clockEl.dataset['timeS'] = String(clock.timeS);
    // The runs shown may all have ended while an experiment goes on.
    const waiting = clock.finished && matrix !== null && !matrix.finished;
    statusEl.textContent = waiting ? 'waiting for the next run' : clock.finished ? 'finished' : clock.paused ? 'paused' : `playing at ${+clock.speed.toPrecision(4)} sim s / s`;
    statusEl.dataset['state'] = waiting ? 'waiting' : clock.finished ? 'finished' : clock.paused ? 'paused' : 'playing';
    pauseBtn.textContent = clock.paused ? 'Resume' : 'Pause';
    if (document.activeElement !== speedInput) speedInput.value = String(+clock.speed.toPrecision(4));
  }

  function showMatrix(m: WireMatrixProgress): void {
    matrix = m;
    showClock();
    const total = Math.max(1, m.total);
    const simulated = m.done - m.cached - m.failed;
    const widths: [string, number][] = [['done', simulated], ['cached', m.cached], ['failed', m.failed], ['running', m.running]];
    for (const [cls, n] of widths) matrixEl.querySelector(`.${cls}`).style.width = `${(n / total) * 100}%`;
    const counts = `${m.done}/${m.total} runs done (${simulated} simulated · ${m.cached} cached · ${m.failed} failed)`;
    const text = m.finished ? `experiment finished: ${counts}` : `${counts} · ${m.running} running`;
    matrixEl.querySelector('.progress-text').textContent = text;
    for (const [key, value] of Object.entries(m)) matrixEl.dataset[key] = String(value);
    matrixEl.hidden = false;
  }

  function showMessage(text: string): void {
    messageEl.textContent = text;
    messageEl.hidden = false;
    if (messageTimer !== null) clearTimeout(messageTimer);
    messageTimer = setTimeout(() => {
      messageEl.hidden = true;
    }, 5000);
  }

  pauseBtn.addEventListener('click', () => send({ cmd: clock.paused ? 'resume' : 'pause' }));
  $('step').addEventListener('click', () => send({ cmd: 'step' }));
  $('restart').addEventListener('click', () => send({ cmd: 'restart' }));
  speedInput.addEventListener('change', () => {
    const value = Number(speedInput.value);
    if (Number.isFinite(value) && value > 0) send({ cmd: 'speed', value });
    else showMessage('speed: enter a number above 0 (simulated seconds per wall second)');
  });
  $('zoom-in').addEventListener('click', () => zoom(0.5, (view.startS + view.endS) / 2));
  $('zoom-out').addEventListener('click', () => zoom(2, (view.startS + view.endS) / 2));
  $('zoom-fit').addEventListener('click', () => {
    view.follow = true;
    queueWholeRepaint();
  });
  window.addEventListener('resize', queueDraw);

  // ---- the stream ----

  function handle(m: ServerMessage): void {
    switch (m.type) {
      case 'hello':
        if (m.generation !== generation) {
          generation = m.generation;
          buildSources(m.sources);
          view.follow = true;
        }
        document.title = m.title;
        $('title').textContent = m.title;
        chartsEl.dataset['generation'] = String(m.generation);
        errorEl.hidden = true;
        chartsEl.hidden = false;
        clock = m.clock;
        showClock();
        break;
      case 'snapshot':
      case 'batch':
        if (m.generation !== generation) return;
        if (m.type === 'batch') {
          clock = m.clock;
          showClock();
          for (const u of m.updates) applyUpdate(u);
        } else applyUpdate(m);
        break;
      case 'source':
        if (m.generation !== generation) return;
        setSource(m.source, m.info);
        break;
      case 'matrix':
        showMatrix(m.matrix);
        break;
      case 'parse-error':
        errorEl.textContent = m.message;
        errorEl.hidden = false;
        chartsEl.hidden = true;
        break;
      case 'error':
        showMessage(`server: ${m.message}`);
        break;
    }
    queueDraw();
  }

  function connect(): void {
    const url = `ws://${location.host}/ws?token=${encodeURIComponent(token)}`;
    ws = new WebSocket(url);
    ws.onopen = () => {
      connEl.textContent = 'connected';
      connEl.dataset['state'] = 'connected';
    };
    ws.onmessage = (e: any) => handle(JSON.parse(e.data) as ServerMessage);
    ws.onclose = () => {
      connEl.textContent = 'disconnected — retrying';
      connEl.dataset['state'] = 'disconnected';
      generation = -1;
      setTimeout(connect, 1000);
    };
  }

  connect();
}
