// `gridsweep simulate --dashboard` and `--watch` as a user runs them: the built CLI in a child process,
// its page in the system's headless Chromium.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { launchChromium } from './chromium.js';
import { dashboardUrl, gridsweep, killChildren, requireFreshBuild, withPortInUse } from './cli-process.js';

const APP = join(PACKAGE_ROOT, 'apps', 'appendix-b.app');
const GRID_DIR = join(PACKAGE_ROOT, 'griddescs', 'appendix-a');

let browser: Browser;
const pages: Page[] = [];

/** Plays at `speed` simulated seconds per wall second, through the page's own control. */
async function setSpeed(page: Page, speed: number): Promise<void> {
  await page.fill('#speed', String(speed));
  await page.press('#speed', 'Enter');
}

async function openPage(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  pages.push(page);
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  return page;
}

const section = (page: Page, name: string) => page.locator(`section.source[data-name="${name}"]`);

beforeAll(async () => {
  requireFreshBuild(join('src', 'cli', 'commands', 'simulate.ts'));
  browser = await launchChromium();
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.close();
  await killChildren();
});
afterAll(async () => {
  await browser?.close();
});

describe('gridsweep simulate --dashboard (built CLI, Chromium)', () => {
  it('shows two heuristics side by side, both reaching 100 %, and stops on SIGINT', async () => {
    const run = gridsweep(['simulate', '--app', APP, '--grid', join(GRID_DIR, 'appendix-a.grid'), '--dashboard', '--compare', 'minmin,xsufferage']);
    const url = await dashboardUrl(run);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(run.out()).toMatch(/^minmin: makespan [\d.]+ s, works done 12\/12$/m);
    expect(run.out()).toMatch(/^xsufferage: makespan [\d.]+ s, works done 12\/12$/m);

    const page = await openPage(url);
    await expect.poll(() => page.locator('section.source').count(), { timeout: 10_000 }).toBe(2);
    expect(await page.locator('section.source').evaluateAll((ss) => ss.map((s) => s.getAttribute('data-name')))).toEqual(['minmin', 'xsufferage']);
    await setSpeed(page, 20_000);
    for (const name of ['minmin', 'xsufferage']) {
      await expect.poll(() => section(page, name).getAttribute('data-progress-pct'), { timeout: 10_000 }).toBe('100.0');
      expect(Number(await section(page, name).getAttribute('data-bar-count'))).toBeGreaterThan(12);
    }

    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
  });

  it('shows the --heuristic run beside the --compare ones (issue 16: it was dropped)', async () => {
    const run = gridsweep(['simulate', '--app', APP, '--grid', join(GRID_DIR, 'appendix-a.grid'), '--dashboard', '--heuristic', 'workqueue', '--compare', 'minmin,maxmin']);
    const page = await openPage(await dashboardUrl(run));
    expect(run.out()).toMatch(/^workqueue: makespan [\d.]+ s, works done 12\/12\nminmin: makespan [\d.]+ s, works done 12\/12\nmaxmin: makespan/m);
    await expect.poll(() => page.locator('section.source').count(), { timeout: 10_000 }).toBe(3);
    expect(await page.locator('section.source').evaluateAll((ss) => ss.map((s) => s.getAttribute('data-name')))).toEqual(['workqueue', 'minmin', 'maxmin']);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
  });

  it('rejects an unknown heuristic in --compare before serving anything', async () => {
    const run = gridsweep(['simulate', '--app', APP, '--grid', join(GRID_DIR, 'appendix-a.grid'), '--dashboard', '--compare', 'minmin,nosuch']);
    expect(await run.exit).toBe(2);
    expect(run.err()).toContain('nosuch');
    expect(run.out()).not.toContain('dashboard:');
  });

  it('refuses --compare and --port without --dashboard, and --record with --compare', async () => {
    const grid = join(GRID_DIR, 'appendix-a.grid');
    const cases: [string[], string][] = [
      [['--compare', 'minmin'], '--compare goes with --dashboard'],
      [['--port', '8080'], '--port goes with --dashboard'],
      [['--dashboard', '--compare', 'minmin,xsufferage', '--record', join(tmpdir(), 'never.jsonl')], '--record writes one run'],
    ];
    for (const [extra, message] of cases) {
      const run = gridsweep(['simulate', '--app', APP, '--grid', grid, ...extra]);
      expect(await run.exit).toBe(2);
      expect(run.err()).toContain(message);
    }
  });

  it('turns a --port already in use into a usage error, for simulate, a real run and replaying a record', async () => {
    const record = join(PACKAGE_ROOT, 'test', 'fixtures', 'records', 'sample-min-completion.jsonl');
    const simulate = ['simulate', '--app', APP, '--grid', join(GRID_DIR, 'appendix-a.grid')];
    const sweepDir = join(PACKAGE_ROOT, 'apps', 'examples', 'sweep-sim');
    const realRun = ['run', join(sweepDir, 'sweep.json'), '--grid', join(sweepDir, 'grid-local.json')];
    const portAlone = gridsweep([...realRun, '--port', '8123']);
    expect(await portAlone.exit).toBe(2);
    expect(portAlone.err()).toContain('--port goes with --dashboard');
    await withPortInUse(async (busy) => {
      for (const args of [[...simulate, '--dashboard'], [...simulate, '--watch'], [...realRun, '--dashboard'], ['dashboard', record]]) {
        const run = gridsweep([...args, '--port', String(busy)]);
        expect(await run.exit).toBe(2);
        expect(run.err()).toContain(`--port ${busy}: that port is in use; give another one, or no --port for a free one`);
        expect(run.out()).not.toContain('dashboard:');
      }
    });
  });
});

