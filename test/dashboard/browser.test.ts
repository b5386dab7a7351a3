// The dashboard in a real headless Chromium: playback, side-by-side comparison on one clock, the page's
// controls, access control and bad messages. Its screenshot goes to test-artifacts/dashboard.png (ignored
// by git); with GRIDSWEEP_UPDATE_SCREENSHOT=1 (`npm run screenshot`) it replaces the README's docs/dashboard.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startDashboard, type Dashboard } from '../../src/dashboard/server.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import type { BatchLevel } from '../../src/report/batch-jobs.js';
import { RunState } from '../../src/report/run-state.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { countSubtasks, syntheticRun } from '../fixtures/records/synthetic-run.js';
import { batchRunRecord } from '../fixtures/records/batch-run.js';
import { canvasImage, colorPixels, computePixels, differingPixels, launchChromium, socketOutcome } from './chromium.js';

const fast = syntheticRun({ seed: 1, policy: 'min-completion' });
const slow = syntheticRun({ seed: 1, policy: 'round-robin' });
const endOf = (events: readonly RunRecordEvent[]) => events[events.length - 1]!.t;

let browser: Browser;
let dashboard: Dashboard | null = null;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.close();
  await dashboard?.close();
  dashboard = null;
});

/** A page that records every request and fails the test on script errors. */
async function openPage(url: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
  pages.push(page);
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  return { page, requests, errors };
}

const section = (page: Page, name: string) => page.locator(`section.source[data-name="${name}"]`);

