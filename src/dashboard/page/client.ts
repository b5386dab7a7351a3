// The dashboard page's script. It runs in the browser: the server inlines this function's source
// (`dashboardClient.toString()`) into the page, so it must not refer to anything outside itself
// except the `helpers` it is given and browser globals. Types are checked; DOM objects are `any`
// because the project compiles without the DOM library.
import type { ServerMessage, SourceUpdate, WireClock, WireMatrixProgress, WireResource, WireSourceInfo, WireSummary } from '../protocol.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const location: any;
declare const WebSocket: any;
declare const requestAnimationFrame: (fn: () => void) => number;
declare const Path2D: any;
declare const performance: { now(): number };

export interface ClientHelpers {
  formatBytes(bytes: number): string;
  formatPercent(fraction: number): string;
  tickStepS(spanS: number, target?: number): number;
}

export function dashboardClient(helpers: ClientHelpers): void {
  const KIND_COLORS = ['#4e79a7', '#59a14f', '#f28e2b'];
  const ROW_PX = 14;
  const CLUSTER_PX = 16;
  const AXIS_PX = 22;
  const GUTTER_PX = 110;
  const RIGHT_PX = 8;

  interface ClientBar {
    readonly id: number;
    readonly res: number;
    readonly kind: number;
    readonly startS: number;
    /** -1 while running. */
    endS: number;
    /** -1 while running, 1 ok, 0 failed. */
    ok: number;
    readonly attempt: number;
    readonly work: number;
  }

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
    readonly resources: WireResource[];
    readonly rows: ClientBar[][];
    readonly byId: Map<number, ClientBar>;
    summary: WireSummary | null;
    rowY: number[];
    clusterY: { name: string; y: number }[];
    heightPx: number;
    layoutDirty: boolean;
    barCount: number;
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
    details.append(clustersEl, hostsEl);
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
      resources: [],
      rows: [],
      byId: new Map(),
      summary: null,
      rowY: [],
      clusterY: [],
      heightPx: AXIS_PX,
      layoutDirty: true,
      barCount: 0,
    };
    attachZoomPan(canvas);
    return v;
  }

  function applyUpdate(u: SourceUpdate): void {
    const v = sources[u.source];
    if (!v) return;
    for (const r of u.resources) {
      v.resources.push(r);
      v.rows.push([]);
      v.layoutDirty = true;
    }
    for (const s of u.starts) {
      if (v.byId.has(s[0])) continue;
      const bar: ClientBar = { id: s[0], res: s[1], kind: s[2], startS: s[3], endS: -1, ok: -1, attempt: s[4], work: s[5] };
      v.byId.set(bar.id, bar);
      (v.rows[bar.res] ?? (v.rows[bar.res] = [])).push(bar);
      v.barCount++;
    }
    for (const e of u.ends) {
      const bar = v.byId.get(e[0]);
      if (!bar) continue;
      bar.endS = e[1];
      bar.ok = e[2];
    }
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
    v.hostsEl.textContent = '';
    for (const h of s.hosts) {
      const chip = el('span', `host ${h.state}`, h.host);
      chip.title = `${h.host} (${h.cluster}): ${h.state}`;
      chip.dataset['state'] = h.state;
      v.hostsEl.appendChild(chip);
    }
  }

  // ---- drawing ----

  function layout(v: SourceView): void {
    const clusters: string[] = [];
    for (const r of v.resources) if (!clusters.includes(r.cluster)) clusters.push(r.cluster);
    let y = AXIS_PX;
    v.rowY = new Array(v.resources.length).fill(0);
    v.clusterY = [];
    for (const c of clusters) {
      v.clusterY.push({ name: c, y });
      y += CLUSTER_PX;
      for (const type of ['link', 'host']) {
        v.resources.forEach((r, i) => {
          if (r.cluster === c && r.type === type) {
            v.rowY[i] = y;
            y += ROW_PX;
          }
        });
      }
    }
    v.heightPx = y + 4;
    v.layoutDirty = false;
  }

  function fitView(): void {
    let end = clock.endS ?? 0;
    if (clock.endS === null) {
      end = Math.max(clock.timeS * 1.05, 1);
      for (const v of sources) if (v.summary?.projectedFinishS) end = Math.max(end, v.summary.projectedFinishS);
    }
    view.startS = 0;
    view.endS = Math.max(end, 1e-6);
  }

  function draw(): void {
    const t0 = performance.now();
    if (view.follow) fitView();
    const dpr = window.devicePixelRatio || 1;
    for (const v of sources) {
      if (v.layoutDirty) layout(v);
      const widthPx = Math.max(300, v.canvas.clientWidth || v.section.clientWidth || 800);
      const heightPx = v.heightPx;
      if (v.canvas.width !== Math.round(widthPx * dpr) || v.canvas.height !== Math.round(heightPx * dpr)) {
        v.canvas.width = Math.round(widthPx * dpr);
        v.canvas.height = Math.round(heightPx * dpr);
        v.canvas.style.height = `${heightPx}px`;
      }
      const ctx = v.canvas.getContext('2d');
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, widthPx, heightPx);
      const plotPx = widthPx - GUTTER_PX - RIGHT_PX;
      const span = view.endS - view.startS;
      const tx = (t: number) => GUTTER_PX + ((t - view.startS) / span) * plotPx;
      ctx.font = '11px system-ui, sans-serif';
      // Axis and grid.
      const step = helpers.tickStepS(span, Math.max(2, Math.floor(plotPx / 90)));
      ctx.fillStyle = '#555';
      ctx.strokeStyle = '#e2e2e2';
      ctx.lineWidth = 1;
      ctx.textAlign = 'center';
      for (let t = Math.ceil(view.startS / step) * step; t <= view.endS + 1e-9; t += step) {
        const x = Math.round(tx(t)) + 0.5;
        ctx.beginPath();
        ctx.moveTo(x, AXIS_PX - 4);
        ctx.lineTo(x, heightPx);
        ctx.stroke();
        ctx.fillText(String(+t.toPrecision(6)), x, AXIS_PX - 8);
      }
      ctx.textAlign = 'left';
      ctx.fillText('time (s)', 4, AXIS_PX - 8);
      // Rows and labels.
      ctx.fillStyle = '#000';
      ctx.font = 'bold 11px system-ui, sans-serif';
      for (const c of v.clusterY) ctx.fillText(c.name, 4, c.y + CLUSTER_PX - 4);
      ctx.font = '11px system-ui, sans-serif';
      v.resources.forEach((r, i) => {
        const y = v.rowY[i]!;
        ctx.fillStyle = '#f4f4f4';
        ctx.fillRect(GUTTER_PX, y + 1, plotPx, ROW_PX - 2);
        ctx.fillStyle = '#222';
        ctx.fillText(r.label.length > 16 ? `${r.label.slice(0, 15)}…` : r.label, 12, y + ROW_PX - 3);
      });
      ctx.save();
      ctx.beginPath();
      ctx.rect(GUTTER_PX, 0, plotPx, heightPx);
      ctx.clip();
      // Periods hosts were down.
      if (v.summary) {
        ctx.fillStyle = 'rgba(120,120,120,0.35)';
        for (const h of v.summary.hosts) {
          const i = v.resources.findIndex((r) => r.type === 'host' && r.label === h.host);
          if (i < 0) continue;
          for (const [from, to] of h.down) {
            const x0 = tx(from);
            const x1 = tx(to ?? clock.timeS);
            ctx.fillRect(x0, v.rowY[i]! + 1, Math.max(1, x1 - x0), ROW_PX - 2);
          }
        }
      }
      // Bars, collected into one path per kind (and per kind for running ones) so that each is filled once.
      const nowS = Math.min(clock.timeS, v.summary?.timeS ?? clock.timeS);
      const done = [new Path2D(), new Path2D(), new Path2D()];
      const running = [new Path2D(), new Path2D(), new Path2D()];
      const failed = new Path2D();
      const retried = new Path2D();
      let drawn = 0;
      for (let i = 0; i < v.rows.length; i++) {
        const y = (v.rowY[i] ?? 0) + 1;
        const h = ROW_PX - 2;
        for (const b of v.rows[i]!) {
          if (b.startS > view.endS) break;
          const end = b.endS < 0 ? Math.max(nowS, b.startS) : b.endS;
          if (end < view.startS) continue;
          const x0 = tx(b.startS);
          const full = tx(end) - x0;
          // A 1 px gap keeps back-to-back sub-tasks apart once they are wide enough.
          const w = full >= 4 ? full - 1 : Math.max(1, full);
          (b.endS < 0 ? running : done)[b.kind]!.rect(x0, y, w, h);
          if (b.ok === 0) {
            failed.rect(x0, y, w, h);
            failed.moveTo(x0 + w - 4, y);
            failed.lineTo(x0 + w, y + h);
            failed.moveTo(x0 + w, y);
            failed.lineTo(x0 + w - 4, y + h);
          } else if (b.attempt > 1) retried.rect(x0 + 0.5, y + 0.5, w - 1, h - 1);
          drawn++;
        }
      }
      for (let k = 0; k < 3; k++) {
        ctx.fillStyle = KIND_COLORS[k]!;
        ctx.fill(done[k]);
        ctx.globalAlpha = 0.5;
        ctx.fill(running[k]);
        ctx.globalAlpha = 1;
      }
      ctx.strokeStyle = '#d62728';
      ctx.lineWidth = 2;
      ctx.stroke(failed);
      ctx.strokeStyle = '#222';
      ctx.lineWidth = 1;
      ctx.setLineDash([3, 2]);
      ctx.stroke(retried);
      ctx.setLineDash([]);
      // The shared clock.
      const cx = tx(clock.timeS);
      ctx.strokeStyle = '#d62728';
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(cx, AXIS_PX - 4);
      ctx.lineTo(cx, heightPx);
      ctx.stroke();
      ctx.restore();
      v.section.dataset['drawnBars'] = String(drawn);
      v.section.dataset['viewStartS'] = String(view.startS);
      v.section.dataset['viewEndS'] = String(view.endS);
      v.section.dataset['clockS'] = String(clock.timeS);
    }
    chartsEl.dataset['drawMs'] = (performance.now() - t0).toFixed(1);
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

  function timeAt(canvas: any, clientX: number): number {
    const rect = canvas.getBoundingClientRect();
    const plotPx = rect.width - GUTTER_PX - RIGHT_PX;
    return view.startS + ((clientX - rect.left - GUTTER_PX) / plotPx) * (view.endS - view.startS);
  }

  function attachZoomPan(canvas: any): void {
    canvas.addEventListener(
      'wheel',
      (e: any) => {
        e.preventDefault();
        zoom(e.deltaY > 0 ? 1.25 : 0.8, timeAt(canvas, e.clientX));
      },
      { passive: false },
    );
    canvas.addEventListener('mousedown', (e: any) => {
      drag = { canvas, x: e.clientX };
    });
  }

  // One drag at a time, followed on the window (charts can be replaced, so nothing per chart is kept there).
  let drag: { canvas: any; x: number } | null = null;
  window.addEventListener('mouseup', () => {
    drag = null;
  });
  window.addEventListener('mousemove', (e: any) => {
    if (drag === null) return;
    const rect = drag.canvas.getBoundingClientRect();
    const dS = ((e.clientX - drag.x) / (rect.width - GUTTER_PX - RIGHT_PX)) * (view.endS - view.startS);
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
    queueDraw();
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
