// The report of time-shared runs (`gridsweep report A.json B.json ... -o OUT`): the JSON objects that
// `gridsweep trace --timeshare S --json` prints, one per file, side by side — the execution profile of
// every run as a stacked bar (compute, spin, context switch, interrupt, idle; the form of Zhang and
// Sivasubramaniam 2004, Figure 9), and a table of their metrics. Several files rather than one run of
// several strategies: each trace stays one command, and any runs can be compared (strategies, MPLs,
// slices). OUT ending in .svg gets the chart alone; otherwise a self-contained HTML page.
import { basename } from 'node:path';
import { stackedBarChart } from '../plot/stacked-bar.js';
import { parseJsonSource, readJsonText } from '../sweep/json-source.js';
import { InputError, type Diagnostic } from '../util/diagnostics.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { escapeHtml } from './format.js';

/** The parts of the execution profile, bottom to top, and the JSON field of each. */
const PARTS = [
  ['compute', 'computeS'],
  ['spin', 'spinS'],
  ['context switch', 'switchS'],
  ['interrupt', 'interruptS'],
  ['idle', 'idleS'],
] as const;

export interface TimeshareRunResult {
  readonly file: string;
  readonly workload: string;
  readonly cpus: number;
  readonly strategy: string;
  readonly parameters: Readonly<Record<string, number | string>>;
  readonly metrics: {
    readonly jobs: number;
    readonly makespanS: number;
    readonly meanResponseS: number;
    readonly meanExecutionS: number;
    readonly profile: Readonly<Record<(typeof PARTS)[number][1], number>>;
    readonly lossOfCpu: number;
    readonly schedulingSkewnessS: number;
    readonly pace: { readonly mean: number; readonly cv: number };
    readonly responseCv: number;
    readonly classMeanResponseS: Readonly<Record<string, number>>;
    readonly classResponseCv: number;
  };
}

/** Reads one trace --timeshare --json output; an InputError at the place of anything missing. */
export function readTimeshareResult(path: string): TimeshareRunResult {
  const source = parseJsonSource(readJsonText(path, 'a time-shared trace result'), path);
  const v = source.value as Record<string, unknown>;
  const problems: Diagnostic[] = [];
  const need = (pointer: string, ok: (x: unknown) => boolean, expected: string): void => {
    const x = pointer.split('/').slice(1).reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);
    if (!ok(x)) problems.push({ severity: 'error', pos: source.positionOf(pointer), message: `${pointer.slice(1).replace(/\//g, '.')} is ${x === undefined ? 'missing' : 'not valid'}`, expected, hint: 'give the JSON that `gridsweep trace WORKLOAD --timeshare STRATEGY --json` prints, unchanged' });
  };
  const num = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x);
  need('/timeshare/strategy', (x) => typeof x === 'string', 'the strategy name');
  for (const [, field] of PARTS) need(`/metrics/profile/${field}`, (x) => num(x) && (x as number) >= 0, 'seconds, 0 or more');
  for (const field of ['jobs', 'makespanS', 'meanResponseS', 'meanExecutionS', 'lossOfCpu', 'schedulingSkewnessS', 'responseCv', 'classResponseCv']) need(`/metrics/${field}`, num, 'a number');
  need('/metrics/pace/mean', num, 'a number');
  need('/metrics/pace/cv', num, 'a number');
  need('/metrics/classMeanResponseS', (x) => x !== null && typeof x === 'object', 'an object');
  if (problems.length > 0) throw new InputError(problems);
  const ts = v['timeshare'] as { strategy: string; parameters?: Record<string, number | string> };
  return { file: path, workload: String(v['workload'] ?? ''), cpus: Number(v['cpus'] ?? 0), strategy: ts.strategy, parameters: ts.parameters ?? {}, metrics: v['metrics'] as TimeshareRunResult['metrics'] };
}

/** One label per run: the strategy, with the file's name where two runs share a strategy. */
function labels(runs: readonly TimeshareRunResult[]): string[] {
  return runs.map((r) => (runs.filter((o) => o.strategy === r.strategy).length > 1 ? `${r.strategy} (${basename(r.file).replace(/\.json$/, '')})` : r.strategy));
}

