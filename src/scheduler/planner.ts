// do_plan() steps (2)–(7) of Berman et al. 1999, Fig. 5 / §7.4, on a snapshot of the scheduler's state: draw what cannot
// change in a new Gantt chart (running sub-tasks, outputs still to bring back, the Works kept at the head of
// each host FIFO and the files they need), select the Works to consider (step 4, options.taskSpace), let the
// heuristic fill the chart, and turn it into FIFO entries.
// It reads the state and never changes it; the Scheduler applies the result.
//
// Cost: a plan costs what it draws and places, not the size of the application. The usage counts, the
// todo Works in id order and the computed Works come from PendingWorks, which the scheduler keeps up to
// date (without it, they are gathered by one scan of `works`). Stored files are looked up for the Works the
// chart reads (kept and candidate Works; stored-inputs.ts): a whole storage is walked only by a plan that
// reads as many Works, times clusters, as the storages hold files; files that port (3) reports stored but
// the cluster's state did not know are returned in `foundStored`. A heuristic whose number of placements
// is known from the chart alone (PLACEMENT_BOUNDS: the work queue gives one Work to each idle host) is
// handed only that many Works, the first by id, which gives exactly the placements it would make from the
// full list. The plan record still counts every Work step (4) considered.
//
// Hosts to avoid (real runs: a Work whose program failed on a host is never placed there again): each host
// some considered Work must avoid gets an architecture index of its own in the chart, and every Work's
// estimated run time on that index is its run time on the host's real architecture, or Infinity for the
// Works that must avoid it. Estimate-based heuristics never choose an infinite completion time; a heuristic
// that ignores estimates (the work queue) may: then the plan is made again without the Works it misplaced,
// and each of them goes to the allowed, not yet full host with the smallest Compl (if any; else it waits).
import type { FileId, FileSpec, WorkId, WorkSpec } from '../model/application.js';
import type { ClusterId, HostId } from '../model/grid.js';
import type { Rng } from '../util/rng.js';
import type { Estimator } from './estimates.js';
import { GanttChart, type ChartCluster, type ChartHost, type LinkEntry } from './gantt.js';
import type { Heuristic } from './heuristics/heuristic.js';
import type { WorkIndex } from './heuristics/work-index.js';
import { PendingWorks, type ClusterState, type HostState, type LinkItem, type RunningSubtask, type WorkState } from './state.js';
import { StoredInputs } from './stored-inputs.js';
import type { HostCandidates } from './strategies/host-candidates.js';
import type { PlannedSlot } from './strategies/plan-events.js';
import { expectedEndS } from './strategies/running-estimate.js';
import { selectTaskSpace, type TaskSpace } from './strategies/task-space.js';

/** The default 'overdue' rule's constant (Berman et al. 1999, §5.2.1; one default behaviour sample). */
export const OVERDUE_GRACE_S = 5;

/** Where a running sub-task runs. */
export type RunningOn = { readonly kind: 'host'; readonly hostId: HostId } | { readonly kind: 'link'; readonly clusterId: ClusterId };

