// Dashboard throughput: a 20,000-task run record replayed into the page in headless Chromium.
// Measures how many record events per second the server streams and the page takes in and draws
// (playback fast enough that the page, not the clock, is the limit), the page's frame rate meanwhile and
// over the replay's last half second (when the chart holds nearly every bar), the time the page spends
// drawing a frame, the page's JS heap at the end, and this process's peak memory.
import { startDashboard } from '../src/dashboard/server.js';
import { Playback } from '../src/dashboard/playback.js';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { syntheticRun, countSubtasks } from '../test/fixtures/records/synthetic-run.js';
import { launchChromium } from '../test/dashboard/chromium.js';
import { formatRunRecord } from '../src/record/record-reader.js';
import { median } from './support/median.js';

const WORKS = 20_000;
const REPETITIONS = 3;
/** The end of the replay, over which the page's frame rate and frame time are reported. */
const END_WINDOW_MS = 500;
/** Wall seconds the playback clock takes for the whole run; the page has to keep up with it. */
const PLAYBACK_WALL_S = 2;

/** Measured in the page over the replay's last END_WINDOW_MS. */
interface EndOfReplay {
  readonly framesPerS: number;
  /** The longest gap between two animation frames. */
  readonly worstFrameMs: number;
  /** The median time the dashboard took to draw a frame. */
  readonly drawMs: number;
}

// Page-side code is passed as text: this file compiles without the DOM library.
/** Records every animation frame and every chart draw (its time and duration) from now on. */
const RECORD_FRAMES = `
  window.__frames = [];
  window.__draws = [];
  (function tick(t) { window.__frames.push(t); requestAnimationFrame(tick); })(performance.now());
  new MutationObserver(() => window.__draws.push([performance.now(), Number(document.getElementById('charts').dataset.drawMs)]))
    .observe(document.getElementById('charts'), { attributes: true, attributeFilter: ['data-draw-ms'] });`;

/** True once the replay is at 100 % with every bar drawn; notes when, in the page's time. */
const REPLAY_DONE = (bars: number) => `(() => {
  const s = document.querySelector('section.source');
  const done = s !== null && s.dataset.progressPct === '100.0' && s.dataset.drawnBars === '${bars}';
  if (done && window.__doneAt === undefined) window.__doneAt = performance.now();
  return done;
})()`;

const END_OF_REPLAY = `(() => {
  const from = window.__doneAt - ${END_WINDOW_MS};
  const frames = window.__frames.filter((t) => t >= from && t <= window.__doneAt);
  const gaps = frames.slice(1).map((t, i) => t - frames[i]);
  const draws = window.__draws.filter(([t]) => t >= from && t <= window.__doneAt).map(([, ms]) => ms).sort((a, b) => a - b);
  return { framesPerS: frames.length / (${END_WINDOW_MS} / 1000), worstFrameMs: Math.max(0, ...gaps), drawMs: draws[Math.floor(draws.length / 2)] ?? 0 };
})()`;

const tGen = Date.now();
const events = syntheticRun({ seed: 42, works: WORKS, clusters: 4, hostsPerCluster: 10, sharedFiles: 50 });
const counts = countSubtasks(events);
const endS = events[events.length - 1]!.t;
console.log(`input: ${WORKS} works, 4 clusters × 10 hosts, ${events.length} record events, ${counts.all} sub-tasks, ${(formatRunRecord(events).length / 1e6).toFixed(1)} MB of JSON Lines (generated in ${Date.now() - tGen} ms)`);
console.log(`playback: whole run (${endS.toFixed(0)} simulated s) in ${PLAYBACK_WALL_S} wall s, batches every 50 ms`);

// Server side alone: fold every event with the reducer and encode the batches, no socket, no page.
const serverRates: number[] = [];
for (let rep = 0; rep < REPETITIONS; rep++) {
  const playback = new Playback([{ name: 'bench', events }], { speed: endS / PLAYBACK_WALL_S });
  const t0 = performance.now();
  let bytes = 0;
  while (!playback.finished) {
    const r = playback.tick(0.05);
    if (r) bytes += JSON.stringify({ type: 'batch', generation: playback.generation, clock: playback.clock(), updates: r.updates }).length;
  }
  const ms = performance.now() - t0;
  serverRates.push(events.length / (ms / 1000));
  console.log(`  server only, run ${rep + 1}: ${ms.toFixed(0)} ms to fold and encode ${events.length} events into ${(bytes / 1e6).toFixed(1)} MB of batches`);
}
console.log(`median: ${median(serverRates).toFixed(0)} events/s folded and encoded by the server alone`);

