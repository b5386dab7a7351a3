// `gridsweep demo --quick` end to end through the built CLI (run `npm run build` first): a real study on
// the bundled Figure 11 files, in a temporary working directory, with the default output folder; then the
// same command again (everything from the cache); then the report opened in a real headless Chromium
// with every network request refused and recorded.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICK_STUDY } from '../../src/demo/study.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { launchChromium } from '../dashboard/chromium.js';

const CLI = join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js');
const work = mkdtempSync(join(tmpdir(), 'gridsweep-demo-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function demo(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'demo', ...args], { cwd: work, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const heuristics = listHeuristics().map((h) => h.name);
const runs = heuristics.length * QUICK_STUDY.sizesKB.length * QUICK_STUDY.seedCount;
const outDir = join(work, 'gridsweep-demo');
let first: ReturnType<typeof demo>;

beforeAll(() => {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'commands', 'demo.js'))) throw new Error(`${CLI} has no demo command: run \`npm run build\` first`);
  first = demo('--quick', '--jobs', '2');
});

describe('gridsweep demo --quick (built CLI)', () => {
  it('exits 0, says where it writes, and prints the median table with every heuristic', () => {
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain(`${runs} simulations`);
    expect(first.stderr).toContain('output in gridsweep-demo/ (in the current directory');
    expect(first.stdout).toMatch(/median makespan \(s\) by sharedFileSizeKB/);
    const header = new RegExp(`^\\s+${QUICK_STUDY.sizesKB.join('\\s+')}$`, 'm');
    expect(first.stdout).toMatch(header);
    for (const h of heuristics) expect(first.stdout).toMatch(new RegExp(`^${h}\\s+\\d+ \\(\\d+ ± \\d+\\)\\s+\\d+ \\(\\d+ ± \\d+\\)$`, 'm'));
    expect(first.stdout).toMatch(/^lower bound\s+\d+\s+\d+$/m);
    expect(first.stdout).toMatch(/has the shortest median makespan/);
    expect(first.stdout).toMatch(/Compared with the paper \(Berman et al. 1999, §8\): The outcome (matches|agrees)/);
    expect(first.stdout).toContain(`${runs} runs: ${runs} simulated, 0 from the cache, 0 failed`);
  });

  it('writes report.html, the results and the specification, and leaves no temporary file', () => {
    const files = readdirSync(outDir).sort();
    expect(files).toEqual(['report.html', 'results.csv', 'results.json', 'runs', 'study.json']);
    const html = readFileSync(join(outDir, 'report.html'), 'utf8');
    expect(html).not.toMatch(/https?:|<script|\bsrc=/i);
    expect((html.match(/<g class="series" data-series=/g) ?? []).length).toBe(heuristics.length);
    // The sentence printed is the sentence in the report.
    const winner = /^- (At the largest shared file size .*)$/m.exec(first.stdout)?.[1];
    expect(winner).toBeDefined();
    expect(html).toContain(winner!.replace(/&/g, '&amp;'));
    const csvRows = readFileSync(join(outDir, 'results.csv'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
    expect(csvRows).toHaveLength(runs + 1);
    const spec = JSON.parse(readFileSync(join(outDir, 'study.json'), 'utf8')) as { applications: { mcell: { generator: string } } };
    expect(spec.applications.mcell.generator).toBe('fig11');
  });

  it('runs again entirely from the cache, with the same table', () => {
    const again = demo('--quick');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${runs} runs: 0 simulated, ${runs} from the cache`);
    const table = (s: string): string => s.slice(0, s.indexOf('\n\n'));
    expect(table(again.stdout)).toBe(table(first.stdout));
  });

  it('bad options exit 2 with the usage and write nothing', () => {
    for (const args of [['--seeds', '0'], ['--sizes', '100,abc'], ['--jobs', 'x'], ['extra']]) {
      const r = demo(...args, '--out', 'bad');
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/Usage: gridsweep demo/);
    }
    expect(existsSync(join(work, 'bad'))).toBe(false);
  });

  it('the report renders in headless Chromium without a single network request', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const url = pathToFileURL(join(outDir, 'report.html')).href;
      const requests: string[] = [];
      await page.route('**/*', (route) => {
        if (route.request().url() === url) return route.continue();
        requests.push(route.request().url());
        return route.abort();
      });
      await page.goto(url);
      expect(requests).toEqual([]);
      expect(await page.locator('svg').count()).toBe(2);
      const box = await page.locator('#line-chart svg').boundingBox();
      expect(box?.width).toBeGreaterThan(400);
      expect(await page.locator('#line-chart g.series:not(.reference)').count()).toBe(heuristics.length);
      expect((await page.locator('#box-plot g.box rect').first().boundingBox())?.height).toBeGreaterThan(0);
      expect(await page.locator('ul.findings li').count()).toBeGreaterThanOrEqual(5);
    } finally {
      await browser.close();
    }
  });
});
