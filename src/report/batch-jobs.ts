// What a run record says about its batch clusters (job events, src/record/events.ts BatchJobRecord): per
// cluster, the queue length and the cores in use over time, and each ended job's wait and slowdown,
// other users' jobs apart from the sweep's pilots. Read by the HTML report and the dashboard. A real run's
// Slurm cluster is not declared in the record: its pilots' job events are all there is of it.
import type { RunRecordEvent } from '../record/events.js';

export interface BatchClusterJobs {
  readonly cluster: string;
  /** The cluster's cores (a real Slurm cluster's: the most its pilots held at once, so far). */
  cores: number;
  /** False for a real Slurm cluster, whose size the record does not give. */
  readonly sizeKnown: boolean;
  readonly policy: string;
  /** After each change, in time order: jobs waiting and cores in use, all jobs and the sweep's pilots alone. */
  readonly timeline: BatchLevel[];
  readonly waitS: { readonly background: number[]; readonly pilots: number[] };
  readonly slowdown: { readonly background: number[]; readonly pilots: number[] };
}

export interface BatchLevel {
  readonly t: number;
  readonly waiting: number;
  readonly busyCores: number;
  readonly pilotsWaiting: number;
  readonly pilotBusyCores: number;
}

interface Counts {
  waiting: number;
  busy: number;
}

interface Live {
  submitS: number;
  cores: number;
  startS?: number;
}

interface ClusterJobs {
  view: BatchClusterJobs;
  live: Map<number, Live>;
  all: Counts;
  pilots: Counts;
  /** A real Slurm cluster: only the sweep's pilots are seen, and its size is the most cores they held. */
  real: boolean;
}

export class BatchJobs {
  readonly clusters: BatchClusterJobs[] = [];
  private readonly byName = new Map<string, ClusterJobs>();

  private realBatchCluster(cluster: string): ClusterJobs {
    const view: BatchClusterJobs = { cluster, cores: 0, sizeKnown: false, policy: 'Slurm (the sweep\'s pilots only)', timeline: [], waitS: { background: [], pilots: [] }, slowdown: { background: [], pilots: [] } };
    this.clusters.push(view);
    const c = { view, live: new Map(), all: { waiting: 0, busy: 0 }, pilots: { waiting: 0, busy: 0 }, real: true };
    this.byName.set(cluster, c);
    return c;
  }

  apply(e: RunRecordEvent): void {
    if (e.type === 'grid' && e.event.kind === 'ADD_BATCH_CLUSTER') {
      const view: BatchClusterJobs = { cluster: e.event.cluster, cores: e.event.nodes * e.event.coresPerNode, sizeKnown: true, policy: e.event.policy, timeline: [], waitS: { background: [], pilots: [] }, slowdown: { background: [], pilots: [] } };
      this.clusters.push(view);
      this.byName.set(view.cluster, { view, live: new Map(), all: { waiting: 0, busy: 0 }, pilots: { waiting: 0, busy: 0 }, real: false });
      return;
    }
    if (e.type !== 'job') return;
    const c = this.byName.get(e.cluster) ?? (e.job < 0 ? this.realBatchCluster(e.cluster) : undefined);
    if (c === undefined) return;
    const group = e.job < 0 ? 'pilots' : 'background';
    const counts = e.job < 0 ? [c.all, c.pilots] : [c.all];
    if (e.event === 'submit') {
      c.live.set(e.job, { submitS: e.t, cores: e.cores ?? 0 });
      for (const n of counts) n.waiting++;
    } else if (e.event === 'start') {
      const j = c.live.get(e.job);
      if (j === undefined) return;
      j.startS = e.t;
      for (const n of counts) {
        n.waiting--;
        n.busy += j.cores;
      }
    } else if (e.event === 'end') {
      const j = c.live.get(e.job);
      if (j?.startS === undefined) return;
      c.live.delete(e.job);
      for (const n of counts) n.busy -= j.cores;
      c.view.waitS[group].push(j.startS - j.submitS);
      c.view.slowdown[group].push((e.t - j.submitS) / Math.max(e.t - j.startS, 1));
    } else return;
    if (c.real) c.view.cores = Math.max(c.view.cores, c.all.busy);
    const last = c.view.timeline[c.view.timeline.length - 1];
    if (last !== undefined && last.t === e.t) c.view.timeline.pop();
    c.view.timeline.push({ t: e.t, waiting: c.all.waiting, busyCores: c.all.busy, pilotsWaiting: c.pilots.waiting, pilotBusyCores: c.pilots.busy });
  }
}
