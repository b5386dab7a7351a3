// The demo's study report: one self-contained HTML page (inline CSS and SVG, no script, no network, not
// even the SVG namespace URL) with what the run shows in words, the comparison with the paper, the median
// table, the line chart, the box plot at the largest size, the lower bound per size, the parameters and
// the provenance header (gridsweep version, input hashes, seeds).
import type { ResultsHeader } from '../experiment/results.js';
import { makespanBoxPlot, makespanLineChart, type LoadedResults } from '../experiment/results-plots.js';
import { escapeHtml } from '../report/format.js';
import type { StudyFindings } from './narrative.js';
import { BEHIND_FRACTION, formatPercent, formatSeconds, formatSize, labelOf, LEADING_FRACTION, SAME_FRACTION } from './narrative.js';
import type { StudySummary } from './summary.js';

/** Lower bound components for one size (the largest across seeds), from the stored run results. */
export interface BoundBreakdown {
  readonly cpuBoundS: number;
  readonly linkBoundS: number;
  readonly taskBoundS: number;
}

export interface StudyReportInput {
  readonly results: LoadedResults;
  readonly summary: StudySummary;
  readonly findings: StudyFindings;
  readonly heuristics: ReadonlyArray<{ readonly name: string; readonly code: string; readonly help: string }>;
  /** Scheduler options every run used (besides the heuristic). */
  readonly schedulerOptions: Readonly<Record<string, unknown>>;
  /** What the application and grid are, one line each. */
  readonly setting: ReadonlyArray<readonly [string, string]>;
  readonly bounds?: ReadonlyMap<number, BoundBreakdown>;
  readonly run: { readonly simulated: number; readonly cached: number; readonly failed: number; readonly elapsedMs: number; readonly jobs: number; readonly command: string };
}