export interface PlanInput {
  readonly nowS: number;
  readonly horizonS: number;
  /** The most Works the heuristic may place (plan-fill 'per-host'); default: no limit. */
  readonly maxPlacements?: number;
  /** Files with the estimated sizes the scheduler believes. */
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
  /** Which hosts the heuristic scores Works on (options.hostCandidates); default 'all'. */
  readonly hostCandidates?: HostCandidates;
  /** When a running sub-task is expected to end (options.runningEstimate); default: the overdue rule. */
  readonly runningEndS?: (running: RunningSubtask, on: RunningOn) => number;
  /** Step (4); default: every not-started Work. */
  readonly taskSpace?: { readonly mode: TaskSpace; readonly size: number };
  /**
   * Up hosts that take no new Work (InformationService.hostIsLeaving): closed in the chart, their running
   * Work still drawn. Their FIFOs should be empty (the scheduler keeps none of their Works).
   */
  readonly hostIsLeaving?: (hostId: HostId) => boolean;
  /** Hosts a Work must never be placed on (InformationService.hostsToAvoid). */
  readonly hostsToAvoid?: (workId: WorkId) => ReadonlySet<HostId>;
  /** Usage, todo and computed Works, kept up to date by the caller; default: gathered from `works`. */
  readonly pending?: PendingWorks;
  /**
   * What port (3) says each storage holds (InformationService.storedFiles). A file the plan reads that is
   * there but not in the cluster's `stored` counts as stored and is reported in PlanOutput.foundStored.
   */
  readonly storedFiles?: (clusterId: ClusterId) => ReadonlySet<FileId>;
  /** What the Works' specifications give the heuristic, kept by the caller between plans; default: found afresh. */
  readonly workIndex?: WorkIndex;
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
  /** What each host should compute from now on (running, kept, added), for the deviation of §5.6.1. */
  readonly slots: ReadonlyMap<HostId, readonly PlannedSlot[]>;
  readonly consideredWorks: number;
  readonly plannedWorks: number;
  /** Files the plan found in a storage (input.storedFiles) that the cluster's `stored` did not list. */
  readonly foundStored: ReadonlyMap<ClusterId, readonly FileId[]>;
}

/**
 * How many Works a heuristic can place at most in a chart whose fixed part is drawn, when that is known
 * without looking at the Works, for heuristics that take Works by increasing id: then the first that many
 * Works give exactly the placements of the full list. The work queue (H0) gives one Work to each idle host.
 * (A `maxPlacements(chart)` method on Heuristic would be the natural home for this table.)
 */
export const PLACEMENT_BOUNDS: Readonly<Record<string, (chart: GanttChart) => number>> = {
  workqueue: (chart) => {
    let idle = 0;
    for (let h = 0; h < chart.hosts.length; h++) if (chart.isIdle(h) && chart.takesWork(h)) idle++;
    return idle;
  },
};

const overdueRule = { mode: 'overdue', overdueGraceS: OVERDUE_GRACE_S } as const;
const defaultRunningEnd = (running: RunningSubtask, _on: RunningOn, nowS: number) => expectedEndS(overdueRule, running, nowS, () => undefined);