const browser = await launchChromium();
const rates: number[] = [];
const wallMs: number[] = [];
const fps: number[] = [];
const heapMB: number[] = [];
const streamed: number[] = [];
const drawMs: number[] = [];
const ends: EndOfReplay[] = [];
try {
  for (let rep = 0; rep < REPETITIONS; rep++) {
    const dashboard = await startDashboard({ sources: [{ name: 'bench', events }], speed: endS / PLAYBACK_WALL_S, paused: true });
    // bypassCSP: the page-side snippets below are strings, which the page's CSP (no eval) would refuse.
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, bypassCSP: true });
    await page.goto(dashboard.url);
    await page.waitForSelector('section.source');
    // Record animation frames while the run plays: a page that cannot keep up drops frames.
    await page.evaluate(RECORD_FRAMES);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const t0 = Date.now();
    dashboard.playback.paused = false;
    await page.waitForFunction(REPLAY_DONE(counts.all), undefined, { timeout: 120_000, polling: 20 });
    const ms = Date.now() - t0;
    loopDelay.disable();
    const loopP99Ms = loopDelay.percentile(99) / 1e6;
    const frames = Number(await page.evaluate('window.__frames.filter((t) => t <= window.__doneAt).length'));
    const end = (await page.evaluate(END_OF_REPLAY)) as EndOfReplay;
    ends.push(end);
    // Time to draw the finished chart whole (every bar in view): Fit repaints it whole.
    const draws: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.click('#zoom-fit');
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      draws.push(Number(await page.locator('#charts').getAttribute('data-draw-ms')));
    }
    drawMs.push(median(draws));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const metrics = (await cdp.send('Performance.getMetrics')).metrics;
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')!.value / 2 ** 20;
    wallMs.push(ms);
    rates.push(events.length / (ms / 1000));
    fps.push(frames / (ms / 1000));
    heapMB.push(heap);
    streamed.push(dashboard.stats.eventsStreamed);
    console.log(`  run ${rep + 1}: ${ms} ms to 100 % with every bar drawn, ${(events.length / (ms / 1000)).toFixed(0)} events/s, ${(frames / (ms / 1000)).toFixed(0)} frames/s, page JS heap ${heap.toFixed(1)} MB, ${dashboard.stats.batchesSent} batches, last ${END_WINDOW_MS} ms ${end.framesPerS.toFixed(0)} frames/s (worst frame ${end.worstFrameMs.toFixed(0)} ms, draw ${end.drawMs.toFixed(1)} ms), full redraw ${drawMs[drawMs.length - 1]!.toFixed(1)} ms, server event-loop delay p99 ${loopP99Ms.toFixed(0)} ms`);
    await page.close();
    await dashboard.close();
  }
} finally {
  await browser.close();
}
if (streamed.some((n) => n !== events.length)) throw new Error(`the server streamed ${streamed.join('/')} events, expected ${events.length}`);
console.log(`median: ${median(wallMs)} ms to replay and draw ${events.length} events (floor ${PLAYBACK_WALL_S * 1000} ms set by the clock)`);
console.log(`median: ${median(rates).toFixed(0)} events/s streamed and rendered, ${median(fps).toFixed(0)} page frames/s during playback`);
console.log(`median: at the end of the replay (last ${END_WINDOW_MS} ms), ${median(ends.map((e) => e.framesPerS)).toFixed(0)} page frames/s, worst frame ${median(ends.map((e) => e.worstFrameMs)).toFixed(0)} ms, ${median(ends.map((e) => e.drawMs)).toFixed(1)} ms to draw a frame`);
console.log(`median: ${median(drawMs).toFixed(1)} ms to redraw the whole chart (${counts.all} bars)`);
console.log(`median: page JS heap ${median(heapMB).toFixed(1)} MB after the run (after GC)`);
console.log(`peak memory (this process): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
