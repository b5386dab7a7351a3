// A batch-managed cluster inside the simulated grid: the batch core (src/batch/batch-cluster.ts) fed with
// the background workload's jobs and the sweep's pilots. The engine owns the clock: it wakes the site at
// the next job end or background submission, and turns pilots into hosts — each core of a pilot that
// starts becomes a host (ADD_HOST), each pilot that ends takes its hosts away (REMOVE_HOST).
// Background jobs' submit times count from the simulation's time 0 (plus the workload's offset); those
// due before the cluster appears join its queue when it does. On a mesh or torus a pilot holds whole nodes,
// and every core of them becomes a host. With gang:MPL the core is src/batch/gang-cluster.ts and a pilot's
// hosts run at the share of their cores it gets (pilotShare), changed whenever the rows in use change.
import { BatchCluster, type ScheduleObserver } from '../../src/batch/batch-cluster.js';
import { GangCluster } from '../../src/batch/gang-cluster.js';
import { createPlacement, machineOf } from '../../src/batch/cluster-setup.js';
import type { BatchJob, StartedJob } from '../../src/batch/job.js';
import type { JobMetricsSummary } from '../../src/batch/job-metrics.js';
import { getBatchPolicy } from '../../src/batch/policies/registry.js';
import { IdlePilots, type SubmissionOptions } from '../../src/batch/submission.js';
import { SwfWorkload } from '../../src/batch/swf/workload.js';
import type { AddBatchCluster, HostId } from '../../src/model/grid.js';
import type { BatchJobRecord } from '../../src/record/events.js';

export interface BatchSiteHooks {
  nowS(): number;
  /** Wake the site at `atS` (one wake at a time). */
  wakeAt(site: BatchSite, atS: number): void;
  /** A pilot's cores join as hosts, until `leavesAtS` (the walltime's end). */
  pilotStarted(site: BatchSite, hosts: readonly HostId[], leavesAtS: number): void;
  /**
   * Gang scheduling: a pilot's hosts now get `share` of their cores (set before its hosts join, and again
   * whenever the rows in use change).
   */
  pilotShare(site: BatchSite, hosts: readonly HostId[], share: number): void;
  /** A pilot's hosts leave; true if some Work was computed on them. */
  pilotEnded(site: BatchSite, hosts: readonly HostId[]): boolean;
  /** How many Works of the sweep are still to compute (not done, and not computed with outputs on their way). */
  worksLeft(): number;
  /** The run record's sink, when the run is recorded: every job's submit, first reservation, start, end. */
  readonly record?: (e: BatchJobRecord) => void;
}

export interface BatchSiteOutcome {
  readonly cluster: string;
  readonly nodes: number;
  readonly coresPerNode: number;
  readonly policy: string;
  readonly allocator: string;
  /** Gang-scheduled clusters only: their MPL. */
  readonly gangMpl?: number;
  /** Every job that ended on the cluster, background and pilots alike. */
  readonly metrics: JobMetricsSummary;
  readonly backgroundJobsSkipped: number;
  readonly pilotsSubmitted: number;
  readonly pilotsStarted: number;
  /** Mean wait of the pilots that started. */
  readonly pilotMeanWaitS: number;
  /** The site stopped submitting pilots: too many in a row ended with no Work computed on them. */
  readonly pilotsGivenUp: boolean;
}

/** Pilot jobs are numbered -1, -2, … so that they never collide with a workload's job numbers. */
const PILOT_USER = -2;

export class BatchSite {
  /** Space-shared, or gang-scheduled with `gang:MPL` (pilots then share their cores with other jobs). */
  readonly cluster: BatchCluster | GangCluster;
  private readonly workload: SwfWorkload | undefined;
  private nextBackground: BatchJob | undefined;
  private readonly pilotCores: number;
  private pilotsLive = 0;
  private pilotsSubmitted = 0;
  private pilotsStarted = 0;
  private pilotWaitS = 0;
  private readonly hostsOfPilot = new Map<number, HostId[]>();
  /** Waiting jobs whose first reservation is recorded (a policy renews them at every dispatch). */
  private readonly reserved = new Set<number>();
  /** Pilots in a row that ended with no Work computed on them: past the limit none is submitted (src/batch/submission.ts). */
  private readonly idlePilots: IdlePilots;
  /** Bumped at every wake scheduled: the engine skips the wakes an earlier advance() left behind. */
  wakeVersion = 0;
  private readonly perWork: boolean;
  private readonly jobOfHost = new Map<HostId, number>();

