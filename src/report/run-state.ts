// Folds run-record events into the state of a run at some time: the Gantt chart's bars per resource,
// task counts, bytes per link, utilization per cluster and host states. The HTML report, the Chrome
// trace and the dashboard all read a run through this one reducer.
import { BatchJobs } from './batch-jobs.js';
import type { FileId, WorkId } from '../model/application.js';
import type { ClusterId, HostId } from '../model/grid.js';
import type { ResourceRef, RunEnd, RunHeader, RunRecordEvent, SubtaskKind } from '../record/events.js';

/** One sub-task drawn on the chart. `endS` null while it runs; `ok` null until it ends. */
export interface Bar {
  readonly id: number;
  readonly kind: SubtaskKind;
  readonly resourceIndex: number;
  readonly startS: number;
  endS: number | null;
  ok: boolean | null;
  readonly work?: WorkId;
  readonly file?: FileId;
  readonly sizeBytes?: number;
  /** 1 for a Work's first computation; 2, 3, … for re-executions (and the outputs that follow them). */
  readonly attempt: number;
}

/** `left`: a batch job's core that left when its job ended (not a failure). */
export type HostState = 'up' | 'busy' | 'failed' | 'rejoined' | 'left';

/** A row of the Gantt chart. */
export interface ResourceRow {
  readonly index: number;
  readonly type: 'link' | 'host';
  readonly cluster: ClusterId;
  readonly host?: HostId;
  readonly label: string;
  readonly bars: Bar[];
  /** Seconds this resource spent on sub-tasks that have ended. */
  busyClosedS: number;
  bytesMoved: number;
  failedSubtasks: number;
  /** Start times of the sub-tasks running on it now, by id. */
  readonly running: Map<number, number>;
}

interface HostLife {
  readonly host: HostId;
  readonly cluster: ClusterId;
  up: boolean;
  /** A batch job's core, known to leave when its job ends. */
  leaves: boolean;
  joins: number;
  upSinceS: number;
  upClosedS: number;
  /** Periods the host was down; `toS` null while it still is. */
  readonly downSpans: { fromS: number; toS: number | null }[];
}

export interface ClusterSummary {
  readonly cluster: ClusterId;
  readonly linkBytes: number;
  /** Busy host-seconds over up host-seconds, 0–1. */
  readonly computeUtilization: number;
  /** Busy link seconds over elapsed seconds, 0–1. */
  readonly linkUtilization: number;
}

export interface HostSummary {
  readonly host: HostId;
  readonly cluster: ClusterId;
  readonly state: HostState;
}

export interface RunSummary {
  readonly timeS: number;
  readonly total: number;
  readonly done: number;
  readonly running: number;
  readonly pending: number;
  readonly failed: number;
  /** Every failed attempt, retried or not. */
  readonly failures: number;
  readonly reexecutions: number;
  /** The run's makespan once it has ended, else null. */
  readonly makespanS: number | null;
  /** A linear extrapolation of the finish from the rate of completions so far, or null before the first. */
  readonly projectedFinishS: number | null;
  readonly clusters: readonly ClusterSummary[];
  readonly hosts: readonly HostSummary[];
}

export function resourceKey(r: ResourceRef): string {
  return r.type === 'link' ? `link:${r.cluster}` : `host:${r.host}`;
}

export class RunState {
  header: RunHeader | null = null;
  end: RunEnd | null = null;
  /** The time of the latest event applied. */
  timeS = 0;
  /** Batch clusters' jobs (job events), for the report. */
  readonly batch = new BatchJobs();
  readonly resources: ResourceRow[] = [];
  /** Cluster names in order of first appearance. */
  readonly clusters: ClusterId[] = [];
  readonly bars: Bar[] = [];
  readonly planCalls: { t: number; cpuMs: number; plannedWorks: number }[] = [];
  private readonly barById = new Map<number, Bar>();
  private readonly resourceByKey = new Map<string, ResourceRow>();
  private readonly hosts = new Map<HostId, HostLife>();
  private readonly workState = new Map<WorkId, 'running' | 'done' | 'failed'>();
  private readonly computeAttempts = new Map<WorkId, number>();
  private doneCount = 0;
  private finalFailedCount = 0;
  private runningCount = 0;
  private failureCount = 0;
  private reexecutionCount = 0;

  static from(events: Iterable<RunRecordEvent>): RunState {
    const s = new RunState();
    for (const e of events) s.apply(e);
    return s;
  }