export function makePlan(input: PlanInput): PlanOutput {
  const { nowS, works } = input;
  const runningEndS = (r: RunningSubtask, on: RunningOn) => (input.runningEndS ? input.runningEndS(r, on) : defaultRunningEnd(r, on, nowS));
  const clusterIndex = new Map<ClusterId, number>();
  const chartClusters: ChartCluster[] = input.clusters.map((cluster, index) => {
    clusterIndex.set(cluster.id, index);
    return { id: cluster.id, ...input.estimator.link(cluster.id) };
  });
  const hosts = input.hosts.filter((h) => clusterIndex.has(h.info.clusterId));

  // §5.6.4 usage: Works not started yet that read each file.
  const pending = input.pending ?? PendingWorks.of(works);
  const usage = pending.usage;

  // Step (4). Every todo Work (the default) is taken lazily, in id order, as many as the heuristic can use;
  // a reduced task space is chosen from all of them.
  const taskMode = input.taskSpace?.mode ?? 'all';
  const taskSize = Math.max(0, Math.floor(input.taskSpace?.size ?? Infinity));
  const reduced = taskMode !== 'all' && pending.todoCount > taskSize;
  const selected: readonly WorkSpec[] | undefined = reduced
    ? selectTaskSpace({ mode: taskMode, size: taskSize, works: pending.todo(), files: input.files, usage, atHand: filesAtHand(input, hosts), rng: input.rng })
    : input.hostsToAvoid === undefined
      ? undefined
      : pending.todo();
  const consideredCount = selected?.length ?? pending.todoCount;
  const firstConsidered = (limit: number): readonly WorkSpec[] =>
    selected === undefined ? pending.todo(limit) : limit >= selected.length ? selected : selected.slice(0, limit);

  const avoidance = selected === undefined ? undefined : hostAvoidance(input, selected, hosts);
  const chartHosts: ChartHost[] = hosts.map((h) => ({
    id: h.info.id,
    cluster: clusterIndex.get(h.info.clusterId)!,
    arch: avoidance?.archOf.get(h.info.id) ?? h.info.arch,
    availability: input.estimator.availability(h.info.id),
  }));
  const specFor = (spec: WorkSpec): WorkSpec => (avoidance === undefined ? spec : avoidance.spec(spec));

  // Running sub-tasks end when the running estimate says (step 3); computed once for every attempt below.
  const linkEnds = input.clusters.map((cluster) => (cluster.busy === null ? null : runningEndS(cluster.busy, { kind: 'link', clusterId: cluster.id })));
  const hostEnds = hosts.map((host) => (host.running === null ? null : runningEndS(host.running, { kind: 'host', hostId: host.info.id })));

  // Stored files, looked up for the files the chart reads only.
  const storedInputs = new StoredInputs(
    input.clusters,
    input.clusters.map((cluster) => input.storedFiles?.(cluster.id)),
    input.files.length,
    nowS,
  );

  const draw = (refused: ReadonlySet<WorkId>): { chart: GanttChart; candidates: readonly WorkSpec[] } => {
    const chart = new GanttChart({ nowS, horizonS: input.horizonS, ...(input.maxPlacements === undefined ? {} : { maxPlacements: input.maxPlacements }), clusters: chartClusters, hosts: chartHosts, files: input.files, usage });
    const keptSpecs: WorkSpec[] = [];
    for (const host of hosts) for (const workId of host.fifo) keptSpecs.push(works.get(workId)!.spec);
    storedInputs.newChart();
    storedInputs.mark(chart, keptSpecs);
    // Step (3): what is running, and what is already there.
    input.clusters.forEach((cluster, c) => {
      const endS = linkEnds[c];
      if (cluster.busy !== null && endS !== null && endS !== undefined) {
        chart.holdLink(c, endS);
        if (cluster.busy.item.kind === 'input') chart.markFile(c, cluster.busy.item.fileId, endS);
      }
    });
    hosts.forEach((host, h) => {
      const endS = hostEnds[h];
      if (host.running === null || endS === null || endS === undefined) return;
      chart.holdHost(h, endS, host.running.startS);
      chart.reserveOutput(works.get(host.running.workId)!.spec, chartHosts[h]!.cluster, endS);
    });
    hosts.forEach((host, h) => {
      if (input.hostIsLeaving?.(host.info.id) === true) chart.closeHost(h);
    });
    for (const ws of pending.computed()) {
      if (ws.host === null) continue;
      const clusterId = input.clusterOfHost(ws.host);
      const c = clusterId === undefined ? undefined : clusterIndex.get(clusterId);
      if (c !== undefined) chart.reserveOutput(ws.spec, c, nowS);
    }
    // The Works kept at the head of each host FIFO (the truncation of §7.4 already happened).
    hosts.forEach((host, h) => {
      for (const workId of host.fifo) chart.commit(specFor(works.get(workId)!.spec), h, true);
    });
    // Steps (5)–(6).
    const bound = avoidance === undefined ? PLACEMENT_BOUNDS[input.heuristic.name]?.(chart) : undefined;
    let candidates = firstConsidered(bound ?? Infinity);
    if (refused.size > 0) candidates = candidates.filter((w) => !refused.has(w.id));
    // With the index kept between plans (Works with hosts to avoid get none), the inputs come from its flat
    // lists rather than from each Work's objects.
    const workIndex = input.workIndex === undefined || avoidance !== undefined ? undefined : input.workIndex;
    if (workIndex === undefined) storedInputs.mark(chart, candidates);
    else {
      workIndex.refresh(candidates);
      storedInputs.markListed(chart, workIndex.ids, candidates.length, workIndex);
    }
    input.heuristic.plan({
      chart,
      // (specFor is the identity without hosts to avoid: no copy of what may be tens of thousands of Works.)
      works: avoidance === undefined ? candidates : candidates.map(specFor),
      rng: input.rng,
      randomTolerance: input.randomTolerance,
      hostCandidates: input.hostCandidates ?? 'all',
      // Works with hosts to avoid get specifications made for this plan: not worth an entry in the index.
      ...(workIndex === undefined ? {} : { workIndex }),
    });
    return { chart, candidates };
  };

  const refused = new Set<WorkId>();
  let { chart, candidates } = draw(refused);
  if (avoidance !== undefined) {
    for (let bad = avoidance.violations(chart, chartHosts); bad.size > 0; bad = avoidance.violations(chart, chartHosts)) {
      for (const workId of bad) refused.add(workId);
      ({ chart } = draw(refused));
    }
    for (const work of candidates) if (refused.has(work.id)) avoidance.placeElsewhere(chart, chartHosts, specFor(work));
  }

  // Step (7).
  const kept: Fifos = { hosts: new Map(), links: new Map() };
  const added: Fifos = { hosts: new Map(), links: new Map() };
  const slots = new Map<HostId, PlannedSlot[]>();
  hosts.forEach((host, h) => {
    const list: PlannedSlot[] = [];
    const endS = hostEnds[h];
    if (host.running !== null && endS !== null && endS !== undefined) list.push({ workId: host.running.workId, startS: host.running.startS, endS });
    slots.set(host.info.id, list);
  });
  // A host that leaves at a known time (a batch pilot's walltime end) gets no Work the chart plans to end
  // after it (nor the Works planned behind that one): they stay to do, for a later plan.
  const leavesAtS = hosts.map((h) => h.info.leavesAtS ?? Infinity);
  const late = new Set<WorkId>();
  for (const row of chart.assignments) if (!row.kept && row.endS > leavesAtS[row.host]!) late.add(row.workId);
  const busyHosts = new Set<number>();
  for (const row of chart.assignments) {
    if (late.has(row.workId)) continue;
    busyHosts.add(row.host);
    const fifos = row.kept ? kept : added;
    const id = chartHosts[row.host]!.id;
    let list = fifos.hosts.get(id);
    if (list === undefined) fifos.hosts.set(id, (list = []));
    list.push(row.workId);
    slots.get(id)!.push({ workId: row.workId, startS: row.startS, endS: row.endS });
  }
  chart.linkEntries.forEach((entries, c) => {
    const sorted = [...entries].sort((a, b) => a.startS - b.startS || a.seq - b.seq);
    const id = chartClusters[c]!.id;
    kept.links.set(id, sorted.filter((e) => e.kept).map(toItem));
    added.links.set(id, sorted.filter((e) => !e.kept && !(e.kind === 'output' && late.has(e.workId))).map(toItem));
  });
  const idleHosts = new Set<HostId>();
  chartHosts.forEach((host, h) => {
    if (chart.isIdle(h) || (late.size > 0 && !busyHosts.has(h) && hosts[h]!.running === null)) idleHosts.add(host.id);
  });
  const plannedWorks = chart.assignments.filter((row) => !row.kept && !late.has(row.workId)).length;
  return { chart, kept, added, idleHosts, slots, consideredWorks: consideredCount, plannedWorks, foundStored: storedInputs.found };
}