export function timeshareProfileSvg(runs: readonly TimeshareRunResult[]): string {
  const names = labels(runs);
  return stackedBarChart({
    title: 'Execution profile per strategy',
    xLabel: 'strategy',
    yLabel: '% of CPU time (all CPUs × makespan)',
    parts: PARTS.map(([p]) => p),
    bars: runs.map((r, i) => ({ label: names[i]!, values: PARTS.map(([, f]) => r.metrics.profile[f]) })),
    unit: ' CPU-s',
  });
}

const CSS = `
body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
`;

const fix = (x: number, d = 3): string => x.toLocaleString('en-US', { maximumFractionDigits: d });
const pct = (x: number): string => `${fix(x * 100, 1)} %`;

export function renderTimeshareReport(runs: readonly TimeshareRunResult[]): string {
  const names = labels(runs);
  const e = escapeHtml;
  const row = (cells: readonly string[]): string => `<tr>${cells.map((c, i) => `<td${i > 0 ? ' class="num"' : ''}>${c}</td>`).join('')}</tr>`;
  const share = (r: TimeshareRunResult, f: (typeof PARTS)[number][1]): string => {
    const total = PARTS.reduce((a, [, k]) => a + r.metrics.profile[k], 0);
    return pct(total === 0 ? 0 : r.metrics.profile[f] / total);
  };
  const metrics = [
    `<tr><th>run</th><th>jobs</th><th>makespan (s)</th><th>mean response (s)</th><th>mean execution (s)</th>${PARTS.map(([p]) => `<th>${e(p)}</th>`).join('')}<th>loss of CPU</th><th>skewness (ms)</th><th>pace (mean, CV)</th><th>response CV</th><th>CV between classes</th></tr>`,
    ...runs.map((r, i) =>
      row([
        e(names[i]!),
        String(r.metrics.jobs),
        fix(r.metrics.makespanS),
        fix(r.metrics.meanResponseS),
        fix(r.metrics.meanExecutionS),
        ...PARTS.map(([, f]) => share(r, f)),
        pct(r.metrics.lossOfCpu),
        fix(r.metrics.schedulingSkewnessS * 1000),
        `${fix(r.metrics.pace.mean)}, ${fix(r.metrics.pace.cv)}`,
        fix(r.metrics.responseCv),
        fix(r.metrics.classResponseCv),
      ]),
    ),
  ];
  const classes = [...new Set(runs.flatMap((r) => Object.keys(r.metrics.classMeanResponseS)))].sort();
  const classTable = [`<tr><th>run</th>${classes.map((c) => `<th>${e(c)}</th>`).join('')}</tr>`, ...runs.map((r, i) => row([e(names[i]!), ...classes.map((c) => (r.metrics.classMeanResponseS[c] === undefined ? '' : fix(r.metrics.classMeanResponseS[c]!)))]))];
  const params = runs.map((r, i) => `<li><b>${e(names[i]!)}</b>: ${e(r.file)} — ${e(r.workload)} on ${r.cpus} CPUs; ${e(Object.entries(r.parameters).map(([k, v]) => `${k} ${v}`).join(', '))}</li>`);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>gridsweep: time-shared runs</title><style>${CSS}</style></head>
<body>
<h1>Time-shared runs: execution profiles</h1>
<p>Where the CPUs' time went, as a share of all CPUs × makespan: computing, spinning (busy-waiting for messages), switching context, handling interrupts, or idle (the form of Zhang and Sivasubramaniam 2004, Figure 9).</p>
<div class="chart">${timeshareProfileSvg(runs).replace(/^<\?xml[^>]*>\s*/, '')}</div>
<h2>Metrics</h2>
<table>
${metrics.join('\n')}
</table>
<h2>Mean response time per job class (s)</h2>
<table>
${classTable.join('\n')}
</table>
<h2>Runs</h2>
<ul>
${params.join('\n')}
</ul>
</body></html>
`;
}

/** Reads the results and writes the report (HTML, or the chart alone when `out` ends in .svg), atomically. */
export async function writeTimeshareReport(paths: readonly string[], out: string): Promise<{ runs: number; bytes: number }> {
  const runs = paths.map(readTimeshareResult);
  const text = out.toLowerCase().endsWith('.svg') ? timeshareProfileSvg(runs) : renderTimeshareReport(runs);
  await writeFileAtomic(out, text);
  return { runs: runs.length, bytes: Buffer.byteLength(text) };
}