const CSS = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 1100px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.best { font-weight: bold; background: #eaf4ea; }
tr.bound td { color: #555; font-style: italic; }
.chart { overflow-x: auto; margin: 0.8em 0; }
.agree { color: #1a7f37; font-weight: bold; } .differ { color: #b42318; font-weight: bold; } .unknown { color: #777; }
.findings li { margin: 0.35em 0; }
code { font-size: 0.9em; }
.muted { color: #666; }
`;

const e = escapeHtml;

/** An SVG document as inline markup: no XML declaration and no namespace (HTML does not need it). */
export function inlineSvg(svgDocument: string): string {
  return svgDocument.replace(/^<\?xml[^?]*\?>\s*/, '').replace(/ xmlns="[^"]*"/, '').trim();
}

function table(headers: readonly string[], rows: readonly (readonly string[])[], numericFrom: number, rowClasses: readonly string[] = []): string {
  const head = `<tr>${headers.map((h, i) => `<th${i >= numericFrom ? ' class="num"' : ''}>${e(h)}</th>`).join('')}</tr>`;
  const body = rows.map((r, ri) => `<tr${rowClasses[ri] ? ` class="${rowClasses[ri]}"` : ''}>${r.map((c, i) => `<td${i >= numericFrom ? ' class="num"' : ''}>${c}</td>`).join('')}</tr>`);
  const withHead = headers.some((x) => x !== '') ? [head] : [];
  return `<table>\n${[...withHead, ...body].join('\n')}\n</table>`;
}

function medianTable(s: StudySummary): string {
  const bestAt = (kb: number): number => Math.min(...s.heuristics.map((h) => s.medianS(h.name, kb)).filter(Number.isFinite));
  const cell = (x: number, best: boolean): string => `<td class="num${best ? ' best' : ''}">${Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–'}</td>`;
  const head = `<tr><th>heuristic</th>${s.sizesKB.map((kb) => `<th class="num">${e(formatSize(kb))}</th>`).join('')}</tr>`;
  const rows = s.heuristics.map((h) => `<tr><td>${e(labelOf(h))}</td>${s.sizesKB.map((kb) => cell(s.medianS(h.name, kb), s.medianS(h.name, kb) === bestAt(kb))).join('')}</tr>`);
  rows.push(`<tr class="bound"><td>lower bound</td>${s.sizesKB.map((kb) => cell(s.lowerBoundS(kb), false)).join('')}</tr>`);
  return `<table class="medians">\n${head}\n${rows.join('\n')}\n</table>\n<p class="muted">Bold: the best median at that size.</p>`;
}

function boundTable(s: StudySummary, bounds: ReadonlyMap<number, BoundBreakdown> | undefined): string {
  const rows = s.sizesKB.map((kb) => {
    const lb = s.lowerBoundS(kb);
    const best = Math.min(...s.heuristics.map((h) => s.medianS(h.name, kb)).filter(Number.isFinite));
    const b = bounds?.get(kb);
    return [
      formatSize(kb),
      formatSeconds(lb),
      b ? formatSeconds(b.cpuBoundS) : '–',
      b ? formatSeconds(b.linkBoundS) : '–',
      formatSeconds(best),
      `+${formatPercent(best / lb - 1)}`,
    ];
  });
  return table(['shared file size', 'lower bound', 'computation bound', 'link bound', 'best median', 'best vs bound'], rows, 1);
}

export function renderStudyReport(input: StudyReportInput): string {
  const { results, summary: s, findings: f } = input;
  const h: ResultsHeader = results.header;
  const largest = f.atSizeKB;
  const lineSvg = makespanLineChart(results, { title: `Median makespan over ${s.seeds.length} seed(s) against the shared file size` });
  const boxSvg = makespanBoxPlot(
    { header: h, rows: results.rows.filter((r) => Number(r.sweep) === largest) },
    { title: `Makespan across ${s.seeds.length} seed(s) at ${formatSize(largest)}` },
  );
  const title = 'gridsweep demo: the Figure 11 study';
  const paperRows = f.paper.map((c) => [
    e(c.claim),
    c.agrees === null ? '<span class="unknown">not checked</span>' : c.agrees ? '<span class="agree">agrees</span>' : '<span class="differ">differs</span>',
    e(c.detail),
  ]);
  const heuristicRows = input.heuristics.map((x) => [`<code>${e(x.code)}</code>`, `<code>${e(x.name)}</code>`, e(x.help)]);
  const inputRows = h.inputs.map((i) => [e(i.kind), e(i.name), i.sweep === null ? '' : e(String(i.sweep)), i.seed === null ? '' : String(i.seed), `<code>${e(i.sha256)}</code>`]);
  const optionRows = Object.entries(input.schedulerOptions).map(([k, v]) => [`<code>${e(k)}</code>`, `<code>${e(JSON.stringify(v))}</code>`]);
  const runs = results.rows.length;

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${e(title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${e(title)}</h1>
<p>${runs} simulations: ${s.heuristics.length} heuristics × ${s.sizesKB.length} shared file sizes (${e(s.sizesKB.map(formatSize).join(', '))}) × ${s.seeds.length} seeds (${e(s.seeds.join(', '))}), in the setting of Figure 11 of the simulator paper (Berman et al. 1999, §8). Makespans are medians across seeds.</p>

<h2>What this run shows</h2>
<ul class="findings">
${f.sentences.map((x) => `<li>${e(x)}</li>`).join('\n')}
</ul>

<h2>Compared with the paper</h2>
<p><strong>${e(f.paperVerdict)}</strong></p>
${table(['the paper reports', 'this run', `numbers (at ${formatSize(largest)} unless said)`], paperRows, 3)}
<p class="muted">Thresholds: within ${formatPercent(SAME_FRACTION)} is "the same", within ${formatPercent(LEADING_FRACTION)} of the best median is "among the best", more than ${formatPercent(BEHIND_FRACTION)} above it is "clearly behind".</p>

<h2>Median makespan (s)</h2>
${medianTable(s)}

<h2>Makespan against the shared file size</h2>
<div class="chart" id="line-chart">
${inlineSvg(lineSvg)}
</div>

<h2>Spread across seeds at ${e(formatSize(largest))}</h2>
<div class="chart" id="box-plot">
${inlineSvg(boxSvg)}
</div>

<h2>Lower bound</h2>
<p>No schedule can beat the larger of: the total work divided by the total host capacity (computation bound), all distinct input and output bytes divided by the total link bandwidth (link bound), and the longest task on its best host; each is the largest across the seeds. It ignores that every cluster must receive the shared files it uses over its own link, so it is loose when the shared files are large.</p>
${boundTable(s, input.bounds)}

<h2>Parameters</h2>
${table(['', ''], input.setting.map(([k, v]) => [e(k), e(v)]), 2)}
<h3>Heuristics</h3>
${table(['code', 'name', 'what it does'], heuristicRows, 3)}
<h3>Scheduler options (the same for every run)</h3>
${table(['option', 'value'], optionRows, 2)}

<h2>Provenance</h2>
${table(
  ['', ''],
  [
    ['gridsweep version', e(h.gridsweepVersion)],
    ['experiment', `${e(h.experiment)} (<code>${e(h.spec.path)}</code>, sha256 <code>${e(h.spec.sha256)}</code>)`],
    ['seeds', e(h.seeds.join(', '))],
    ['runs', `${runs} (${input.run.simulated} simulated, ${input.run.cached} from the cache, ${input.run.failed} failed) on ${input.run.jobs} worker thread(s) in ${(input.run.elapsedMs / 1000).toFixed(1)} s`],
    ['reproduce', `<code>${e(input.run.command)}</code>`],
  ],
  2,
)}
<details><summary>Input hashes (${h.inputs.length})</summary>
${table(['kind', 'name', h.sweepVariable ?? 'sweep', 'seed', 'SHA-256 of the content'], inputRows, 5)}
</details>
</body>
</html>
`;
}