function toItem(entry: LinkEntry): LinkItem {
  return entry.kind === 'input'
    ? { kind: 'input', fileId: entry.fileId, planS: entry.startS }
    : { kind: 'output', workId: entry.workId, planS: entry.startS };
}

/** Files stored in, in flight to, or needed by the Works kept on, some up cluster (task-space reduction). */
function filesAtHand(input: PlanInput, hosts: readonly HostState[]): Set<FileId> {
  const atHand = new Set<FileId>();
  if ((input.taskSpace?.mode ?? 'all') !== 'shared-files') return atHand;
  for (const cluster of input.clusters) {
    for (const fileId of cluster.stored) atHand.add(fileId);
    if (cluster.busy?.item.kind === 'input') atHand.add(cluster.busy.item.fileId);
  }
  for (const host of hosts) for (const workId of host.fifo) for (const fileId of input.works.get(workId)!.spec.inputs) atHand.add(fileId);
  return atHand;
}

interface HostAvoidance {
  /** The chart architecture of each host some Work must avoid. */
  readonly archOf: ReadonlyMap<HostId, number>;
  /** The Work with run times extended to those architectures. */
  spec(work: WorkSpec): WorkSpec;
  /** Works the heuristic placed on a host they must avoid. */
  violations(chart: GanttChart, chartHosts: readonly ChartHost[]): Set<WorkId>;
  /** Commits the Work to its allowed, not full host of smallest Compl, if there is one. */
  placeElsewhere(chart: GanttChart, chartHosts: readonly ChartHost[], work: WorkSpec): void;
}

