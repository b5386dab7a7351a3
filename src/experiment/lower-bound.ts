// A lower bound on the makespan of one application on one grid, from REAL run times and sizes:
//   cpu   = Σ_tasks (fastest run time over the architectures present) / Σ_hosts (mean availability),
//           since no schedule can deliver more than Σ availability work-seconds per second;
//   link  = (Σ distinct input file sizes + Σ output sizes) / Σ_clusters (mean bandwidth), since every
//           input must cross at least one link once and every output must come back over one;
//   task  = the longest task on the best host for it (one task runs on one host).
// The bound is max(cpu, link, task). Means are over each behaviour's circular series, and every host or
// cluster the grid ever adds counts as present all the time; both only make the bound lower (looser),
// except that a mean is exact only over whole cycles of a time-varying series.
import type { Application } from '../model/application.js';
import type { GridDescription } from '../model/grid.js';

export interface MakespanBound {
  readonly lowerBoundS: number;
  readonly cpuBoundS: number;
  readonly linkBoundS: number;
  readonly taskBoundS: number;
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);

export function makespanLowerBound(app: Application, grid: GridDescription): MakespanBound {
  const hosts = new Map<string, { arch: number; meanAvail: number; peakAvail: number }>();
  const clusters = new Map<string, number>();
  for (const e of grid.events) {
    if (e.kind === 'ADD_HOST' && !hosts.has(e.host)) {
      const series = grid.hostBehaviors.get(e.behavior)?.availabilityPct ?? [];
      hosts.set(e.host, { arch: e.arch, meanAvail: mean(series) / 100, peakAvail: Math.max(0, ...series) / 100 });
    }
    if (e.kind === 'ADD_CLUSTER' && !clusters.has(e.cluster)) {
      clusters.set(e.cluster, mean((grid.linkBehaviors.get(e.behavior)?.samples ?? []).map((s) => s.bandwidthBps)));
    }
  }
  const archs = [...new Set([...hosts.values()].map((h) => h.arch))];
  const capacity = [...hosts.values()].reduce((s, h) => s + h.meanAvail, 0);
  let workS = 0;
  let taskBoundS = 0;
  for (const w of app.works) {
    const fastest = Math.min(...archs.map((a) => w.runTimeS[a] ?? Infinity));
    workS += fastest;
    let best = Infinity;
    for (const h of hosts.values()) if (h.peakAvail > 0) best = Math.min(best, (w.runTimeS[h.arch] ?? Infinity) / h.peakAvail);
    taskBoundS = Math.max(taskBoundS, best);
  }
  const cpuBoundS = app.works.length === 0 ? 0 : capacity > 0 ? workS / capacity : Infinity;

  const inputs = new Set<number>();
  let bytes = 0;
  for (const w of app.works) {
    for (const f of w.inputs) inputs.add(f);
    for (const f of w.outputs) bytes += app.files[f]?.sizeBytes ?? 0;
  }
  for (const f of inputs) bytes += app.files[f]?.sizeBytes ?? 0;
  const bandwidth = [...clusters.values()].reduce((s, b) => s + b, 0);
  const linkBoundS = bytes === 0 ? 0 : bandwidth > 0 ? bytes / bandwidth : Infinity;
  return { lowerBoundS: Math.max(cpuBoundS, linkBoundS, taskBoundS), cpuBoundS, linkBoundS, taskBoundS };
}
