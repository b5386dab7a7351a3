// `gridsweep experiment --dashboard` as a user runs it: the built CLI in a child process, with its worker
// threads and the real simulator, and its page in the system's headless Chromium.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { RESULTS_FOLDER_LOCK } from '../../backends/real/journal-lock.js';
import { computePixels, launchChromium, socketOutcome } from './chromium.js';
import { dashboardUrl, gridsweep, killChildren, requireFreshBuild, withPortInUse } from './cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'gs-experiment-dashboard-'));
const SPEC = join(dir, 'spec.json');
const RUNS = 3 * 2 * 2;

let browser: Browser;
let page: Page | null = null;

beforeAll(async () => {
  requireFreshBuild(join('src', 'cli', 'commands', 'experiment.ts'));
  // The shipped Figure 11 grid and one of its applications, swept over two shared-file sizes.
  writeFileSync(
    SPEC,
    JSON.stringify({
      name: 'dashboard',
      heuristics: ['workqueue', 'minmin', 'xsufferage'],
      grids: { fig11: { file: join(PACKAGE_ROOT, 'griddescs', 'fig11', 'fig11.grid') } },
      applications: { mcell: { file: join(PACKAGE_ROOT, 'apps', 'fig11', 'fig11-${sharedFileSizeKB}kb.app') } },
      sweep: { variable: 'sharedFileSizeKB', values: [100, 1200] },
      seeds: [1, 2],
    }),
  );
  browser = await launchChromium();
});
afterEach(async () => {
  await page?.close();
  page = null;
  await killChildren();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function openPage(url: string): Promise<Page> {
  page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  return page;
}

const matrix = (p: Page, key: string) => p.locator('#matrix').getAttribute(`data-${key}`);

describe('gridsweep experiment --dashboard (built CLI, Chromium)', () => {
  it('shows the matrix reaching all runs done and the runs as Gantt charts, refuses requests without the token, stops on SIGINT', async () => {
    const out = join(dir, 'out');
    const run = gridsweep(['experiment', SPEC, '--out', out, '--jobs', '2', '--dashboard']);
    const url = await dashboardUrl(run);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    const p = await openPage(url);
    expect(await p.locator('#title').textContent()).toBe(`gridsweep experiment ${SPEC}`);
    await expect.poll(() => matrix(p, 'finished'), { timeout: 60_000 }).toBe('true');
    expect(await matrix(p, 'done')).toBe(String(RUNS));
    expect(await matrix(p, 'total')).toBe(String(RUNS));
    expect(await matrix(p, 'cached')).toBe('0');
    await expect.poll(() => p.locator('#status').getAttribute('data-state')).toBe('finished');
    expect(await p.locator('#matrix .progress-text').textContent()).toBe(`experiment finished: ${RUNS}/${RUNS} runs done (${RUNS} simulated · 0 cached · 0 failed)`);
    // One chart per worker thread, each showing a whole run of the matrix.
    const charts = p.locator('section.source');
    expect(await charts.count()).toBe(2);
    for (let i = 0; i < 2; i++) {
      const chart = charts.nth(i);
      expect(await chart.getAttribute('data-name')).toMatch(/^(workqueue|minmin|xsufferage)\/default on fig11 × mcell \[(100|1200)\] seed [12]$/);
      await expect.poll(() => chart.getAttribute('data-progress-pct'), { timeout: 10_000 }).toBe('100.0');
      expect(Number(await chart.getAttribute('data-bar-count'))).toBeGreaterThan(400);
      await expect.poll(async () => Number(await chart.getAttribute('data-drawn-bars'))).toBeGreaterThan(400);
      expect(await chart.locator('.progress-text').textContent()).toContain('done 400');
      expect(await computePixels(chart.locator('canvas'))).toBeGreaterThan(1000);
    }
    mkdirSync(join(PACKAGE_ROOT, 'test-artifacts'), { recursive: true });
    await p.screenshot({ path: join(PACKAGE_ROOT, 'test-artifacts', 'experiment-dashboard.png'), fullPage: true });

    expect(run.out()).toMatch(new RegExp(`^${RUNS} runs: ${RUNS} simulated, 0 from the cache, 0 failed`, 'm'));
    expect(run.out()).toContain('Ctrl-C to stop');
    expect(run.child.exitCode).toBeNull();
    // The results are written: the folder is free for another experiment while the page is served.
    expect(existsSync(join(out, RESULTS_FOLDER_LOCK))).toBe(false);
    // Neither the page nor the stream without the token.
    const bare = await browser.newPage();
    try {
      expect((await bare.goto(url.split('?')[0]!))?.status()).toBe(403);
      expect(await socketOutcome(bare, url.replace('http://', 'ws://').replace(/\/\?.*$/, '/ws'))).toBe('refused');
    } finally {
      await bare.close();
    }

    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);

    // Again: every run comes from the cache, so there is progress to show but no run to draw.
    const again = gridsweep(['experiment', SPEC, '--out', out, '--jobs', '2', '--dashboard']);
    const second = await openPage(await dashboardUrl(again));
    await expect.poll(() => matrix(second, 'finished'), { timeout: 30_000 }).toBe('true');
    expect(await matrix(second, 'cached')).toBe(String(RUNS));
    expect(await second.locator('section.source').count()).toBe(0);
    again.child.kill('SIGTERM');
    expect(await again.exit).toBe(0);
  });

  it('exits by itself without --dashboard, refuses --port without it, and a port in use', async () => {
    const run = gridsweep(['experiment', SPEC, '--out', join(dir, 'plain'), '--jobs', '2']);
    expect(await run.exit).toBe(0);
    expect(run.out()).not.toContain('dashboard:');
    const port = gridsweep(['experiment', SPEC, '--out', join(dir, 'plain'), '--port', '8080']);
    expect(await port.exit).toBe(2);
    expect(port.err()).toContain('--port goes with --dashboard');
    await withPortInUse(async (busy) => {
      const clash = gridsweep(['experiment', SPEC, '--out', join(dir, 'plain'), '--dashboard', '--port', String(busy)]);
      expect(await clash.exit).toBe(2);
      expect(clash.err()).toContain(`--port ${busy}: that port is in use`);
    });
  });
});
