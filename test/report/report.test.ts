import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { formatRunRecord } from '../../src/record/record-reader.js';
import { RunState } from '../../src/report/run-state.js';
import { renderGanttSvg } from '../../src/report/gantt-svg.js';
import { buildChromeTrace } from '../../src/report/chrome-trace.js';
import { writeReport } from '../../src/report/write-report.js';
import { countSubtasks, syntheticRun } from '../fixtures/records/synthetic-run.js';
import { launchChromium } from '../dashboard/chromium.js';

const run = promisify(execFile);
const events = syntheticRun({ seed: 5, works: 200 });
const counts = countSubtasks(events);
const dir = mkdtempSync(join(tmpdir(), 'gs-report-'));
const recordPath = join(dir, 'run.jsonl');
writeFileSync(recordPath, formatRunRecord(events));

function count(text: string, re: RegExp): number {
  return (text.match(re) ?? []).length;
}

describe('SVG Gantt chart', () => {
  const svg = renderGanttSvg(RunState.from(events));

  it('draws one bar per sub-task, coloured by kind', () => {
    expect(count(svg, /<rect class="bar /g)).toBe(counts.all);
    expect(count(svg, /<rect class="bar input/g)).toBe(counts.input);
    expect(count(svg, /<rect class="bar compute/g)).toBe(counts.compute);
    expect(count(svg, /<rect class="bar output/g)).toBe(counts.output);
  });

  it('has one row per link and host, grouped by cluster, and marks failures and re-executions', () => {
    expect(count(svg, /<g class="cluster"/g)).toBe(3);
    expect(count(svg, /<g class="row link"/g)).toBe(3);
    expect(count(svg, /<g class="row host"/g)).toBe(12);
    expect(count(svg, /class="bar [a-z]+ failed/g)).toBe(counts.failed);
    expect(count(svg, /class="fail-mark"/g)).toBe(counts.failed);
    expect(count(svg, / retry/g)).toBeGreaterThan(0);
    expect(count(svg, /<rect class="down"/g)).toBe(1);
  });

  it('puts each bar in the row of its resource', () => {
    const rows = svg.split('<g class="row ').slice(1);
    const host = rows.find((r) => r.includes('data-resource="c0-h0"'))!;
    const expected = events.filter((e) => e.type === 'start' && e.resource.type === 'host' && e.resource.host === 'c0-h0').length;
    expect(count(host, /<rect class="bar /g)).toBe(expected);
  });
});

describe('Chrome trace', () => {
  const trace = buildChromeTrace(RunState.from(events), events);
  const json = JSON.parse(JSON.stringify(trace)) as { traceEvents: { ph: string; pid: number; tid?: number; ts?: number; dur?: number; name: string; args?: { name?: string } }[] };

  it('has one complete event per sub-task, in microseconds', () => {
    const complete = json.traceEvents.filter((e) => e.ph === 'X');
    expect(complete).toHaveLength(counts.all);
    const firstCompute = events.find((e) => e.type === 'start' && e.kind === 'compute')!;
    const ev = complete.find((e) => e.name === `compute work ${(firstCompute as { work: number }).work}`)!;
    expect(ev.ts).toBeCloseTo(firstCompute.t * 1e6, 3);
    for (const e of complete) {
      expect(Number.isFinite(e.ts) && Number.isFinite(e.dur) && e.dur! >= 0).toBe(true);
    }
  });

  it('names one process per cluster and one thread per resource', () => {
    const procs = json.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name');
    const threads = json.traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name');
    expect(procs.map((p) => p.args!.name)).toEqual(['cluster c0', 'cluster c1', 'cluster c2']);
    expect(threads).toHaveLength(15);
    const pids = new Set(procs.map((p) => p.pid));
    for (const e of json.traceEvents.filter((x) => x.ph === 'X')) {
      expect(pids.has(e.pid)).toBe(true);
      expect(threads.some((t) => t.pid === e.pid && t.tid === e.tid)).toBe(true);
    }
  });

  it('marks failures as instant events on the host thread', () => {
    const failed = events.filter((e) => e.type === 'work-failed').length;
    expect(json.traceEvents.filter((e) => e.ph === 'i' && e.name.includes('failed'))).toHaveLength(failed);
  });
});

describe('gridsweep report (CLI)', () => {
  const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'report', ...args], { encoding: 'utf8' });

  it('writes a self-contained HTML report and a Chrome trace', async () => {
    const html = join(dir, 'report.html');
    const traceOut = join(dir, 'trace.json');
    const r1 = await cli(recordPath, '-o', html);
    expect(r1.stdout).toContain(`HTML report of ${counts.all} sub-tasks`);
    const text = readFileSync(html, 'utf8');
    expect(text).not.toMatch(/<script|<link |https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(text).toContain('gridsweep run: min-completion');
    await cli(recordPath, '--format', 'chrome', '-o', traceOut);
    const trace = JSON.parse(readFileSync(traceOut, 'utf8')) as { traceEvents: { ph: string }[] };
    expect(trace.traceEvents.filter((e) => e.ph === 'X')).toHaveLength(counts.all);
  });

  it('fails with file:line and writes nothing for a malformed record', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, formatRunRecord(events.slice(0, 20)) + '{"type":"end","t":1e9,"id":99999,"ok":true}\nnot json\n');
    const out = join(dir, 'bad.html');
    const err = await cli(bad, '-o', out).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr).toContain(`${bad}:21:1: error: 'end' of sub-task 99999, which is not running`);
    expect(err?.stderr).toMatch(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:22:\\d+: error: not a valid JSON line`));
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('HTML report in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders every bar with no network request', async () => {
    const out = join(dir, 'browser.html');
    await writeReport(recordPath, out, 'html');
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${out}`);
    expect(await page.locator('svg.gantt rect.bar').count()).toBe(counts.all);
    expect(await page.locator('svg.gantt rect.bar.compute').count()).toBe(counts.compute);
    const fill = await page.locator('svg.gantt rect.bar.compute').first().evaluate((el) => getComputedStyle(el).fill);
    expect(fill).toBe('rgb(89, 161, 79)');
    expect(await page.locator('table.resources tr').count()).toBe(1 + 15);
    expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
    await page.close();
  });
});
