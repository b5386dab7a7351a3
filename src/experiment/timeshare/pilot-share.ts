// The sweep beside a time-shared batch cluster (issue 29, item 5), as a two-pass model: first the
// time-sharing engine runs the cluster — other users' rigid jobs and the sweep's pilots, each pilot a
// rigid job of its walltime — under a strategy (gang with MPL k; MPL 1 is space sharing, FCFS); then each
// pilot core becomes a host of a grid description whose CPU availability over each sample period is the
// share of that period the pilot's task held the core (its row's turns, less context switches). The sweep
// simulator (backends/sim) runs on that grid, and its information service reports each pilot host's
// availability as it does for any loaded host, so the scheduler sees the slower cores.
//
// Assumptions: a pilot runs for its walltime of CPU time whatever the sweep does with it (the walltime
// counts only the time its gang row runs, so under gang it lives longer in wall-clock time); the sweep's
// works do not change the cluster's schedule (the pilot's task computes in every turn of its row).
import type { GridDescription, GridEvent, HostBehavior, LinkBehavior } from '../../model/grid.js';
import { simulateTimeshare } from '../../batch/timeshare/engine.js';
import type { ParallelJob } from '../../batch/timeshare/job-structure.js';
import type { SchedulerConfig } from '../../batch/timeshare/registry.js';

export interface RigidJob {
  readonly id: number;
  readonly submitS: number;
  /** Run time on a dedicated machine (seconds of CPU per core). */
  readonly runS: number;
  readonly cores: number;
}

export interface PilotPlan {
  readonly count: number;
  readonly coresEach: number;
  readonly walltimeS: number;
  /** Default 0. */
  readonly submitS?: number;
}

export interface PilotShare {
  /** 1, 2, … in submission order. */
  readonly pilot: number;
  readonly hosts: readonly string[];
  readonly startS: number;
  readonly endS: number;
  /** Per host, the availability (0–100) over [startS + k·P, startS + (k+1)·P). */
  readonly availabilityPct: readonly (readonly number[])[];
}

/** Runs the cluster with its pilots; one single-CPU node per core. Pilots are submitted after the jobs submitted at the same time. */
export function pilotShares(cluster: { readonly cores: number; readonly name: string }, background: readonly RigidJob[], pilots: PilotPlan, config: SchedulerConfig, samplePeriodS: number): PilotShare[] {
  if (!(samplePeriodS > 0)) throw new Error(`the sample period must be > 0 seconds, got ${samplePeriodS}`);
  const rigid = (j: RigidJob, jobClass: string): ParallelJob => ({
    id: j.id,
    submitS: j.submitS,
    tasks: j.cores,
    iterations: 1,
    computeS: new Array<number>(j.cores).fill(j.runS),
    ioS: new Array<number>(j.cores).fill(0),
    pattern: 'none',
    messageBytes: 0,
    jobClass,
  });
  const firstPilotId = Math.max(0, ...background.map((j) => j.id)) + 1;
  const pilotJobs = Array.from({ length: pilots.count }, (_, k) => rigid({ id: firstPilotId + k, submitS: pilots.submitS ?? 0, runS: pilots.walltimeS, cores: pilots.coresEach }, 'pilot'));
  // The engine takes jobs in submission order (ties: the order given).
  const jobs = [...background.map((j) => rigid(j, 'background')), ...pilotJobs].sort((a, b) => a.submitS - b.submitS);
  // Compute seconds of each pilot task, by absolute sample window (from time 0); turned into windows from each pilot's start below.
  const computed = new Map<string, { fromS: number; toS: number }[]>();
  const run = simulateTimeshare(jobs, cluster.cores, config, {
    segment(_node, task, kind, fromS, toS) {
      if (task === null || kind !== 'compute' || task.run.job.id < firstPilotId) return;
      const key = `${task.run.job.id}/${task.index}`;
      const list = computed.get(key) ?? [];
      list.push({ fromS, toS });
      computed.set(key, list);
    },
  });
  return pilotJobs.map((job, k) => {
    const outcome = run.jobs.find((j) => j.id === job.id)!;
    const windows = Math.max(1, Math.ceil((outcome.endS - outcome.startS) / samplePeriodS - 1e-9));
    const hosts = Array.from({ length: job.tasks }, (_, t) => `${cluster.name}.pilot${k + 1}.${t + 1}`);
    const availabilityPct = hosts.map((_, t) => {
      const bins = new Array<number>(windows).fill(0);
      for (const s of computed.get(`${job.id}/${t}`) ?? []) {
        // Split the stretch over the windows it crosses (the last window takes whatever is left).
        let from = s.fromS;
        while (from < s.toS) {
          let w = Math.min(windows - 1, Math.max(0, Math.floor((from - outcome.startS) / samplePeriodS)));
          while (w < windows - 1 && outcome.startS + (w + 1) * samplePeriodS <= from) w++;
          const to = w === windows - 1 ? s.toS : Math.min(s.toS, outcome.startS + (w + 1) * samplePeriodS);
          bins[w]! += to - from;
          from = to;
        }
      }
      // The last window may be partial: its share is over the time the pilot still held the core.
      return bins.map((b, w) => {
        const lengthS = Math.min(samplePeriodS, outcome.endS - (outcome.startS + w * samplePeriodS));
        return lengthS <= 0 ? 0 : Math.min(100, (100 * b) / lengthS);
      });
    });
    return { pilot: k + 1, hosts, startS: outcome.startS, endS: outcome.endS, availabilityPct };
  });
}

/** A grid of the pilots' cores: one cluster behind `link`; each host from its pilot's start to its end, with its availability series. */
export function pilotGrid(clusterName: string, link: LinkBehavior, shares: readonly PilotShare[]): GridDescription {
  const events: GridEvent[] = [{ kind: 'ADD_CLUSTER', timeS: 0, cluster: clusterName, behavior: link.name, offset: 0 }];
  const hostBehaviors = new Map<string, HostBehavior>();
  const ends: GridEvent[] = [];
  for (const p of shares) {
    p.hosts.forEach((host, t) => {
      const name = `${host}.share`;
      hostBehaviors.set(name, { kind: 'host', name, availabilityPct: p.availabilityPct[t]! });
      events.push({ kind: 'ADD_HOST', timeS: p.startS, cluster: clusterName, host, behavior: name, offset: 0, arch: 0, leavesAtS: p.endS });
      ends.push({ kind: 'REMOVE_HOST', timeS: p.endS, host });
    });
  }
  const all = [...events, ...ends].sort((a, b) => a.timeS - b.timeS);
  return { version: '1', events: all, linkBehaviors: new Map([[link.name, link]]), hostBehaviors };
}
