// Task attempts that ran while the controller could not see them. A lost attempt (its machine's or its
// cluster's connection went down while it ran, or its outputs were computed in a cluster that went down)
// is looked for when a machine of its cluster answers again: one that exited 0 with all its outputs counts
// as computed there (sched_work_recovered) instead of running again. One still running (its process group
// alive), when the machine that answered is the one that ran it, is adopted, not killed; one whose machine
// was killed or restarted meanwhile is forgotten. An adopted attempt's exit is watched on disk (the agent
// outlives the controller's connection and writes how the task ended in its directory) every
// `watchPeriodS`; if it exits 0 before the copy the scheduler planned meanwhile is computed, it is
// recovered then (the scheduler cancels that copy); once the Work is computed, done or given up some other
// way, the adopted attempt is killed and forgotten. A machine lost while it watches hands the attempt back
// to the lost ones of its cluster. On `--resume`, the attempts the journal saw start and not end are
// collected before the scheduler starts: those that exited 0 are moved into this run, their outputs
// fetched and verified.
import type { SchedulerEvents } from '../../../src/interfaces/scheduler-events.js';
import type { WorkId } from '../../../src/model/application.js';
import type { ClusterId, HostId } from '../../../src/model/grid.js';
import type { ExpandedSweep } from '../../../src/sweep/expand.js';
import { EndpointDownError, type Endpoint } from '../../transport/endpoint.js';
import type { OutputFacts, UnfinishedAttempt } from '../journal.js';
import { reportedOutputs, type ReportedOutputs } from '../origin-outputs.js';
import { OriginWriteError } from '../origin-failure.js';
import type { ProgressEvent } from '../../transport/progress-events.js';
import type { ClusterLinks } from './cluster-link.js';
import { offered, type HostMembership } from './host-membership.js';
import type { RunRecords } from './run-records.js';
import type { WorkLedger } from './work-ledger.js';

/** A task attempt lost with its machine's (or cluster's) connection: it may finish on the host meanwhile. */
export interface LostAttempt {
  readonly work: WorkId;
  readonly host: HostId;
  readonly workKey: string;
}

export type FoundAttempt = LostAttempt & { readonly outputs: OutputFacts[] };

export interface RecoveryDeps {
  readonly sweep: ExpandedSweep;
  readonly works: WorkLedger;
  readonly records: RunRecords;
  readonly hosts: HostMembership;
  readonly clusters: ClusterLinks;
  readonly log: (event: ProgressEvent) => void;
  /** Fetches a finished attempt's outputs through `e` to the origin, each verified on arrival. */
  fetchOutputs(e: Endpoint, done: ReportedOutputs): Promise<void>;
  originFailed(err: OriginWriteError): void;
  /** Runs `fn` in `seconds`, unless the run has stopped by then. */
  after(seconds: number, fn: () => void): void;
  /** The scheduler, once attached. */
  events(): SchedulerEvents | undefined;
  isStopped(): boolean;
  /** How often an adopted attempt's directory is looked at. */
  readonly watchPeriodS: number;
}

export class Recovery {
  /** Per cluster, the attempts lost with a connection, looked for when a machine of the cluster comes back. */
  private readonly lost = new Map<ClusterId, LostAttempt[]>();

  constructor(private readonly d: RecoveryDeps) {}

  /** Attempts of cluster `clusterId` lost with a connection. */
  lostIn(clusterId: ClusterId, attempts: readonly LostAttempt[]): void {
    this.lost.set(clusterId, [...(this.lost.get(clusterId) ?? []), ...attempts]);
  }

  /**
   * The attempts lost in `e`'s cluster that have since exited 0 with all their outputs, found through `e`,
   * which has just come back. Those still running on `e` are killed (they were re-planned), the others
   * forgotten. None is looked for when the scheduler cannot take a recovered Work.
   */
  async findEnded(e: Endpoint, events: SchedulerEvents | undefined): Promise<FoundAttempt[]> {
    const lost = this.lost.get(e.clusterId) ?? [];
    this.lost.delete(e.clusterId);
    if (!events?.sched_work_recovered) return [];
    const found: FoundAttempt[] = [];
    await Promise.all(
      lost.map(async (a) => {
        if (!this.d.works.awaitingComputation(a.work)) return;
        try {
          if (!(await e.endedWell(a.workKey))) {
            // Adopted only through the machine that ran it (its agent is there to write how it ends), and
            // only while it runs; one of another machine (a pilot killed with its job, say), or one whose
            // machine was killed or restarted meanwhile, is forgotten.
            if (e.spec.hostIds.includes(a.host) && (await e.stillRunning(a.workKey))) this.adopt(e, a);
            return;
          }
          const outputs = await reportedOutputs(e, a.workKey, this.d.sweep.tasks[a.work]!.outputs.map((o) => o.path));
          if (outputs) found.push({ ...a, outputs });
        } catch {
          // not found: the Work runs again, as planned
        }
      }),
    );
    return found;
  }