describe('gridsweep simulate --watch (built CLI, Chromium)', () => {
  it('shows a bad save of the application with file:line in the page, and recovers on the next good save', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gs-simulate-watch-'));
    copyFileSync(APP, join(dir, 'sweep.app'));
    for (const f of ['appendix-a.grid', ...readBehaviorFiles()]) copyFileSync(join(GRID_DIR, f), join(dir, f));
    const appPath = join(dir, 'sweep.app');
    const good = readFileSync(appPath, 'utf8');

    const run = gridsweep(['simulate', '--app', 'sweep.app', '--grid', 'appendix-a.grid', '--watch'], dir);
    const url = await dashboardUrl(run);
    const page = await openPage(url);
    await expect.poll(() => page.locator('section.source').count(), { timeout: 10_000 }).toBe(1);
    const firstGeneration = await page.locator('#charts').getAttribute('data-generation');

    const lines = good.split('\n');
    const workLine = lines.findIndex((l) => l.startsWith('Work: <0>'));
    expect(workLine).toBeGreaterThan(0);
    lines[workLine] = lines[workLine]!.replace('Work:', 'Wrok:');
    writeFileSync(appPath, lines.join('\n'));
    await expect.poll(() => page.locator('#parse-error').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.locator('#parse-error').textContent()).toContain(`sweep.app:${workLine + 1}:1: error`);
    expect(await page.locator('#charts').isVisible()).toBe(false);
    expect(run.child.exitCode).toBeNull();

    writeFileSync(appPath, good);
    await expect.poll(() => page.locator('#parse-error').isVisible(), { timeout: 10_000 }).toBe(false);
    expect(await page.locator('#charts').isVisible()).toBe(true);
    expect(await page.locator('#charts').getAttribute('data-generation')).not.toBe(firstGeneration);
    await setSpeed(page, 20_000);
    await expect.poll(() => section(page, 'xsufferage').getAttribute('data-progress-pct'), { timeout: 10_000 }).toBe('100.0');

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });
});

/** The behaviour files beside the Appendix A grid (everything but the grid itself). */
function readBehaviorFiles(): string[] {
  return readdirSync(GRID_DIR).filter((f) => f !== 'appendix-a.grid');
}