describe('dashboard in Chromium', () => {
  it('plays a run: bars appear while it plays and progress reaches 100 %', async () => {
    dashboard = await startDashboard({ sources: [{ name: 'run', events: fast }], speed: endOf(fast) / 5, paused: true });
    const { page, requests, errors } = await openPage(dashboard.url);
    const s = section(page, 'run');
    await expect.poll(() => page.locator('#status').getAttribute('data-state')).toBe('paused');
    expect(await s.getAttribute('data-progress-pct')).toBe('0.0');
    await page.click('#pause');
    await expect.poll(async () => Number(await s.getAttribute('data-bar-count')), { timeout: 10_000 }).toBeGreaterThan(0);
    const midway = Number(await s.getAttribute('data-progress-pct'));
    expect(midway).toBeLessThan(100);
    await expect.poll(() => s.getAttribute('data-progress-pct'), { timeout: 15_000 }).toBe('100.0');
    const total = countSubtasks(fast).all;
    await expect.poll(() => s.getAttribute('data-drawn-bars')).toBe(String(total));
    expect(await s.getAttribute('data-bar-count')).toBe(String(total));
    expect(await computePixels(s.locator('canvas'))).toBeGreaterThan(5000);
    expect(await page.locator('#status').getAttribute('data-state')).toBe('finished');
    expect(await s.locator('.progress-text').textContent()).toContain('done 199');
    expect(await s.locator('.stats').textContent()).toContain(`makespan ${endOf(fast).toFixed(1)} s (finished)`);
    expect(await s.locator('table.clusters tr').count()).toBe(4);
    expect(await s.locator('.host[data-state="rejoined"]').textContent()).toBe('c1-h2');
    // A late joiner gets the whole state at once.
    const late = await openPage(dashboard.url);
    await expect.poll(() => section(late.page, 'run').getAttribute('data-progress-pct')).toBe('100.0');
    expect(await section(late.page, 'run').getAttribute('data-bar-count')).toBe(String(total));
    const origin = new URL(dashboard.url).origin;
    expect([...requests, ...late.requests].filter((u) => !u.startsWith(origin))).toEqual([]);
    expect([...errors, ...late.errors]).toEqual([]);
  });

  it('shows heuristics side by side on one clock, with pause, step and speed from the page', async () => {
    dashboard = await startDashboard({
      sources: [
        { name: 'min-completion', events: fast },
        { name: 'round-robin', events: slow },
      ],
      speed: endOf(slow) / 8,
      title: 'min-completion vs round-robin',
    });
    const { page, errors } = await openPage(dashboard.url);
    await expect.poll(() => page.locator('section.source').count()).toBe(2);
    // Pause mid-run (after the faster run has ended, before the slower one has).
    await expect.poll(async () => Number(await page.locator('#clock').getAttribute('data-time-s')), { timeout: 15_000 }).toBeGreaterThan(endOf(fast) * 1.05);
    await page.click('#pause');
    await expect.poll(() => page.locator('#status').getAttribute('data-state')).toBe('paused');
    const clockS = Number(await page.locator('#clock').getAttribute('data-time-s'));
    expect(clockS).toBeLessThan(endOf(slow));
    for (const [name, events] of [['min-completion', fast], ['round-robin', slow]] as const) {
      const s = section(page, name);
      // Each chart shows its run at the shared clock: the works done by then, the same axis and clock line
      // (the charts are drawn at the next animation frame after the clock's message, so each is polled).
      const doneByThen = events.filter((e) => e.type === 'work-done' && e.t <= clockS).length;
      await expect.poll(() => s.getAttribute('data-done'), { timeout: 10_000 }).toBe(String(doneByThen));
      await expect.poll(async () => Number(await s.getAttribute('data-clock-s')), { timeout: 10_000 }).toBe(clockS);
      await expect.poll(async () => Number(await s.getAttribute('data-view-end-s')), { timeout: 10_000 }).toBe(endOf(slow));
    }
    expect(await section(page, 'min-completion').getAttribute('data-progress-pct')).toBe('100.0');
    expect(Number(await section(page, 'round-robin').getAttribute('data-progress-pct'))).toBeLessThan(100);
    // Step moves to the next event of either run and stays paused.
    const nextEventS = Math.min(...slow.filter((e) => e.t > clockS).map((e) => e.t));
    await page.click('#step');
    await expect.poll(async () => Number(await page.locator('#clock').getAttribute('data-time-s'))).toBe(nextEventS);
    expect(await page.locator('#status').getAttribute('data-state')).toBe('paused');
    // Speed from the page, then resume to the end.
    await page.fill('#speed', String(Math.round(endOf(slow))));
    await page.press('#speed', 'Enter');
    await expect.poll(() => dashboard!.playback.speed).toBe(Math.round(endOf(slow)));
    await page.click('#pause');
    await expect.poll(() => section(page, 'round-robin').getAttribute('data-progress-pct'), { timeout: 10_000 }).toBe('100.0');
    // Zooming with the wheel narrows the shared axis of both charts.
    const canvas = section(page, 'round-robin').locator('canvas');
    await canvas.hover();
    await page.mouse.wheel(0, -300);
    await expect.poll(async () => Number(await section(page, 'min-completion').getAttribute('data-view-end-s'))).toBeLessThan(endOf(slow));
    expect(await section(page, 'min-completion').getAttribute('data-view-end-s')).toBe(await section(page, 'round-robin').getAttribute('data-view-end-s'));
    await page.click('#zoom-fit');
    await expect.poll(async () => Number(await section(page, 'round-robin').getAttribute('data-view-end-s'))).toBe(endOf(slow));
    const folder = join(PACKAGE_ROOT, process.env['GRIDSWEEP_UPDATE_SCREENSHOT'] === '1' ? 'docs' : 'test-artifacts');
    mkdirSync(folder, { recursive: true });
    await page.screenshot({ path: join(folder, 'dashboard.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('draws frame by frame exactly what a whole repaint draws, mid-run, zoomed in and at the end', async () => {
    dashboard = await startDashboard({ sources: [{ name: 'run', events: fast }], speed: endOf(fast) / 4 });
    const { page, errors } = await openPage(dashboard.url);
    const s = section(page, 'run');
    const canvas = s.locator('canvas');
    const wholePaints = async () => Number(await s.getAttribute('data-whole-paints'));
    /** The chart as drawn frame by frame, then as repainted whole by `repaint` (which keeps the view). */
    async function compareWithWholeRepaint(repaint: () => Promise<void>): Promise<number> {
      const incremental = await canvasImage(canvas);
      const before = await wholePaints();
      await repaint();
      await expect.poll(wholePaints).toBeGreaterThan(before);
      return differingPixels(incremental, await canvasImage(canvas));
    }
    // Fit repaints whole; the view stays the same while the run is followed.
    const fit = () => page.click('#zoom-fit');
    // Resizing away and back repaints whole twice, the second time at the size and view of before.
    const canvasWidth = () => canvas.evaluate((c) => (c as unknown as { width: number }).width);
    const resizeAwayAndBack = async () => {
      const width = await canvasWidth();
      await page.setViewportSize({ width: 1000, height: 1000 });
      await expect.poll(canvasWidth).toBeLessThan(width);
      await page.setViewportSize({ width: 1300, height: 1000 });
      await expect.poll(canvasWidth).toBe(width);
    };

    // Mid-run, paused: running bars, a host down and the clock line are on the chart.
    await expect.poll(async () => Number(await page.locator('#clock').getAttribute('data-time-s')), { timeout: 10_000 }).toBeGreaterThan(800);
    await page.click('#pause');
    await expect.poll(() => page.locator('#status').getAttribute('data-state')).toBe('paused');
    expect(Number(await s.getAttribute('data-progress-pct'))).toBeLessThan(100);
    expect(await wholePaints()).toBeLessThan(10);
    expect(await compareWithWholeRepaint(fit)).toBe(0);

    // Zoomed in on the middle of the run, then played to the end: bars start and end in and out of view.
    await canvas.hover();
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -100);
    await expect.poll(async () => Number(await s.getAttribute('data-view-end-s'))).toBeLessThan(endOf(fast) * 0.8);
    const zoomed = await canvasImage(canvas);
    await page.click('#pause');
    await expect.poll(() => s.getAttribute('data-progress-pct'), { timeout: 15_000 }).toBe('100.0');
    expect(differingPixels(zoomed, await canvasImage(canvas))).toBeGreaterThan(500);
    expect(await compareWithWholeRepaint(resizeAwayAndBack)).toBe(0);

    // The whole run, repainted whole; then played again from the start on a new chart, frame by frame.
    await fit();
    await expect.poll(async () => Number(await s.getAttribute('data-view-end-s'))).toBe(endOf(fast));
    const whole = await canvasImage(canvas);
    const generation = await page.locator('#charts').getAttribute('data-generation');
    await page.click('#restart');
    await expect.poll(() => page.locator('#charts').getAttribute('data-generation')).not.toBe(generation);
    await expect.poll(() => s.getAttribute('data-progress-pct'), { timeout: 15_000 }).toBe('100.0');
    await expect.poll(() => s.getAttribute('data-drawn-bars')).toBe(String(countSubtasks(fast).all));
    expect(differingPixels(whole, await canvasImage(canvas))).toBe(0);
    expect(await wholePaints()).toBeLessThan(10);
    expect(errors).toEqual([]);
  });

  it("shows a batch cluster's cores and queue: other users' jobs beside the sweep's pilots, frame by frame as drawn whole", async () => {
    const events = batchRunRecord();
    dashboard = await startDashboard({ sources: [{ name: 'batch', events }], speed: endOf(events) / 4 });
    const { page, errors } = await openPage(dashboard.url);
    const s = section(page, 'batch');
    const canvas = s.locator('canvas');
    const others = () => colorPixels(canvas, [0x79, 0x70, 0x6e]);
    const pilots = () => colorPixels(canvas, [0xb0, 0x7a, 0xa1]);
    const row = s.locator('table.batch tr[data-cluster="b"] td');
    const wholePaints = async () => Number(await s.getAttribute('data-whole-paints'));
    async function sameAsWholeRepaint(): Promise<number> {
      const incremental = await canvasImage(canvas);
      const before = await wholePaints();
      await page.click('#zoom-fit');
      await expect.poll(wholePaints).toBeGreaterThan(before);
      return differingPixels(incremental, await canvasImage(canvas));
    }
    // Mid-run (after 900 s: another user's job and both pilots waiting), paused.
    await expect.poll(async () => Number(await page.locator('#clock').getAttribute('data-time-s')), { timeout: 10_000 }).toBeGreaterThan(900);
    await page.click('#pause');
    await expect.poll(() => page.locator('#status').getAttribute('data-state')).toBe('paused');
    const clockS = Number(await page.locator('#clock').getAttribute('data-time-s'));
    // The table says what the record says at that time.
    const level = RunState.from(events.filter((e) => e.t <= clockS)).batch.clusters[0]!.timeline.at(-1)!;
    expect(level.pilotsWaiting).toBeGreaterThan(0);
    const asRow = (l: BatchLevel) => ['b', `${l.busyCores - l.pilotBusyCores} / 16`, String(l.pilotBusyCores), String(l.waiting - l.pilotsWaiting), String(l.pilotsWaiting)];
    expect(await row.allTextContents()).toEqual(asRow(level));
    expect(await others()).toBeGreaterThan(200);
    expect(await pilots()).toBeGreaterThan(50);
    expect(await sameAsWholeRepaint()).toBe(0);
    // At the end: 14 cores in use, 8 of them the two pilots', nobody waiting.
    await page.click('#pause');
    await expect.poll(() => page.locator('#status').getAttribute('data-state'), { timeout: 15_000 }).toBe('finished');
    expect(await row.allTextContents()).toEqual(['b', '6 / 16', '8', '0', '0']);
    // The first two pilots' cores left at their walltime's end: not failures.
    expect(await s.locator('.host[data-state="left"]').count()).toBe(8);
    expect(await s.locator('.host[data-state="failed"]').count()).toBe(0);
    expect(asRow(RunState.from(events).batch.clusters[0]!.timeline.at(-1)!)).toEqual(['b', '6 / 16', '8', '0', '0']);
    const timeline = events.filter((e) => e.type === 'job').map((e) => e.t);
    expect(Number(await s.getAttribute('data-batch-levels'))).toBeGreaterThanOrEqual(new Set(timeline).size);
    expect(await sameAsWholeRepaint()).toBe(0);
    await page.screenshot({ path: join(PACKAGE_ROOT, 'test-artifacts', 'dashboard-batch.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('refuses the page and the WebSocket without the token', async () => {
    dashboard = await startDashboard({ sources: [{ name: 'run', events: fast }] });
    const page = await browser.newPage();
    pages.push(page);
    const res = await page.goto(dashboard.url.split('?')[0]!);
    expect(res?.status()).toBe(403);
    const wsUrl = `ws://127.0.0.1:${dashboard.port}/ws`;
    expect(dashboard.stats.rejectedRequests).toBeGreaterThanOrEqual(1);
    expect(await socketOutcome(page, `${wsUrl}?token=not-the-token`)).toBe('refused');
    expect(dashboard.stats.rejectedUpgrades).toBe(1);
  });

  it('answers a malformed message from a page with an error and keeps serving', async () => {
    dashboard = await startDashboard({ sources: [{ name: 'run', events: fast }], speed: endOf(fast) / 2 });
    const { page } = await openPage(dashboard.url);
    const reply = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(url);
          ws.onopen = () => ws.send('{"cmd": pause');
          ws.onmessage = (e) => {
            const m = JSON.parse(String(e.data)) as { type: string; message?: string };
            if (m.type === 'error') resolve(m.message!);
          };
        }),
      dashboard.url.replace('http://', 'ws://').replace('/?', '/ws?'),
    );
    expect(reply).toMatch(/^not JSON/);
    await expect.poll(() => section(page, 'run').getAttribute('data-progress-pct'), { timeout: 10_000 }).toBe('100.0');
    expect(dashboard.stats.rejectedCommands).toBe(1);
  });
});