function hostAvoidance(input: PlanInput, considered: readonly WorkSpec[], hosts: readonly HostState[]): HostAvoidance | undefined {
  const query = input.hostsToAvoid;
  if (query === undefined) return undefined;
  const upHosts = new Set(hosts.map((h) => h.info.id));
  const avoid = new Map<WorkId, ReadonlySet<HostId>>();
  const avoided = new Set<HostId>();
  for (const work of considered) {
    const set = query(work.id);
    let relevant = false;
    for (const hostId of set) {
      if (!upHosts.has(hostId)) continue;
      avoided.add(hostId);
      relevant = true;
    }
    if (relevant) avoid.set(work.id, set);
  }
  if (avoided.size === 0) return undefined;
  let base = 0;
  for (const host of hosts) base = Math.max(base, host.info.arch + 1);
  for (const ws of input.works.values()) base = Math.max(base, ws.spec.estRunTimeS.length);
  const avoidedHosts = hosts.filter((h) => avoided.has(h.info.id));
  const archOf = new Map(avoidedHosts.map((h, k) => [h.info.id, base + k]));
  const cache = new Map<WorkId, WorkSpec>();
  return {
    archOf,
    spec(work: WorkSpec): WorkSpec {
      let extended = cache.get(work.id);
      if (extended === undefined) {
        const forbidden = avoid.get(work.id);
        const estRunTimeS = [...work.estRunTimeS];
        while (estRunTimeS.length < base) estRunTimeS.push(Infinity);
        for (const host of avoidedHosts) estRunTimeS.push(forbidden?.has(host.info.id) ? Infinity : (work.estRunTimeS[host.info.arch] ?? Infinity));
        extended = { ...work, estRunTimeS };
        cache.set(work.id, extended);
      }
      return extended;
    },
    violations(chart: GanttChart, chartHosts: readonly ChartHost[]): Set<WorkId> {
      const refused = new Set<WorkId>();
      for (const row of chart.assignments) {
        if (!row.kept && avoid.get(row.workId)?.has(chartHosts[row.host]!.id) === true) refused.add(row.workId);
      }
      return refused;
    },
    placeElsewhere(chart: GanttChart, chartHosts: readonly ChartHost[], work: WorkSpec): void {
      const forbidden = avoid.get(work.id);
      let best = -1;
      let bestS = Infinity;
      chartHosts.forEach((host, h) => {
        if (chart.isFull(h) || forbidden?.has(host.id) === true) return;
        const { complS } = chart.compl(work, h);
        if (complS < bestS) {
          best = h;
          bestS = complS;
        }
      });
      if (best >= 0) chart.commit(work, best);
    },
  };
}