  constructor(
    readonly event: AddBatchCluster,
    private readonly submission: SubmissionOptions,
    private readonly hooks: BatchSiteHooks,
  ) {
    const cores = event.nodes * event.coresPerNode;
    this.perWork = submission.strategy === 'per-work';
    this.pilotCores = this.perWork ? 1 : (submission.pilotCores ?? event.coresPerNode);
    this.idlePilots = new IdlePilots(submission.pilots);
    if (this.pilotCores > cores) throw new Error(`pilots of ${this.pilotCores} cores cannot run on batch cluster '${event.cluster}' (${cores} cores)`);
    const shape = { nodes: event.nodes, coresPerNode: event.coresPerNode };
    const observer: ScheduleObserver = {
      // Record events are built only when the run is recorded: a background workload has millions of jobs.
      submitted: (job) => {
        if (this.recording) this.note({ job: job.id, event: 'submit', cores: job.cores, requestedS: job.requestedS });
      },
      reserved: (job, startS) => {
        if (!this.recording || this.reserved.has(job.id)) return;
        this.reserved.add(job.id);
        this.note({ job: job.id, event: 'reserve', reservedS: startS });
      },
      started: (s) => {
        if (this.recording) {
          this.reserved.delete(s.job.id);
          this.note({ job: s.job.id, event: 'start', allocation: s.allocation });
        }
        this.started(s);
      },
      ended: (s) => {
        if (this.recording) this.note({ job: s.job.id, event: 'end', killed: s.killed });
        this.ended(s);
      },
    };
    if (event.gangMpl === undefined) {
      const placement = createPlacement(machineOf(event.machine ?? 'bag'), shape, event.allocator);
      this.cluster = new BatchCluster(shape, getBatchPolicy(event.policy), placement, observer);
    } else {
      this.cluster = new GangCluster(shape, event.gangMpl, { ...observer, shareChanged: (share) => this.shareChanged(share) });
    }
    if (event.workload !== undefined) {
      this.workload = new SwfWorkload(event.workload.path, event.workload.offsetS);
      this.workload.header();
      this.workload.limitCores(cores);
      this.nextBackground = this.workload.next();
    }
  }

  get id(): string {
    return this.event.cluster;
  }

  /** Moves the site to the engine's time: ends due jobs, submits due ones and pilots, dispatches. */
  advance(): void {
    const nowS = this.hooks.nowS();
    this.cluster.advanceTo(nowS);
    this.cluster.endDueJobs();
    while (this.nextBackground !== undefined && this.nextBackground.submitS <= nowS) {
      this.cluster.submit(this.nextBackground);
      this.nextBackground = this.workload!.next();
    }
    const left = this.hooks.worksLeft();
    const wanted = left === 0 ? 0 : this.perWork ? Math.min(this.submission.pilots, left) : this.submission.pilots;
    while (this.pilotsLive < wanted && !this.idlePilots.givenUp) this.submitPilot(nowS);
    this.cluster.dispatch();
    const nextS = Math.min(this.nextBackground?.submitS ?? Infinity, this.cluster.nextEndS());
    this.wakeVersion++;
    if (nextS < Infinity) this.hooks.wakeAt(this, nextS);
  }

  /** per-work: whether `host` is the core of a per-Work job (it ends once a Work is computed there). */
  endsAfterOneWork(host: HostId): boolean {
    return this.perWork && this.jobOfHost.has(host);
  }

  /** per-work: a Work was computed on `host`: its job ends now, and the site moves on. */
  workComputedOn(host: HostId): void {
    const job = this.jobOfHost.get(host);
    if (job === undefined || !this.perWork) return;
    this.cluster.advanceTo(this.hooks.nowS());
    this.cluster.endEarly(job);
    this.advance();
  }

  outcome(): BatchSiteOutcome {
    this.workload?.close();
    let skipped = 0;
    for (const n of this.workload?.skipped.counts.values() ?? []) skipped += n;
    const e = this.event;
    return {
      cluster: e.cluster,
      nodes: e.nodes,
      coresPerNode: e.coresPerNode,
      policy: e.policy,
      allocator: e.allocator,
      ...(e.gangMpl === undefined ? {} : { gangMpl: e.gangMpl }),
      metrics: this.cluster.summary(),
      backgroundJobsSkipped: skipped,
      pilotsSubmitted: this.pilotsSubmitted,
      pilotsStarted: this.pilotsStarted,
      pilotMeanWaitS: this.pilotsStarted === 0 ? 0 : this.pilotWaitS / this.pilotsStarted,
      pilotsGivenUp: this.idlePilots.givenUp,
    };
  }

  private get recording(): boolean {
    return this.hooks.record !== undefined;
  }

  private note(e: Omit<BatchJobRecord, 'type' | 't' | 'cluster'>): void {
    this.hooks.record!({ type: 'job', t: this.hooks.nowS(), cluster: this.id, ...e });
  }

  private submitPilot(nowS: number): void {
    this.pilotsSubmitted++;
    this.pilotsLive++;
    const walltimeS = this.submission.pilotWalltimeS;
    this.cluster.submit({ id: -this.pilotsSubmitted, submitS: nowS, runS: walltimeS, requestedS: walltimeS, cores: this.pilotCores, userId: PILOT_USER });
  }

  /** Gang: every running pilot's hosts get the new share. */
  private shareChanged(share: number): void {
    for (const hosts of this.hostsOfPilot.values()) this.hooks.pilotShare(this, hosts, share);
  }

  private started(s: StartedJob): void {
    if (s.job.id >= 0) return;
    this.pilotsStarted++;
    this.pilotWaitS += s.startS - s.job.submitS;
    const hosts = Array.from({ length: s.job.cores }, (_, k) => `${this.id}.${this.perWork ? 'job' : 'pilot'}${-s.job.id}.${k + 1}`);
    this.hostsOfPilot.set(s.job.id, hosts);
    for (const h of hosts) this.jobOfHost.set(h, s.job.id);
    // Gang: its hosts join at the share in force now (the end time passed on assumes it stays).
    if (this.cluster instanceof GangCluster) this.hooks.pilotShare(this, hosts, this.cluster.share);
    this.hooks.pilotStarted(this, hosts, s.endS);
  }

  private ended(s: StartedJob): void {
    if (s.job.id >= 0) return;
    this.pilotsLive--;
    const hosts = this.hostsOfPilot.get(s.job.id)!;
    this.hostsOfPilot.delete(s.job.id);
    for (const h of hosts) this.jobOfHost.delete(h);
    this.idlePilots.ended(this.hooks.pilotEnded(this, hosts));
  }
}