  /**
   * Lost attempts of cluster `clusterId` that finished after all count as computed where they ran: the
   * scheduler brings their outputs back. It must know the cluster up again: one of its hosts was offered
   * since it went down.
   */
  recover(clusterId: ClusterId, found: readonly FoundAttempt[], events: SchedulerEvents, adopted = false): void {
    if (found.length === 0 || !this.clusterOffered(clusterId)) return;
    for (const a of found) {
      if (!this.d.works.awaitingComputation(a.work)) continue;
      this.d.works.computed.set(a.work, { host: a.host, workKey: a.workKey, outputs: a.outputs });
      this.d.records.journalNote({ type: 'done', work: a.work, host: a.host, outputs: a.outputs });
      this.d.log({ kind: 'recovered', work: a.work, host: a.host, ...(adopted ? { adopted } : {}) });
      events.sched_work_recovered!([a.work], a.host);
    }
  }

  /** One of the cluster's hosts is in the scheduler's grid: it counts the cluster up. */
  private clusterOffered(clusterId: ClusterId): boolean {
    return [...this.d.hosts.all()].some((h) => offered(h.state) && h.info.clusterId === clusterId);
  }

  /** A lost attempt still running when `e` answered: watched from now on instead of killed. */
  private adopt(e: Endpoint, a: LostAttempt): void {
    this.d.log({ kind: 'adopted', work: a.work, host: a.host });
    this.watchLater(e, a);
  }

  private watchLater(e: Endpoint, a: LostAttempt): void {
    this.d.after(this.d.watchPeriodS, () => void this.watch(e, a));
  }

  /** Looks at an adopted attempt's directory once: recovered if it ended well, watched again if it runs on. */
  private async watch(e: Endpoint, a: LostAttempt): Promise<void> {
    if (this.d.isStopped()) return;
    if (!this.d.works.awaitingComputation(a.work)) {
      // Its Work was computed (or done, or given up) some other way: the attempt is of no use. Killed only
      // on the machine that ran it (a process group id means nothing on another node), not waited for.
      if (e.isUp() && e.spec.hostIds.includes(a.host)) void e.kill(a.workKey).catch(() => undefined);
      return;
    }
    if (!e.isUp()) {
      this.lostIn(e.clusterId, [a]);
      return;
    }
    try {
      if (!(await e.endedWell(a.workKey))) {
        // Ended otherwise, or gone with its machine: its Work runs again, as planned.
        if (await e.stillRunning(a.workKey)) this.watchLater(e, a);
        return;
      }
      const outputs = await reportedOutputs(e, a.workKey, this.d.sweep.tasks[a.work]!.outputs.map((o) => o.path));
      // Exit 0 without all its outputs: a failed attempt; the scheduler's copy goes on.
      if (!outputs) return;
      const events = this.d.events();
      if (this.d.isStopped() || !events) return;
      if (!this.clusterOffered(e.clusterId)) {
        // the cluster is down again (or its hosts set aside): recovered once it is offered
        this.watchLater(e, a);
        return;
      }
      this.recover(e.clusterId, [{ ...a, outputs }], events, true);
    } catch (err) {
      if (err instanceof EndpointDownError || !e.isUp()) this.lostIn(e.clusterId, [a]);
      else this.watchLater(e, a);
    }
  }

  /**
   * Before the scheduler starts (a resumed run): the attempts the journal saw start and not end that
   * exited 0 meanwhile, on a machine that is up, are adopted into this run, their outputs fetched and
   * verified, and they count as done; the others are left to the scheduler. Returns the Works collected.
   */
  async collectFinished(attempts: readonly UnfinishedAttempt[]): Promise<WorkId[]> {
    const collected: WorkId[] = [];
    await Promise.all(
      attempts.map(async (a) => {
        // Any machine of its cluster that is up reaches the storage that holds it (its own host may be
        // gone: a Slurm pilot of the run that was killed, say).
        const clusterId = a.cluster ?? this.d.hosts.find(a.host)?.info.clusterId;
        const c = clusterId !== undefined ? this.d.clusters.find(clusterId) : undefined;
        const e = c ? this.d.clusters.someMachineUp(c) : undefined;
        const task = this.d.sweep.tasks[a.work];
        if (!e || !task || !this.d.works.remaining.has(a.work)) return;
        const workKey = `w${a.work}.a${a.attempt}`;
        try {
          if (!(await e.adopt(a.runId, workKey))) return;
          const outputs = await reportedOutputs(e, workKey, task.outputs.map((o) => o.path));
          if (!outputs) return;
          this.d.works.attempts.set(a.work, a.attempt);
          this.d.records.journalNote({ type: 'done', work: a.work, host: a.host, outputs });
          await this.d.fetchOutputs(e, { workKey, outputs });
          await this.d.records.journaled({ type: 'verified', work: a.work, host: a.host, argv: task.argv, outputs });
          void e.removeWork(workKey).catch(() => undefined);
          this.d.works.markFinished(a.work);
          collected.push(a.work);
          this.d.log({ kind: 'collected', work: a.work, host: a.host });
        } catch (err) {
          // not collected: the scheduler runs it again (unless the origin refused it: the run stops)
          if (err instanceof OriginWriteError) this.d.originFailed(err);
        }
      }),
    );
    return collected;
  }
}
