// `gridsweep experiment SPEC --grid REALGRID.json --dashboard` as a user runs it: the built CLI computes the
// matrix on a real grid of 2 local slots (agents, the bundled cell program, verified outputs) and its page,
// in the system's headless Chromium, shows the grid run's chart (a row per slot, the tasks on them) and the
// matrix progress fed by the run as tasks start and their outputs are verified, up to 100 %.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { computePixels, launchChromium } from './chromium.js';
import { dashboardUrl, gridsweep, killChildren, requireFreshBuild } from './cli-process.js';
import { localGridFile, makeScratch } from '../experiment/support/grid-experiment.js';

// 3 heuristics × 2 applications (a file, a generator) × 2 seeds = 12 runs, none cached. On 2 slots the
// runs are dealt into min(12, TASKS_PER_SLOT 2 × 2 slots) = 4 tasks of 3 runs each (grid-cells.ts).
const RUNS = 12;
const TASKS = 4;
const RUNS_PER_TASK = 3;
const scratch = makeScratch(['H0', 'H4', 'xsufferage'], 2);
const grid = localGridFile(scratch, 2);

let browser: Browser;
let page: Page | null = null;

beforeAll(async () => {
  requireFreshBuild(join('src', 'cli', 'commands', 'experiment.ts'));
  requireFreshBuild(join('src', 'experiment', 'grid-cells.ts'));
  browser = await launchChromium();
});
afterEach(async () => {
  await page?.close();
  page = null;
  await killChildren();
});
afterAll(async () => {
  await browser?.close();
  rmSync(scratch.dir, { recursive: true, force: true });
});

const matrix = (p: Page, key: string) => p.locator('#matrix').getAttribute(`data-${key}`);

describe('gridsweep experiment --grid --dashboard (built CLI, local slots, Chromium)', () => {
  it('shows the grid run with a row per slot and the matrix fed by the run up to 100 %', async () => {
    // The page is ready before the command starts (the grid run begins as soon as the URL is printed),
    // and notes every state the matrix passes through (the data-* attributes of #matrix).
    page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
    const p = page;
    await p.addInitScript(() => {
      const seen: { done: number; running: number }[] = [];
      (window as unknown as { matrixSeen: typeof seen }).matrixSeen = seen;
      document.addEventListener('DOMContentLoaded', () => {
        const el = document.getElementById('matrix')!;
        const note = (): void => {
          if (el.dataset['done'] !== undefined) seen.push({ done: Number(el.dataset['done']), running: Number(el.dataset['running']) });
        };
        note();
        new MutationObserver(note).observe(el, { attributes: true });
      });
    });
    const run = gridsweep(['experiment', scratch.specPath, '--out', join(scratch.dir, 'out'), '--grid', grid, '--dashboard']);
    expect((await p.goto(await dashboardUrl(run)))?.status()).toBe(200);
    await expect.poll(() => matrix(p, 'finished'), { timeout: 180_000, interval: 100 }).toBe('true');
    expect(run.err()).toContain(`real grid: ${RUNS} run(s) computed in ${TASKS} task(s), 0 failed`);
    expect(await matrix(p, 'done')).toBe(String(RUNS));
    expect(await matrix(p, 'total')).toBe(String(RUNS));
    expect(await matrix(p, 'cached')).toBe('0');
    expect(await p.locator('#matrix .progress-text').textContent()).toBe(`experiment finished: ${RUNS}/${RUNS} runs done (${RUNS} simulated · 0 cached · 0 failed)`);

    // The matrix moved while the grid run went on, task by task: runs counted running once a slot started
    // their task's computation, and done in steps of a task's runs as outputs were verified (not all at the end).
    const seen = await p.evaluate(() => (window as unknown as { matrixSeen: { done: number; running: number }[] }).matrixSeen);
    expect(seen.some((s) => s.running > 0), JSON.stringify(seen)).toBe(true);
    // Whole tasks only, and never more than is left; a task whose output is still being fetched and verified
    // counts as running while its slot already computes the next one, so more than 2 tasks may run at once.
    expect(seen.every((s) => s.running % RUNS_PER_TASK === 0 && s.done + s.running <= RUNS), JSON.stringify(seen)).toBe(true);
    const between = seen.filter((s) => s.done > 0 && s.done < RUNS);
    expect(between.length, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(between.every((s) => s.done % RUNS_PER_TASK === 0), JSON.stringify(seen)).toBe(true);

    // One chart, the grid run's: its rows are the 2 slots of cluster "here", its 4 tasks all done.
    const charts = p.locator('section.source');
    expect(await charts.count()).toBe(1);
    const chart = charts.nth(0);
    expect(await chart.getAttribute('data-name')).toBe(`${RUNS} run(s) on the real grid local-grid.json: a row per slot, a bar per task`);
    await expect.poll(() => chart.getAttribute('data-progress-pct'), { timeout: 10_000 }).toBe('100.0');
    expect(await chart.getAttribute('data-done')).toBe(String(TASKS));
    expect(await chart.locator('.hosts .host').allTextContents()).toEqual(['here.1', 'here.2']);
    // At least one computation bar per task (transfers add more).
    expect(Number(await chart.getAttribute('data-bar-count'))).toBeGreaterThanOrEqual(TASKS);
    await expect.poll(() => computePixels(chart.locator('canvas'))).toBeGreaterThan(100);
    mkdirSync(join(PACKAGE_ROOT, 'test-artifacts'), { recursive: true });
    await p.screenshot({ path: join(PACKAGE_ROOT, 'test-artifacts', 'grid-experiment-dashboard.png'), fullPage: true });

    expect(run.out()).toMatch(new RegExp(`^${RUNS} runs: ${RUNS} simulated, 0 from the cache, 0 failed`, 'm'));
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
  }, 240_000);
});