  private addCluster(cluster: ClusterId): void {
    if (this.clusters.includes(cluster)) return;
    this.clusters.push(cluster);
    this.resource({ type: 'link', cluster });
  }

  /** The row of a resource, created on first sight (a cluster's link row comes before its hosts). */
  resource(ref: ResourceRef): ResourceRow {
    const key = resourceKey(ref);
    let row = this.resourceByKey.get(key);
    if (row) return row;
    if (ref.type === 'host') {
      this.addCluster(ref.cluster);
      this.hostLife(ref.host, ref.cluster);
    } else if (!this.clusters.includes(ref.cluster)) {
      this.clusters.push(ref.cluster);
    }
    row = {
      index: this.resources.length,
      type: ref.type,
      cluster: ref.cluster,
      ...(ref.type === 'host' ? { host: ref.host } : {}),
      label: ref.type === 'link' ? `${ref.cluster} link` : ref.host,
      bars: [],
      busyClosedS: 0,
      bytesMoved: 0,
      failedSubtasks: 0,
      running: new Map(),
    };
    this.resources.push(row);
    this.resourceByKey.set(key, row);
    return row;
  }

  private hostLife(host: HostId, cluster: ClusterId): HostLife {
    let life = this.hosts.get(host);
    if (!life) {
      life = { host, cluster, up: true, leaves: false, joins: 1, upSinceS: this.timeS, upClosedS: 0, downSpans: [] };
      this.hosts.set(host, life);
    }
    return life;
  }

  private hostDown(life: HostLife): void {
    if (!life.up) return;
    life.up = false;
    life.upClosedS += this.timeS - life.upSinceS;
    life.downSpans.push({ fromS: this.timeS, toS: null });
  }

  /** Rows grouped by cluster (link first, then hosts in order of appearance): the chart's row order. */
  rowsByCluster(): { cluster: ClusterId; rows: ResourceRow[] }[] {
    return this.clusters.map((cluster) => ({ cluster, rows: this.resources.filter((r) => r.cluster === cluster) }));
  }

  apply(e: RunRecordEvent): void {
    if (e.t > this.timeS) this.timeS = e.t;
    this.batch.apply(e);
    switch (e.type) {
      case 'header':
        this.header = e;
        break;
      case 'grid':
        this.applyGrid(e.event);
        break;
      case 'start': {
        const row = this.resource(e.resource);
        let attempt = 1;
        if (e.work !== undefined) {
          if (e.kind === 'compute') {
            attempt = (this.computeAttempts.get(e.work) ?? 0) + 1;
            this.computeAttempts.set(e.work, attempt);
            if (attempt > 1) this.reexecutionCount++;
          } else {
            attempt = this.computeAttempts.get(e.work) ?? 1;
          }
          if (!this.workState.has(e.work)) {
            this.workState.set(e.work, 'running');
            this.runningCount++;
          }
        }
        const bar: Bar = {
          id: e.id,
          kind: e.kind,
          resourceIndex: row.index,
          startS: e.t,
          endS: null,
          ok: null,
          ...(e.work !== undefined ? { work: e.work } : {}),
          ...(e.file !== undefined ? { file: e.file } : {}),
          ...(e.sizeBytes !== undefined ? { sizeBytes: e.sizeBytes } : {}),
          attempt,
        };
        row.bars.push(bar);
        row.running.set(e.id, e.t);
        this.bars.push(bar);
        this.barById.set(e.id, bar);
        break;
      }
      case 'end': {
        const bar = this.barById.get(e.id);
        if (!bar || bar.endS !== null) break;
        bar.endS = e.t;
        bar.ok = e.ok;
        const row = this.resources[bar.resourceIndex]!;
        row.running.delete(e.id);
        row.busyClosedS += e.t - bar.startS;
        if (e.ok && row.type === 'link') row.bytesMoved += bar.sizeBytes ?? 0;
        if (!e.ok) row.failedSubtasks++;
        break;
      }
      case 'work-done':
        this.setWork(e.work, 'done');
        break;
      case 'work-failed':
        this.failureCount++;
        if (e.final) this.setWork(e.work, 'failed');
        else this.setWork(e.work, undefined);
        break;
      case 'plan':
        this.planCalls.push({ t: e.t, cpuMs: e.cpuMs, plannedWorks: e.plannedWorks });
        break;
      case 'run-end':
        this.end = e;
        break;
      case 'sched':
        break;
    }
  }

