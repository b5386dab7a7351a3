// The edit loop with real files: chokidar sees the edits, the real parser and simulator re-run, and the
// page in Chromium shows the parse error instead of the charts, then recovers on the next good edit.
import { copyFileSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { simulate } from '../../backends/sim/simulate.js';
import { startDashboard, type Dashboard } from '../../src/dashboard/server.js';
import { runWatchLoop, watchInputs, type InputWatcher, type WatchOutcome } from '../../src/dashboard/watch.js';
import type { DashboardSource } from '../../src/dashboard/source.js';
import { loadApplication, loadGrid } from '../../src/formats/index.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { launchChromium } from './chromium.js';

const watchers: InputWatcher[] = [];
afterEach(async () => {
  for (const w of watchers.splice(0)) await w.close();
});

/** Resolves when `pred` holds, polling every 20 ms, or rejects after `timeoutMs`. */
async function waitFor(pred: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('watchInputs', () => {
  it('reports real edits, coalescing a burst of writes into one call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gs-watch-'));
    const file = join(dir, 'input.app');
    writeFileSync(file, 'one\n');
    const calls: string[][] = [];
    const w = watchInputs([file], (changed) => calls.push(changed), { debounceMs: 200 });
    watchers.push(w);
    await w.ready;
    for (const text of ['two\n', 'three\n', 'four\n']) {
      writeFileSync(file, text);
      await new Promise((r) => setTimeout(r, 30));
    }
    await waitFor(() => calls.length === 1);
    await new Promise((r) => setTimeout(r, 400));
    expect(calls).toEqual([[file]]);
    // An editor's atomic save (write elsewhere, rename over) counts as an edit too.
    writeFileSync(join(dir, 'input.app.swp'), 'five\n');
    renameSync(join(dir, 'input.app.swp'), file);
    await waitFor(() => calls.length === 2);
    expect(calls[1]).toContain(file);
  });
});

describe('the watch loop in the dashboard (real parser and simulator)', () => {
  let browser: Browser;
  let dashboard: Dashboard | null = null;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await dashboard?.close();
    await browser?.close();
  });

  it('shows a parse error instead of the charts and recovers on the next good edit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gs-watch-loop-'));
    const appPath = join(dir, 'sweep.app');
    copyFileSync(join(PACKAGE_ROOT, 'apps', 'appendix-b.app'), appPath);
    const gridPath = join(PACKAGE_ROOT, 'griddescs', 'appendix-a', 'appendix-a.grid');
    const good = readFileSync(appPath, 'utf8');
    const rerun = async (): Promise<DashboardSource[]> => {
      const app = loadApplication(appPath);
      const { grid } = loadGrid(gridPath);
      return ['xsufferage', 'minmin'].map((heuristic) => {
        const events: RunRecordEvent[] = [];
        simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic }, seed: 1, record: (e) => events.push(e) });
        return { name: heuristic, events };
      });
    };
    dashboard = await startDashboard({ sources: await rerun(), speed: 1000 });
    const outcomes: WatchOutcome[] = [];
    const loop = runWatchLoop({ paths: [appPath], rerun, dashboard, debounceMs: 100, onOutcome: (o) => outcomes.push(o) });
    watchers.push(loop);
    await loop.ready;

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(dashboard.url);
    await expect.poll(() => page.locator('section.source').count()).toBe(2);
    const firstGeneration = await page.locator('#charts').getAttribute('data-generation');

    // A typo on line 27 (the first Work): the page shows the parser's file:line:column message.
    const lines = good.split('\n');
    const workLine = lines.findIndex((l) => l.startsWith('Work: <0>'));
    lines[workLine] = lines[workLine]!.replace('Work:', 'Wrok:');
    writeFileSync(appPath, lines.join('\n'));
    await expect.poll(() => page.locator('#parse-error').isVisible(), { timeout: 10_000 }).toBe(true);
    const shown = (await page.locator('#parse-error').textContent())!;
    expect(shown).toContain(`${appPath}:${workLine + 1}:1: error`);
    expect(await page.locator('#charts').isVisible()).toBe(false);
    expect(outcomes.at(-1)?.ok).toBe(false);

    // A page opened now sees the error too.
    const late = await browser.newPage();
    await late.goto(dashboard.url);
    await expect.poll(() => late.locator('#parse-error').isVisible()).toBe(true);
    await late.close();

    // The next good edit (slower tasks) brings the charts back with the new runs.
    writeFileSync(appPath, good.replace('Work: <0> < 3 : 0 1 2> < 1 : 10 > < 3 : 600 500 600 >', 'Work: <0> < 3 : 0 1 2> < 1 : 10 > < 3 : 900 800 900 >'));
    await expect.poll(() => page.locator('#parse-error').isVisible(), { timeout: 10_000 }).toBe(false);
    expect(await page.locator('#charts').isVisible()).toBe(true);
    expect(await page.locator('#charts').getAttribute('data-generation')).not.toBe(firstGeneration);
    expect(outcomes.at(-1)?.ok).toBe(true);
    await expect.poll(() => page.locator('section.source[data-name="xsufferage"]').getAttribute('data-progress-pct'), { timeout: 15_000 }).toBe('100.0');
    await page.close();
  });
});
