// do_plan() steps (2)–(7) of seed 001 Fig. 5 / §7.4, on a snapshot of the scheduler's state: draw what cannot
// change in a new Gantt chart (running sub-tasks, outputs still to bring back, the Works kept at the head of
// each host FIFO and the files they need), let the heuristic fill it, and turn it into FIFO entries.
// It reads the state and never changes it; the Scheduler applies the result.
import type { FileId, FileSpec, WorkId, WorkSpec } from '../model/application.js';
import type { ClusterId, HostId } from '../model/grid.js';
import type { Rng } from '../util/rng.js';
import type { Estimator } from './estimates.js';
import { GanttChart, type ChartCluster, type ChartHost, type LinkEntry } from './gantt.js';
import type { Heuristic } from './heuristics/heuristic.js';
import type { ClusterState, HostState, LinkItem, RunningSubtask, WorkState } from './state.js';

/**
 * A running sub-task is trusted to end at its original estimate; once overdue it is assumed to end this
 * many seconds from now (seed 001 §5.2.1's "constant amount of time"; one default behaviour sample).
 */
export const OVERDUE_GRACE_S = 5;

export function expectedEndS(running: RunningSubtask, nowS: number): number {
  return running.estEndS > nowS ? running.estEndS : nowS + OVERDUE_GRACE_S;
}

export interface PlanInput {
  readonly nowS: number;
  readonly horizonS: number;
  readonly files: readonly FileSpec[];
  readonly works: ReadonlyMap<WorkId, WorkState>;
  /** Up hosts in host order (cluster id, then host id), FIFOs already truncated. */
  readonly hosts: readonly HostState[];
  /** Up clusters by id. */
  readonly clusters: readonly ClusterState[];
  /** The cluster of any host ever seen (outputs computed on a host that failed since are still in storage). */
  readonly clusterOfHost: (hostId: HostId) => ClusterId | undefined;
  readonly estimator: Estimator;
  readonly heuristic: Heuristic;
  readonly rng: Rng;
  readonly randomTolerance: number;
}

/** FIFO contents per resource, in order. */
export interface Fifos {
  readonly hosts: Map<HostId, WorkId[]>;
  readonly links: Map<ClusterId, LinkItem[]>;
}

export interface PlanOutput {
  readonly chart: GanttChart;
  /** The temporary FIFOs: what was kept (and must be done while the plan runs). */
  readonly kept: Fifos;
  /** What the heuristic added, to be merged behind the kept entries. */
  readonly added: Fifos;
  /** Hosts the plan left with nothing to do (chart.isIdle after the heuristic). */
  readonly idleHosts: ReadonlySet<HostId>;
  readonly consideredWorks: number;
  readonly plannedWorks: number;
}

export function makePlan(input: PlanInput): PlanOutput {
  const { nowS, works } = input;
  const clusterIndex = new Map<ClusterId, number>();
  const chartClusters: ChartCluster[] = input.clusters.map((cluster, index) => {
    clusterIndex.set(cluster.id, index);
    return { id: cluster.id, ...input.estimator.link(cluster.id) };
  });
  const hosts = input.hosts.filter((h) => clusterIndex.has(h.info.clusterId));
  const chartHosts: ChartHost[] = hosts.map((h) => ({
    id: h.info.id,
    cluster: clusterIndex.get(h.info.clusterId)!,
    arch: h.info.arch,
    availability: input.estimator.availability(h.info.id),
  }));

  // §5.6.4 usage: Works not started yet that read each file.
  const usage = new Map<FileId, number>();
  const considered: WorkSpec[] = [];
  for (const ws of works.values()) {
    if (ws.status !== 'todo' && ws.status !== 'queued') continue;
    if (ws.status === 'todo') considered.push(ws.spec);
    for (const fileId of new Set(ws.spec.inputs)) usage.set(fileId, (usage.get(fileId) ?? 0) + 1);
  }
  considered.sort((a, b) => a.id - b.id);

  const chart = new GanttChart({ nowS, horizonS: input.horizonS, clusters: chartClusters, hosts: chartHosts, files: input.files, usage });

  // Step (3): what is running, and what is already there.
  input.clusters.forEach((cluster, c) => {
    for (const fileId of cluster.stored) chart.markFile(c, fileId, nowS);
    if (cluster.busy !== null) {
      const endS = expectedEndS(cluster.busy, nowS);
      chart.holdLink(c, endS);
      if (cluster.busy.item.kind === 'input') chart.markFile(c, cluster.busy.item.fileId, endS);
    }
  });
  hosts.forEach((host, h) => {
    if (host.running === null) return;
    const endS = expectedEndS(host.running, nowS);
    chart.holdHost(h, endS, host.running.startS);
    chart.reserveOutput(works.get(host.running.workId)!.spec, chartHosts[h]!.cluster, endS);
  });
  for (const ws of works.values()) {
    if (ws.status !== 'computed' || ws.host === null) continue;
    const clusterId = input.clusterOfHost(ws.host);
    const c = clusterId === undefined ? undefined : clusterIndex.get(clusterId);
    if (c !== undefined) chart.reserveOutput(ws.spec, c, nowS);
  }
  // The Works kept at the head of each host FIFO (the truncation of §7.4 already happened).
  hosts.forEach((host, h) => {
    for (const workId of host.fifo) chart.commit(works.get(workId)!.spec, h, true);
  });

  // Steps (4)–(6).
  input.heuristic.plan({ chart, works: considered, rng: input.rng, randomTolerance: input.randomTolerance });

  // Step (7).
  const kept: Fifos = { hosts: new Map(), links: new Map() };
  const added: Fifos = { hosts: new Map(), links: new Map() };
  for (const row of chart.assignments) {
    const fifos = row.kept ? kept : added;
    const id = chartHosts[row.host]!.id;
    let list = fifos.hosts.get(id);
    if (list === undefined) fifos.hosts.set(id, (list = []));
    list.push(row.workId);
  }
  chart.linkEntries.forEach((entries, c) => {
    const sorted = [...entries].sort((a, b) => a.startS - b.startS || a.seq - b.seq);
    const id = chartClusters[c]!.id;
    kept.links.set(id, sorted.filter((e) => e.kept).map(toItem));
    added.links.set(id, sorted.filter((e) => !e.kept).map(toItem));
  });
  const idleHosts = new Set<HostId>();
  chartHosts.forEach((host, h) => {
    if (chart.isIdle(h)) idleHosts.add(host.id);
  });
  const plannedWorks = chart.assignments.filter((row) => !row.kept).length;
  return { chart, kept, added, idleHosts, consideredWorks: considered.length, plannedWorks };
}

function toItem(entry: LinkEntry): LinkItem {
  return entry.kind === 'input'
    ? { kind: 'input', fileId: entry.fileId, planS: entry.startS }
    : { kind: 'output', workId: entry.workId, planS: entry.startS };
}
