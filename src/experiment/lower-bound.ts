// A lower bound on the makespan of one application on one grid, from REAL run times and sizes:
//   cpu   = Σ_tasks (fastest run time over the architectures present) / Σ_hosts (mean availability),
//           since no schedule can deliver more than Σ availability work-seconds per second;
//   link  = (Σ distinct input file sizes + Σ output sizes) / Σ_clusters (mean bandwidth), since every
//           input must cross at least one link once and every output must come back over one;
//   task  = the longest task on the best host for it (one task runs on one host);
//   startup = cpu, counting that a cluster's hosts cannot compute before some task's inputs have reached
//           the cluster (each file pays the link's latency, then its bytes at the link's peak bandwidth,
//           one file at a time), nor after the last moment an output could still get back to the origin.
//           With d_c that earliest start and o_c that shortest return on cluster c, the work done by T
//           is at most Σ_c capacity_c × max(0, T − d_c − o_c); the bound is the T where that reaches the
//           work (the clusters that start first fill in first). It binds where inputs are large and links
//           slow: in Figure 11 at 9,600 KB every cluster waits ~960 s for its first shared file.
// The bound is max(cpu, link, task, startup); `binding` names the one that gives it. Means are over each
// behaviour's circular series, and every host or cluster the grid ever adds counts as present all the
// time; both only make the bound lower (looser), except that a mean is exact only over whole cycles of a
// time-varying series.
import type { Application } from '../model/application.js';
import type { GridDescription } from '../model/grid.js';

export interface MakespanBound {
  readonly lowerBoundS: number;
  readonly cpuBoundS: number;
  readonly linkBoundS: number;
  readonly taskBoundS: number;
  readonly startupBoundS: number;
  /** Which of the four gives lowerBoundS (the first in this order on a tie). */
  readonly binding: 'cpu' | 'link' | 'task' | 'startup';
}

interface ClusterLink {
  readonly meanBandwidthBps: number;
  readonly peakBandwidthBps: number;
  readonly latencyS: number;
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);

export function makespanLowerBound(app: Application, grid: GridDescription): MakespanBound {
  const hosts = new Map<string, { arch: number; cluster: string; meanAvail: number; peakAvail: number }>();
  const clusters = new Map<string, ClusterLink>();
  for (const e of grid.events) {
    if (e.kind === 'ADD_HOST' && !hosts.has(e.host)) {
      const series = grid.hostBehaviors.get(e.behavior)?.availabilityPct ?? [];
      hosts.set(e.host, { arch: e.arch, cluster: e.cluster, meanAvail: mean(series) / 100, peakAvail: Math.max(0, ...series) / 100 });
    }
    if (e.kind === 'ADD_BATCH_CLUSTER') {
      // Every core of a batch cluster counts as a host present all the time (pilots get no more).
      const series = grid.hostBehaviors.get(e.hostBehavior)?.availabilityPct ?? [];
      for (let k = 0; k < e.nodes * e.coresPerNode; k++) hosts.set(`${e.cluster}\u0000${k}`, { arch: e.arch, cluster: e.cluster, meanAvail: mean(series) / 100, peakAvail: Math.max(0, ...series) / 100 });
    }
    if ((e.kind === 'ADD_CLUSTER' || e.kind === 'ADD_BATCH_CLUSTER') && !clusters.has(e.cluster)) {
      const samples = grid.linkBehaviors.get(e.behavior)?.samples ?? [];
      clusters.set(e.cluster, {
        meanBandwidthBps: mean(samples.map((s) => s.bandwidthBps)),
        peakBandwidthBps: Math.max(0, ...samples.map((s) => s.bandwidthBps)),
        latencyS: Math.min(...samples.map((s) => s.latencyMs)) / 1000,
      });
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
  const bandwidth = [...clusters.values()].reduce((s, c) => s + c.meanBandwidthBps, 0);
  const linkBoundS = bytes === 0 ? 0 : bandwidth > 0 ? bytes / bandwidth : Infinity;
  const startupBoundS = app.works.length === 0 ? 0 : startupBound(app, hosts, clusters, workS);
  const bounds = { cpu: cpuBoundS, link: linkBoundS, task: taskBoundS, startup: startupBoundS } as const;
  const lowerBoundS = Math.max(cpuBoundS, linkBoundS, taskBoundS, startupBoundS);
  const binding = (Object.keys(bounds) as Array<keyof typeof bounds>).find((k) => bounds[k] === lowerBoundS)!;
  return { lowerBoundS, cpuBoundS, linkBoundS, taskBoundS, startupBoundS, binding };
}

/** The smallest time a set of files takes over a link: one latency per file, the bytes at peak bandwidth. */
function transferS(app: Application, files: readonly number[], link: ClusterLink): number {
  if (files.length === 0) return 0;
  let bytes = 0;
  for (const f of files) bytes += app.files[f]?.sizeBytes ?? 0;
  return files.length * (Number.isFinite(link.latencyS) ? link.latencyS : 0) + (bytes === 0 ? 0 : bytes / link.peakBandwidthBps);
}

function startupBound(app: Application, hosts: ReadonlyMap<string, { cluster: string; meanAvail: number }>, clusters: ReadonlyMap<string, ClusterLink>, workS: number): number {
  const windows: Array<{ capacity: number; lostS: number }> = [];
  for (const [id, link] of clusters) {
    let capacity = 0;
    for (const h of hosts.values()) if (h.cluster === id) capacity += h.meanAvail;
    if (capacity <= 0) continue;
    let firstInS = Infinity;
    let lastOutS = Infinity;
    for (const w of app.works) {
      firstInS = Math.min(firstInS, transferS(app, w.inputs, link));
      lastOutS = Math.min(lastOutS, transferS(app, w.outputs, link));
    }
    windows.push({ capacity, lostS: firstInS + lastOutS });
  }
  if (windows.length === 0) return Infinity;
  // Water-filling: clusters join in order of their lost time; T solves Σ capacity × (T − lost) = work.
  windows.sort((a, b) => a.lostS - b.lostS);
  let capacity = 0;
  let weighted = 0;
  for (let k = 0; k < windows.length; k++) {
    capacity += windows[k]!.capacity;
    weighted += windows[k]!.capacity * windows[k]!.lostS;
    const t = (workS + weighted) / capacity;
    if (k + 1 === windows.length || t <= windows[k + 1]!.lostS) return t;
  }
  return Infinity;
}
