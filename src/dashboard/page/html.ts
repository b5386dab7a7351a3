// The dashboard page: HTML and CSS here, the script from client.ts and gantt-canvas.ts, all inline (the server's CSP allows
// only this page's nonce, so nothing from the network can run or load).
import { escapeHtml, formatBytes, formatPercent, tickStepS } from '../../report/format.js';
import { dashboardClient } from './client.js';
import { createGanttChart } from './gantt-canvas.js';

const CSS = `
body { font: 13px system-ui, sans-serif; margin: 0; color: #222; background: #fff; }
header { position: sticky; top: 0; z-index: 2; background: #fafafa; border-bottom: 1px solid #ddd; padding: 6px 12px; }
header h1 { font-size: 1.1em; margin: 0 0 4px 0; display: inline-block; margin-right: 1em; }
.controls { display: inline-flex; gap: 6px; align-items: center; flex-wrap: wrap; }
.controls button { padding: 2px 10px; }
#speed { width: 7em; }
#clock { font-weight: bold; font-variant-numeric: tabular-nums; min-width: 9em; display: inline-block; }
#status, #conn { color: #666; }
#conn[data-state="disconnected"] { color: #d62728; }
.legend span { margin-right: 1em; }
.legend i { display: inline-block; width: 12px; height: 9px; margin-right: 3px; vertical-align: middle; box-sizing: border-box; }
.k-input { background: #4e79a7; } .k-compute { background: #59a14f; } .k-output { background: #f28e2b; }
.k-failed { border: 2px solid #d62728; } .k-retry { border: 1px dashed #222; } .k-down { background: #aaa; }
.legend i.k-clock { background: #d62728; width: 2px; }
.k-others { background: #79706e; } .k-pilots { background: #b07aa1; }
main { padding: 8px 12px; }
section.source { border: 1px solid #ddd; border-radius: 4px; margin-bottom: 12px; padding: 6px 8px; }
section.source h2 { font-size: 1em; margin: 0 0 4px 0; }
section.source h2 .heuristic { font-weight: normal; color: #555; }
section.source h2 .live { color: #d62728; font-size: 0.8em; }
.progress { position: relative; height: 16px; background: #eee; border-radius: 3px; overflow: hidden; display: flex; }
.progress .done { background: #59a14f; height: 100%; }
.progress .failed { background: #d62728; height: 100%; }
.progress-text { position: absolute; left: 6px; top: 0; line-height: 16px; font-size: 11px; }
#matrix { margin-top: 4px; max-width: 60em; }
#matrix .cached { background: #9cc596; height: 100%; }
#matrix .running { background: #f2c14e; height: 100%; }
.stats { margin: 4px 0; color: #333; }
canvas.gantt { display: block; width: 100%; cursor: grab; }
.details { display: flex; gap: 16px; align-items: flex-start; margin-top: 4px; flex-wrap: wrap; }
table.clusters { border-collapse: collapse; }
table.clusters th, table.clusters td { border: 1px solid #ddd; padding: 1px 6px; text-align: left; }
table.clusters td.num { text-align: right; font-variant-numeric: tabular-nums; }
.hosts { display: flex; flex-wrap: wrap; gap: 3px; max-width: 60em; }
.host { border-radius: 3px; padding: 0 5px; font-size: 11px; border: 1px solid #bbb; }
.host.up { background: #fff; }
.host.busy { background: #cfe8c9; border-color: #59a14f; }
.host.failed { background: #f6c6c6; border-color: #d62728; }
.host.rejoined { background: #fff2cc; border-color: #c9a227; }
.host.left { background: #eee; color: #777; }
#parse-error { margin: 12px; padding: 10px; border: 2px solid #d62728; background: #fff5f5; white-space: pre-wrap; font: 13px ui-monospace, monospace; }
#message { margin: 6px 12px; padding: 4px 8px; background: #fff2cc; border: 1px solid #c9a227; }
`;

export function renderDashboardPage(options: { nonce: string; title: string }): string {
  const nonce = escapeHtml(options.nonce);
  const title = escapeHtml(options.title);
  const helpers = `{ formatBytes: (${formatBytes.toString()}), formatPercent: (${formatPercent.toString()}), tickStepS: (${tickStepS.toString()}) }`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<style nonce="${nonce}">${CSS}</style>
</head>
<body>
<header>
<h1 id="title">${title}</h1>
<div class="controls">
<button id="pause" type="button">Pause</button>
<button id="step" type="button" title="pause and move to the next event">Step</button>
<button id="restart" type="button" title="play again from time 0">Restart</button>
<label>speed <input id="speed" type="number" min="0" step="any" title="simulated seconds per wall second"> sim s / s</label>
<button id="zoom-in" type="button" title="zoom in (or use the mouse wheel)">+</button>
<button id="zoom-out" type="button" title="zoom out">−</button>
<button id="zoom-fit" type="button" title="show the whole run and follow it">Fit</button>
<span id="clock" data-time-s="0">t = 0 s</span>
<span id="status"></span>
<span id="conn">connecting…</span>
</div>
<div class="legend"><span><i class="k-input"></i>input</span><span><i class="k-compute"></i>compute</span><span><i class="k-output"></i>output</span><span><i class="k-failed"></i>failed ✕</span><span><i class="k-retry"></i>re-execution</span><span><i class="k-down"></i>host down</span><span><i class="k-clock"></i>clock</span><span title="a batch cluster's cores in use and queue"><i class="k-others"></i>other users' jobs</span><span><i class="k-pilots"></i>the sweep's pilots</span></div>
<div id="matrix" hidden title="the experiment's runs: simulated, from the cache, failed, running"><div class="progress"><div class="done"></div><div class="cached"></div><div class="failed"></div><div class="running"></div><span class="progress-text"></span></div></div>
</header>
<div id="message" hidden></div>
<pre id="parse-error" hidden></pre>
<main id="charts"></main>
<script nonce="${nonce}">
"use strict";
var __name = function (target) { return target; };
(${dashboardClient.toString()})(${helpers}, (${createGanttChart.toString()}));
</script>
</body>
</html>
`;
}
