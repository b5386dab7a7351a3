// The self-contained HTML report of a run: its parameters, a summary, the SVG Gantt chart and
// statistics per cluster and per resource. Inline CSS and SVG only: no script, no network.
import type { RunState } from './run-state.js';
import { GANTT_CSS, renderGanttSvg } from './gantt-svg.js';
import { escapeHtml, formatBytes, formatPercent, formatSeconds } from './format.js';
import { renderBatchSection } from './batch-section.js';

const PAGE_CSS = `
body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.legend span { display: inline-block; margin-right: 1.2em; }
.legend i { display: inline-block; width: 14px; height: 10px; margin-right: 4px; vertical-align: middle; }
.chart { overflow-x: auto; border: 1px solid #ddd; }
code { font-size: 0.9em; }
`;

function table(headers: readonly string[], rows: readonly (readonly string[])[], numericFrom = 1, cls = ''): string {
  const head = `<tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = rows.map((r) => `<tr>${r.map((c, i) => `<td${i >= numericFrom ? ' class="num"' : ''}>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table${cls ? ` class="${cls}"` : ''}>\n${head}\n${body}\n</table>`;
}

export function renderHtmlReport(state: RunState, options: { title?: string; sourceName?: string } = {}): string {
  const h = state.header;
  const endS = state.end?.makespanS ?? state.timeS;
  const summary = state.summary(endS);
  const title = options.title ?? `gridsweep run: ${h?.heuristic ?? 'unknown heuristic'}${options.sourceName ? ` (${options.sourceName})` : ''}`;
  const e = escapeHtml;

  const params: string[][] = h
    ? [
        ['gridsweep version', e(h.gridsweepVersion)],
        ['mode', e(h.mode)],
        ['heuristic', e(h.heuristic)],
        ['seed', String(h.seed)],
        ['tasks', String(h.taskCount)],
      ]
    : [];
  const inputs = h ? Object.entries(h.inputs).map(([name, v]) => [e(name), `<code>${e(v.path)}</code>`, `<code>${e(v.sha256)}</code>`]) : [];
  const optionRows = h ? Object.entries(h.options).map(([k, v]) => [e(k), `<code>${e(JSON.stringify(v))}</code>`]) : [];

  const meanPlanCpuMs = state.planCalls.length > 0 ? state.planCalls.reduce((s, p) => s + p.cpuMs, 0) / state.planCalls.length : 0;
  const summaryRows = [
    ['makespan', state.end ? formatSeconds(state.end.makespanS) : `not finished (record ends at ${formatSeconds(state.timeS)})`],
    ['works done', `${summary.done} of ${summary.total}`],
    ['works failed for good', String(summary.failed)],
    ['failed attempts', String(summary.failures)],
    ['re-executions', String(summary.reexecutions)],
    ['sub-tasks', String(state.bars.length)],
    ['do_plan() calls', `${state.planCalls.length}${state.planCalls.length > 0 ? ` (mean ${meanPlanCpuMs.toFixed(2)} ms CPU)` : ''}`],
  ];

  const clusterRows = summary.clusters.map((c) => [e(c.cluster), formatBytes(c.linkBytes), formatPercent(c.linkUtilization), formatPercent(c.computeUtilization)]);
  const resourceRows = state.resources.map((r) => {
    const busy = state.busyS(r, endS);
    const count = r.bars.length;
    const extra = r.type === 'host' ? `${state.hostState(r.host!)}, up ${formatSeconds(state.hostUpS(r.host!, endS))}` : formatBytes(r.bytesMoved);
    return [e(r.label), e(r.cluster), r.type, String(count), String(r.failedSubtasks), busy.toFixed(1), endS > 0 ? formatPercent(busy / endS) : '–', extra];
  });

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${e(title)}</title>
<style>${PAGE_CSS}${GANTT_CSS}</style>
</head>
<body>
<h1>${e(title)}</h1>
<h2>Run parameters</h2>
${table(['parameter', 'value'], params, 2)}
${inputs.length > 0 ? `<h3>Inputs</h3>\n${table(['input', 'path', 'SHA-256'], inputs, 3)}` : ''}
${optionRows.length > 0 ? `<h3>Options</h3>\n${table(['option', 'value'], optionRows, 2)}` : ''}
<h2>Summary</h2>
${table(['figure', 'value'], summaryRows, 1, 'summary')}
<h2>Gantt chart</h2>
<p class="legend"><span><i style="background:#4e79a7"></i>input transfer</span><span><i style="background:#59a14f"></i>computation</span><span><i style="background:#f28e2b"></i>output transfer</span><span><i style="border:2px solid #d62728"></i>failed (✕)</span><span><i style="border:1px dashed #222"></i>re-execution</span><span><i style="background:#bbb"></i>host down</span></p>
<div class="chart">
${renderGanttSvg(state, { endS })}
</div>
<h2>Clusters</h2>
${table(['cluster', 'bytes over link', 'link busy', 'host utilization'], clusterRows)}
${renderBatchSection(state.batch.clusters)}
<h2>Resources</h2>
${table(['resource', 'cluster', 'type', 'sub-tasks', 'failed', 'busy (s)', 'busy / makespan', 'bytes moved or host state'], resourceRows, 3, 'resources')}
</body>
</html>
`;
}