  private setWork(work: WorkId, next: 'done' | 'failed' | undefined): void {
    const prev = this.workState.get(work);
    if (prev === next) return;
    if (prev === 'running') this.runningCount--;
    else if (prev === 'done') this.doneCount--;
    else if (prev === 'failed') this.finalFailedCount--;
    if (next === undefined) this.workState.delete(work);
    else {
      this.workState.set(work, next);
      if (next === 'done') this.doneCount++;
      else this.finalFailedCount++;
    }
  }

  private applyGrid(g: Extract<RunRecordEvent, { type: 'grid' }>['event']): void {
    switch (g.kind) {
      case 'ADD_CLUSTER':
      case 'ADD_BATCH_CLUSTER':
        this.addCluster(g.cluster);
        break;
      case 'ADD_HOST': {
        const known = this.hosts.get(g.host);
        this.resource({ type: 'host', host: g.host, cluster: g.cluster });
        if (g.leavesAtS !== undefined) this.hosts.get(g.host)!.leaves = true;
        if (known && !known.up) {
          known.up = true;
          known.joins++;
          known.downSpans[known.downSpans.length - 1]!.toS = this.timeS;
          known.upSinceS = this.timeS;
        }
        break;
      }
      case 'REMOVE_HOST': {
        const life = this.hosts.get(g.host);
        if (life) this.hostDown(life);
        break;
      }
      case 'REMOVE_CLUSTER':
        for (const life of this.hosts.values()) if (life.cluster === g.cluster) this.hostDown(life);
        break;
      default:
        break;
    }
  }

  /** Seconds a resource has been busy up to `nowS`, counting sub-tasks still running. */
  busyS(row: ResourceRow, nowS = this.timeS): number {
    let s = row.busyClosedS;
    for (const startS of row.running.values()) s += Math.max(0, nowS - startS);
    return s;
  }

  hostState(host: HostId): HostState {
    const life = this.hosts.get(host);
    if (!life) return 'up';
    if (!life.up) return life.leaves ? 'left' : 'failed';
    const row = this.resourceByKey.get(`host:${host}`);
    if (row && row.running.size > 0) return 'busy';
    return life.joins > 1 ? 'rejoined' : 'up';
  }

  /** When a host was down (failed or removed), in time order. */
  hostDownSpans(host: HostId): readonly { fromS: number; toS: number | null }[] {
    return this.hosts.get(host)?.downSpans ?? [];
  }

  hostUpS(host: HostId, nowS = this.timeS): number {
    const life = this.hosts.get(host);
    if (!life) return 0;
    return life.upClosedS + (life.up ? Math.max(0, nowS - life.upSinceS) : 0);
  }

  summary(nowS = this.timeS): RunSummary {
    const total = Math.max(this.header?.taskCount ?? 0, this.workState.size);
    const clusters = this.clusters.map((cluster): ClusterSummary => {
      let busy = 0;
      let up = 0;
      let linkBytes = 0;
      let linkBusy = 0;
      for (const row of this.resources) {
        if (row.cluster !== cluster) continue;
        if (row.type === 'link') {
          linkBytes += row.bytesMoved;
          linkBusy += this.busyS(row, nowS);
        } else {
          busy += this.busyS(row, nowS);
          up += this.hostUpS(row.host!, nowS);
        }
      }
      return {
        cluster,
        linkBytes,
        computeUtilization: up > 0 ? Math.min(1, busy / up) : 0,
        linkUtilization: nowS > 0 ? Math.min(1, linkBusy / nowS) : 0,
      };
    });
    const hosts = [...this.hosts.values()].map((h) => ({ host: h.host, cluster: h.cluster, state: this.hostState(h.host) }));
    const finished = this.doneCount + this.finalFailedCount;
    const makespanS = this.end ? this.end.makespanS : null;
    const projectedFinishS = makespanS ?? (finished > 0 && total > 0 ? (nowS * total) / finished : null);
    return {
      timeS: nowS,
      total,
      done: this.doneCount,
      running: this.runningCount,
      pending: Math.max(0, total - this.doneCount - this.runningCount - this.finalFailedCount),
      failed: this.finalFailedCount,
      failures: this.failureCount,
      reexecutions: this.reexecutionCount,
      makespanS,
      projectedFinishS,
      clusters,
      hosts,
    };
  }
}
