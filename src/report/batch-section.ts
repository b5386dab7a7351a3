// The HTML report's section on batch clusters: for each, the queue length and utilization over time, and
// the wait and slowdown of the jobs that ended (other users' and the sweep's pilots), as inline SVG.
import { boxPlot, type BoxGroup } from '../plot/box-plot.js';
import { lineChart, type LinePoint } from '../plot/line-chart.js';
import type { BatchClusterJobs } from './batch-jobs.js';
import { escapeHtml } from './format.js';

/** Points drawn per curve at most: longer timelines keep every k-th change (and the last). */
const MAX_POINTS = 4000;

function inline(svg: string): string {
  return svg.replace(/^<\?xml[^>]*>\s*/, '');
}

/** A step curve through the changes, thinned to MAX_POINTS. */
function steps(timeline: BatchClusterJobs['timeline'], value: (p: BatchClusterJobs['timeline'][number]) => number): LinePoint[] {
  const every = Math.max(1, Math.ceil(timeline.length / MAX_POINTS));
  const points: LinePoint[] = [];
  let previous: number | undefined;
  timeline.forEach((p, i) => {
    if (i % every !== 0 && i !== timeline.length - 1) return;
    if (previous !== undefined) points.push({ x: p.t, y: previous });
    points.push({ x: p.t, y: value(p) });
    previous = value(p);
  });
  return points;
}

function distribution(c: BatchClusterJobs, which: 'waitS' | 'slowdown', title: string, yLabel: string): string {
  const boxes = (['background', 'pilots'] as const).filter((g) => c[which][g].length > 0).map((g) => ({ series: g === 'pilots' ? "the sweep's pilots" : "other users' jobs", values: c[which][g] }));
  if (boxes.length === 0) return '';
  const groups: BoxGroup[] = [{ label: c.cluster, boxes }];
  return inline(boxPlot({ title, xLabel: 'cluster', yLabel, groups, width: 520, height: 360 }));
}

export function renderBatchSection(clusters: readonly BatchClusterJobs[]): string {
  if (clusters.length === 0) return '';
  const parts = ['<h2>Batch clusters</h2>'];
  for (const c of clusters) {
    const ended = c.waitS.background.length + c.waitS.pilots.length;
    parts.push(`<h3>${escapeHtml(c.cluster)}: ${c.cores} cores, ${escapeHtml(c.policy)}; ${ended} job(s) ended (${c.waitS.pilots.length} of them the sweep's pilots)</h3>`);
    if (c.timeline.length > 0) {
      const chart = lineChart({
        title: `${c.cluster}: queue and cores in use`,
        xLabel: 'time (s)',
        yLabel: 'jobs waiting / % of cores in use',
        series: [
          { name: 'jobs waiting', points: steps(c.timeline, (p) => p.waiting) },
          { name: '% cores in use', points: steps(c.timeline, (p) => (100 * p.busyCores) / c.cores) },
        ],
        height: 360,
      });
      parts.push(`<div class="chart">${inline(chart)}</div>`);
    }
    parts.push(`<div class="chart">${distribution(c, 'waitS', `${c.cluster}: wait`, 'wait (s)')}${distribution(c, 'slowdown', `${c.cluster}: slowdown`, 'slowdown')}</div>`);
  }
  return parts.join('\n');
}
