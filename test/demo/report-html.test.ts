// The study report is one self-contained page: no network reference of any kind, the two SVG charts
// inline (one line per heuristic, one box per heuristic at the largest size), the findings in words.
import { describe, expect, it } from 'vitest';
import { studyFindings } from '../../src/demo/narrative.js';
import { inlineSvg, renderStudyReport } from '../../src/demo/report-html.js';
import { fig11Setting } from '../../src/demo/setting.js';
import { summarizeStudy } from '../../src/demo/summary.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { fabricatedResults, fabricatedRows, HEURISTIC_CODES, MINMIN_WINS, PAPER_LIKE, study } from './fabricated.js';

function render(large: Record<string, number>): string {
  const rows = fabricatedRows(study(large), () => 3400);
  const results = fabricatedResults(rows);
  const summary = summarizeStudy(rows, HEURISTIC_CODES);
  return renderStudyReport({
    results,
    summary,
    findings: studyFindings(summary),
    heuristics: HEURISTIC_CODES,
    schedulerOptions: { planIntervalS: DEFAULT_SCHEDULER_OPTIONS.planIntervalS },
    setting: fig11Setting([100, 9600], [1999, 2000, 2001]),
    bounds: new Map([[9600, { cpuBoundS: 3400, linkBoundS: 2960, taskBoundS: 367 }]]),
    run: { simulated: 66, cached: 0, failed: 0, elapsedMs: 1234, jobs: 2, command: 'gridsweep experiment out/study.json --out out' },
  });
}

const count = (s: string, re: RegExp): number => (s.match(re) ?? []).length;

/** The markup of the element with this id (charts are wrapped in <div class="chart" id=...>). */
function section(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  expect(start).toBeGreaterThan(0);
  return html.slice(start, html.indexOf('</div>', start));
}

describe('the HTML study report', () => {
  const html = render(PAPER_LIKE);

  it('is self-contained: no URL, no script, no external resource', () => {
    expect(html).not.toMatch(/https?:/i);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|\bhref=|url\(|@import/i);
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain("Content-Security-Policy\" content=\"default-src 'none'");
    expect(html).toContain('<style>');
  });

  it('holds the line chart with one line per heuristic plus the lower bound', () => {
    const chart = section(html, 'line-chart');
    expect(chart).toMatch(/^id="line-chart">\s*<svg /);
    const series = [...chart.matchAll(/<g class="series" data-series="([^"]+)"/g)].map((m) => m[1]);
    expect(series).toEqual(HEURISTIC_CODES.map((h) => h.name));
    expect(count(chart, /<g class="series reference" data-series="lower bound"/g)).toBe(1);
    expect(count(chart, /<path /g)).toBe(HEURISTIC_CODES.length + 1);
  });

  it('holds the box plot across seeds at the largest size only, one box per heuristic', () => {
    const chart = section(html, 'box-plot');
    expect(count(chart, /<g class="box" /g)).toBe(HEURISTIC_CODES.length);
    expect(count(chart, /data-group="9600"/g)).toBe(HEURISTIC_CODES.length);
    expect(chart).not.toContain('data-group="100"');
    expect(chart).toContain('(3 values)');
  });

  it('carries the findings, the paper comparison, the table, the bound and the provenance', () => {
    expect(html).toContain('extended-sufferage (H4) has the shortest median makespan (5,000 s)');
    expect(count(html, /<span class="agree">agrees<\/span>/g)).toBe(5);
    expect(html).toContain('<td class="num best">5,000</td>');
    expect(html).toMatch(/<tr class="bound"><td>lower bound<\/td><td class="num">3,400<\/td>/);
    expect(html).toContain('<td>2,960 s</td>'.replace('<td>', '<td class="num">'));
    expect(html).toContain('0.0.0-test');
    expect(html).toContain('a'.repeat(64));
    expect(html).toContain('1999, 2000, 2001');
    expect(html).toContain('4 host(s) at 100 % availability');
    expect(html).toContain('U[90, 110] s');
    expect(html).toContain('gridsweep experiment out/study.json --out out');
  });

  it('changes with the results: another winner, another text, "differs" marked', () => {
    const other = render(MINMIN_WINS);
    expect(other).toContain('minmin (H1) has the shortest median makespan (4,000 s)');
    expect(other).not.toContain('extended-sufferage (H4) has the shortest');
    expect(count(other, /<span class="differ">differs<\/span>/g)).toBe(3);
    expect(other).toContain('<td class="num best">4,000</td>');
  });

  it('escapes what it prints', () => {
    const rows = fabricatedRows({ '<b>x</b>': { 100: [10], 9600: [20] } }, () => 5);
    const summary = summarizeStudy(rows, []);
    const page = renderStudyReport({
      results: fabricatedResults(rows),
      summary,
      findings: studyFindings(summary),
      heuristics: [],
      schedulerOptions: {},
      setting: [],
      run: { simulated: 2, cached: 0, failed: 0, elapsedMs: 1, jobs: 1, command: 'x' },
    });
    expect(page).not.toContain('<b>x</b>');
    expect(page).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  it('inlines an SVG document without its XML declaration and namespace', () => {
    expect(inlineSvg('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="1"><g/></svg>\n')).toBe('<svg width="1"><g/></svg>');
  });
});
