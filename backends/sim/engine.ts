// The discrete-event simulated grid (Berman et al. 1999, §7): a virtual clock, a future-event list, the grid's
// resources as FIFOs, and the grid OS the scheduler drives. The scheduler is reached only through its
// sched_* entry points; it acts only through GridOS, reads only InformationService and the Clock.
//
// Rules of the simulated grid, beyond the tie order documented in event-queue.ts:
// - A link carries one transfer at a time, inputs (origin → storage) and outputs (storage → origin)
//   alike; a host runs one computation at a time. Starting a second one is a scheduler bug: an Error.
// - Transfer: the latency of the link sample in force when the transfer starts is paid first (nothing
//   flows meanwhile; a behaviour change during it does not alter it), then the bytes flow at the link's
//   bandwidth, integrated over the piecewise-constant series. A Work's outputs go back in one transfer
//   (one latency, the sum of their sizes).
// - Computation: runTimeS[arch] work-seconds, done at the host's availability fraction, integrated.
// - A behaviour change mid-activity settles the progress made so far under the old series, then the
//   remaining work is computed from the new series, attached at the change time.
// - REMOVE_HOST aborts the computation on the host (no completion), then sched_host_failed.
//   REMOVE_CLUSTER aborts the transfer on its link and the computations of its hosts, takes the hosts
//   down, hides its storage, then sched_disk_failed. A re-added cluster finds its storage as it was
//   (files persist) but not its hosts: they come back only through ADD_HOST.
// - The application's Works reach the scheduler at time 0 (sched_new_work) before any grid event.
//   Hosts added at the same time are announced in one sched_new_host call.
// - The run record: the engine writes sub-task start/end and the grid events it applies; the scheduler
//   writes its sched_* calls, plans, work-done and work-failed (as it does on a real grid).
// - ADD_BATCH_CLUSTER adds a cluster whose hosts are the cores of the sweep's running pilot jobs
//   (batch-site.ts). A site's wake (the next job end or background submission) is a Failure-class event:
//   the hosts of pilots ending at t leave then (REMOVE_HOST, recorded), and the hosts of pilots starting
//   at t are added as ADD_HOST events at t, announced with the other additions of t.
import type { Application, FileId, WorkId } from '../../src/model/application.js';
import type { ClusterId, GridDescription, GridEvent, HostId } from '../../src/model/grid.js';
import { DEFAULT_SAMPLE_PERIOD_S } from '../../src/model/grid.js';
import type { Capability, GridOS } from '../../src/interfaces/grid-os.js';
import type { HostInfo, InformationService } from '../../src/interfaces/information.js';
import type { SchedulerEvents } from '../../src/interfaces/scheduler-events.js';
import type { RecordSink, ResourceRef, SubtaskKind } from '../../src/record/events.js';
import { BehaviorLibrary } from './behaviors.js';
import { EventKind, EventQueue } from './event-queue.js';
import { Activity, SimCluster, SimHost, type HistoryEntry } from './grid-state.js';
import { gridEventKind, validateGrid } from './grid-validation.js';
import { Attachment } from './rate-series.js';
import { SimInformation } from './sim-information.js';
import { VirtualClock, type TimerEntry } from './virtual-clock.js';
import { BatchSite, type BatchSiteOutcome } from './batch-site.js';
import { DEFAULT_SUBMISSION, type SubmissionOptions } from '../../src/batch/submission.js';

export interface SimEngineOptions {
  readonly app: Application;
  readonly grid: GridDescription;
  /** Spacing of behaviour samples in seconds (default 5). */
  readonly samplePeriodS?: number;
  readonly record?: RecordSink;
  /** How the sweep submits jobs to batch clusters (default DEFAULT_SUBMISSION). */
  readonly submission?: SubmissionOptions;
}

/**
 * How many scheduler timers in a row may fire while nothing can progress (no transfer or computation
 * due to finish, no grid event to come) and start nothing, before the run is declared stuck. A few are
 * allowed because a do_plan with a simulated duration takes two timers (start, then apply).
 */
export const MAX_IDLE_TIMER_FIRINGS = 4;

export interface ResourceTotals {
  readonly id: string;
  readonly cluster: string;
  readonly busyS: number;
}
export interface LinkTotals extends ResourceTotals {
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly transfers: number;
}

export interface EngineOutcome {
  /** Every Work's outputs reached the origin. */
  readonly finished: boolean;
  /** finished: when the last output reached the origin; otherwise when the run stopped. */
  readonly endS: number;
  readonly worksDone: number;
  readonly worksTotal: number;
  readonly hosts: readonly ResourceTotals[];
  readonly links: readonly LinkTotals[];
  readonly fileSends: readonly number[];
  readonly failures: number;
  readonly reexecutions: number;
  readonly events: number;
  /** One per batch cluster, in the order they were added. */
  readonly batch: readonly BatchSiteOutcome[];
}

/** A batch site's next wake in the event queue. */
class BatchWake {
  constructor(
    readonly site: BatchSite,
    /** The site's wakeVersion when it asked; a later advance() makes this wake stale. */
    readonly version: number,
  ) {}
}

type QueueItem = Activity | GridEvent | TimerEntry | BatchWake;

export class SimEngine {
  readonly clock: VirtualClock;
  readonly gridOS: GridOS;
  readonly info: InformationService;
  readonly samplePeriodS: number;

  private readonly app: Application;
  private readonly record: RecordSink | undefined;
  private readonly queue = new EventQueue<QueueItem>();
  private readonly behaviors: BehaviorLibrary;
  private scheduler: SchedulerEvents | undefined;

  /** Every cluster and host ever added, in order of first appearance. */
  readonly clusters = new Map<ClusterId, SimCluster>();
  readonly hosts = new Map<HostId, SimHost>();

  /** Per file, how many times it crossed a link as an input (an array of numbers only in the outcome). */
  private readonly fileSends: Uint32Array;
  private readonly workStarted: Uint8Array;
  private readonly workDone: Uint8Array;
  private worksDone = 0;
  private failures = 0;
  private reexecutions = 0;
  private events = 0;
  private lastOutputS = 0;
  private nextSubtaskId = 0;
  /** Completion events in the queue that are still live (not superseded or aborted). */
  private liveCompletions = 0;
  private pendingGridEvents = 0;
  private ran = false;
  /** Scheduler timers fired in a row while nothing could progress (MAX_IDLE_TIMER_FIRINGS). */
  private idleTimerStreak = 0;
  /** Set when that streak reached its limit: the run can make no more progress. */
  private stalled = false;
  private readonly submission: SubmissionOptions;
  private readonly batchSites: BatchSite[] = [];
  /** The batch site whose job a host is a core of. */
  private readonly siteOfHost = new Map<HostId, BatchSite>();
  /** Hosts that take no new Work (a per-Work job whose Work is computed): InformationService.hostIsLeaving. */
  readonly leavingHosts = new Set<HostId>();
  /** Pilot hosts on a gang-scheduled batch cluster: the share of their core they get now. */
  private readonly shareOfHost = new Map<HostId, number>();
  /** Works computed whose outputs have not reached the origin yet (the batch sites count Works to compute). */
  private awaitingOutput = 0;
  private readonly computedNotDone: Uint8Array;
  /** Bumped whenever the set of up resources changes (the information service caches the topology). */
  topologyVersion = 0;

  constructor(options: SimEngineOptions) {
    validateGrid(options.grid, options.app);
    this.app = options.app;
    this.record = options.record;
    this.samplePeriodS = options.samplePeriodS ?? DEFAULT_SAMPLE_PERIOD_S;
    this.submission = options.submission ?? DEFAULT_SUBMISSION;
    if (!(this.samplePeriodS > 0 && Number.isFinite(this.samplePeriodS)))
      throw new Error(`sample period must be a positive number of seconds, got ${this.samplePeriodS}`);
    this.behaviors = new BehaviorLibrary(options.grid, this.samplePeriodS);
    this.clock = new VirtualClock((atS, entry) => this.queue.push(atS, EventKind.Timer, entry));
    this.fileSends = new Uint32Array(this.app.files.length);
    this.workStarted = new Uint8Array(this.app.works.length);
    this.workDone = new Uint8Array(this.app.works.length);
    this.computedNotDone = new Uint8Array(this.app.works.length);
    // Pushed in file order: the queue's sequence numbers keep file order among same-time, same-class events.
    for (const e of options.grid.events) this.queue.push(e.timeS, gridEventKind(e), e);
    this.pendingGridEvents = options.grid.events.length;
    this.gridOS = {
      store: (fileId, clusterId) => this.store(fileId, clusterId),
      remove: (capability) => this.remove(capability),
      compute: (workId, hostId) => this.compute(workId, hostId),
      retrieve: (workId, hostId) => this.retrieve(workId, hostId),
      cancel: (workId, hostId) => this.cancel(workId, hostId),
    };
    this.info = new SimInformation(this);
  }

  private get now(): number {
    return this.clock.nowS();
  }

  // ---- the run ----------------------------------------------------------------------------------------

  run(scheduler: SchedulerEvents): EngineOutcome {
    this.begin(scheduler);
    this.advance(Infinity);
    return this.finish();
  }

  /** Begins a run to be driven in steps: advance() until it returns false, then finish(). */
  begin(scheduler: SchedulerEvents): void {
    if (this.ran) throw new Error('SimEngine.run: an engine runs once');
    this.ran = true;
    this.scheduler = scheduler;
    scheduler.sched_new_work(this.app.works);
  }

  /** The simulated time, the Works done and the events so far (for a progress display). */
  progress(): { readonly nowS: number; readonly worksDone: number; readonly worksTotal: number; readonly events: number } {
    return { nowS: this.now, worksDone: this.worksDone, worksTotal: this.app.works.length, events: this.events };
  }

  /**
   * Processes events until the run is over or at least `maxEvents` more have been counted; true while
   * there is more to do. Steps of any size give the same run as one step.
   */
  advance(maxEvents: number): boolean {
    const scheduler = this.scheduler!;
    const total = this.app.works.length;
    const q = this.queue;
    const stopAt = this.events + maxEvents;
    while (this.worksDone < total && q.size > 0 && !this.stalled) {
      if (this.events >= stopAt) return true;
      const t = q.peekTime();
      const kind = q.peekKind()!;
      const seq = q.peekSeq();
      const item = q.peekItem()!;
      q.pop();
      if (kind === EventKind.Completion) {
        const a = item as Activity;
        if (a.over || a.eventSeq !== seq) continue; // superseded by a behaviour change, or aborted
        this.clock.advanceTo(t);
        this.events++;
        this.idleTimerStreak = 0;
        this.complete(a);
      } else if (kind === EventKind.Timer) {
        const fn = this.clock.take(item as TimerEntry);
        if (!fn) continue; // cancelled
        this.clock.advanceTo(t);
        this.events++;
        const idleBefore = this.liveCompletions === 0 && this.pendingGridEvents === 0;
        fn();
        if (idleBefore && this.liveCompletions === 0 && this.pendingGridEvents === 0) {
          if (++this.idleTimerStreak >= MAX_IDLE_TIMER_FIRINGS) this.stalled = true;
        } else this.idleTimerStreak = 0;
      } else if (item instanceof BatchWake) {
        this.pendingGridEvents--;
        if (item.version !== item.site.wakeVersion) continue; // the site moved on since (a per-Work job ended)
        this.clock.advanceTo(t);
        this.events++;
        this.idleTimerStreak = 0;
        item.site.advance();
      } else {
        this.clock.advanceTo(t);
        this.events++;
        this.pendingGridEvents--;
        this.idleTimerStreak = 0;
        if (kind === EventKind.Addition) {
          const added: HostInfo[] = [];
          this.applyAddition(item as GridEvent, added);
          while (q.peekKind() === EventKind.Addition && q.peekTime() === t) {
            const next = q.peekItem() as GridEvent;
            q.pop();
            this.events++;
            this.pendingGridEvents--;
            this.applyAddition(next, added);
          }
          if (added.length > 0) scheduler.sched_new_host(added);
        } else if (kind === EventKind.Failure) {
          this.applyFailure(item as GridEvent);
        } else {
          this.applyBehaviorChange(item as GridEvent);
        }
      }
    }
    return false;
  }

  /** Ends the run that advance() has driven to its end: cuts off what still runs, and sums it up. */
  finish(): EngineOutcome {
    const total = this.app.works.length;
    const finished = this.worksDone === total;
    const endS = finished ? this.lastOutputS : this.now;
    // Whatever still runs (a duplicate, a pre-staged file, an activity that can never progress) is cut off.
    for (const c of this.clusters.values()) if (c.linkActivity) this.abort(c.linkActivity);
    for (const h of this.hosts.values()) if (h.activity) this.abort(h.activity);
    return {
      finished,
      endS,
      worksDone: this.worksDone,
      worksTotal: total,
      hosts: [...this.hosts.values()].map((h) => ({ id: h.id, cluster: h.cluster.id, busyS: h.busyS })),
      links: [...this.clusters.values()].map((c) => ({
        id: c.id,
        cluster: c.id,
        busyS: c.busyS,
        bytesIn: c.bytesIn,
        bytesOut: c.bytesOut,
        transfers: c.transfers,
      })),
      fileSends: numbers(this.fileSends),
      failures: this.failures,
      reexecutions: this.reexecutions,
      events: this.events,
      batch: this.batchSites.map((s) => s.outcome()),
    };
  }

  // ---- grid events ------------------------------------------------------------------------------------

  private recordGrid(e: GridEvent): void {
    if (this.record) {
      const { pos: _pos, ...event } = e;
      this.record({ type: 'grid', t: this.now, event: event as GridEvent });
    }
  }

  private applyAddition(e: GridEvent, added: HostInfo[]): void {
    this.recordGrid(e);
    if (e.kind === 'ADD_CLUSTER' || e.kind === 'ADD_BATCH_CLUSTER') {
      let c = this.clusters.get(e.cluster);
      if (!c) {
        c = new SimCluster(e.cluster, this.clusters.size, this.app.files.length, this.app.works.length);
        this.clusters.set(e.cluster, c);
      }
      c.up = true;
      this.attachLink(c, e.behavior, e.offset);
      if (e.kind === 'ADD_BATCH_CLUSTER') this.addBatchSite(e);
    } else if (e.kind === 'ADD_HOST') {
      const cluster = this.clusters.get(e.cluster)!;
      let h = this.hosts.get(e.host);
      if (!h) {
        h = new SimHost(e.host, cluster, e.arch, this.hosts.size);
        this.hosts.set(e.host, h);
      } else if (h.cluster !== cluster || h.arch !== e.arch) {
        h.cluster = cluster;
        h.arch = e.arch;
        h.info = { id: h.id, clusterId: cluster.id, arch: e.arch };
      }
      if (e.leavesAtS !== undefined) h.info = { ...h.info, leavesAtS: e.leavesAtS };
      if (!cluster.hosts.includes(h)) cluster.hosts.push(h);
      h.up = true;
      this.attachHost(h, e.behavior, e.offset);
      added.push(h.info);
    }
    this.topologyVersion++;
  }

  // ---- batch clusters ------------------------------------------------------------------------------------

  private addBatchSite(e: Extract<GridEvent, { kind: 'ADD_BATCH_CLUSTER' }>): void {
    const site = new BatchSite(e, this.submission, {
      nowS: () => this.now,
      wakeAt: (s, atS) => {
        this.queue.push(atS, EventKind.Failure, new BatchWake(s, s.wakeVersion));
        this.pendingGridEvents++;
      },
      pilotStarted: (s, hosts, leavesAtS) => {
        for (const host of hosts) {
          this.siteOfHost.set(host, s);
          this.queue.push(this.now, EventKind.Addition, { kind: 'ADD_HOST', timeS: this.now, cluster: s.id, host, behavior: s.event.hostBehavior, offset: 0, arch: s.event.arch, leavesAtS });
          this.pendingGridEvents++;
        }
      },
      pilotShare: (s, hosts, share) => {
        for (const host of hosts) {
          this.shareOfHost.set(host, share);
          const h = this.hosts.get(host);
          if (h === undefined || !h.up || h.attachment === undefined) continue; // its ADD_HOST is still queued
          // As CHANGE_HOST_BEHAVIOR: the host's speed changes now, and the information service reports it.
          const a = h.activity;
          if (a) this.settle(a, h.attachment);
          const old = h.attachment;
          this.attachHost(h, s.event.hostBehavior, old.offset + Math.floor((this.now - old.startS) / old.series.periodS + 1e-9));
          if (a) this.scheduleCompletion(a);
        }
      },
      pilotEnded: (_s, hosts) => {
        const used = hosts.some((host) => this.hosts.get(host)!.computesDone > 0);
        for (const host of hosts) {
          this.shareOfHost.delete(host);
          this.siteOfHost.delete(host);
          this.applyFailure({ kind: 'REMOVE_HOST', timeS: this.now, host });
          this.leavingHosts.delete(host);
        }
        return used;
      },
      worksLeft: () => this.app.works.length - this.worksDone - this.awaitingOutput,
      ...(this.record ? { record: this.record } : {}),
    });
    this.batchSites.push(site);
    site.advance();
  }

  private applyFailure(e: GridEvent): void {
    this.recordGrid(e);
    const scheduler = this.scheduler!;
    if (e.kind === 'REMOVE_HOST') {
      const h = this.hosts.get(e.host)!;
      if (!h.up) return; // already down (e.g. with its cluster)
      this.takeHostDown(h);
      this.topologyVersion++;
      scheduler.sched_host_failed([h.id]);
    } else if (e.kind === 'REMOVE_CLUSTER') {
      const c = this.clusters.get(e.cluster)!;
      if (!c.up) return;
      if (c.linkActivity) this.abort(c.linkActivity);
      for (const h of c.hosts) if (h.up) this.takeHostDown(h);
      c.up = false;
      // Outputs waiting in its storage are lost: those Works are to compute again.
      for (const w of c.computedWorks) {
        if (this.computedNotDone[w] === 1) {
          this.computedNotDone[w] = 0;
          this.awaitingOutput--;
        }
      }
      this.closeHistory(c.linkHistory);
      this.topologyVersion++;
      scheduler.sched_disk_failed([c.id]);
    }
  }

  private takeHostDown(h: SimHost): void {
    const a = h.activity;
    if (a) {
      this.abort(a);
      this.failures++;
    }
    h.up = false;
    this.closeHistory(h.history);
  }

  private applyBehaviorChange(e: GridEvent): void {
    this.recordGrid(e);
    if (e.kind === 'CHANGE_HOST_BEHAVIOR') {
      const h = this.hosts.get(e.host)!;
      const a = h.activity;
      if (a) this.settle(a, h.attachment!);
      this.attachHost(h, e.behavior, e.offset);
      if (a) this.scheduleCompletion(a);
    } else if (e.kind === 'CHANGE_CLUSTER_BEHAVIOR') {
      const c = this.clusters.get(e.cluster)!;
      const a = c.linkActivity;
      if (a) this.settle(a, c.linkAttachment!);
      this.attachLink(c, e.behavior, e.offset);
      if (a) this.scheduleCompletion(a);
    }
  }

  private attachLink(c: SimCluster, behavior: string, offset: number): void {
    const s = this.behaviors.link(behavior);
    c.linkAttachment = new Attachment(s.bandwidth, this.now, offset);
    c.linkLatencyS = s.latencyS;
    if (c.up) this.openHistory(c.linkHistory, { attachment: c.linkAttachment, values: s.bandwidth.rates, latencyMs: s.latencyMs, endS: Infinity });
  }

  private attachHost(h: SimHost, behavior: string, offset: number): void {
    const share = this.shareOfHost.get(h.id);
    const s = share === undefined ? this.behaviors.host(behavior) : this.behaviors.sharedHost(behavior, share);
    h.attachment = new Attachment(s, this.now, offset);
    if (h.up) this.openHistory(h.history, { attachment: h.attachment, values: s.rates, endS: Infinity });
  }

  private openHistory(history: HistoryEntry[], entry: HistoryEntry): void {
    this.closeHistory(history);
    history.push(entry);
  }

  private closeHistory(history: HistoryEntry[]): void {
    const last = history[history.length - 1];
    if (last && last.endS === Infinity) last.endS = this.now;
  }

  // ---- activities -------------------------------------------------------------------------------------

  private attachmentOf(a: Activity): Attachment {
    return a.kind === 'compute' ? a.host!.attachment! : a.cluster.linkAttachment!;
  }

  /** Counts the progress made up to now under `attachment` (the series in force until now). */
  private settle(a: Activity, attachment: Attachment): void {
    const t = this.now;
    if (t <= a.sinceS) return; // still paying latency, or no time passed
    a.remaining = Math.max(0, a.remaining - attachment.integral(a.sinceS, t));
    a.sinceS = t;
  }

  private scheduleCompletion(a: Activity): void {
    if (a.eventSeq >= 0) this.liveCompletions--; // the queued event goes stale
    a.endS = this.attachmentOf(a).finishTime(a.sinceS, a.remaining);
    if (a.endS === Infinity) {
      a.eventSeq = -1;
      return;
    }
    a.eventSeq = this.queue.push(a.endS, EventKind.Completion, a);
    this.liveCompletions++;
  }

  private start(kind: SubtaskKind, cluster: SimCluster, host: SimHost | null, subject: number, amount: number, sizeBytes: number): Activity {
    const now = this.now;
    const latencyS = kind === 'compute' ? 0 : cluster.linkLatencyS[cluster.linkAttachment!.sampleIndexAt(now)]!;
    const a = new Activity(kind, this.nextSubtaskId++, cluster, host, subject, now, now + latencyS, amount, sizeBytes);
    if (kind === 'compute') host!.activity = a;
    else cluster.linkActivity = a;
    if (this.record) {
      const resource: ResourceRef =
        kind === 'compute' ? { type: 'host', host: host!.id, cluster: cluster.id } : { type: 'link', cluster: cluster.id };
      if (kind === 'input') this.record({ type: 'start', t: now, id: a.recordId, kind, resource, file: subject, sizeBytes });
      else if (kind === 'output') this.record({ type: 'start', t: now, id: a.recordId, kind, resource, work: subject, sizeBytes });
      else this.record({ type: 'start', t: now, id: a.recordId, kind, resource, work: subject });
    }
    this.scheduleCompletion(a);
    return a;
  }

  private finishActivity(a: Activity, ok: boolean): void {
    if (a.eventSeq >= 0) this.liveCompletions--;
    a.eventSeq = -1;
    a.over = true;
    const busy = this.now - a.startS;
    if (a.kind === 'compute') {
      a.host!.busyS += busy;
      a.host!.activity = null;
    } else {
      a.cluster.busyS += busy;
      a.cluster.linkActivity = null;
    }
    if (this.record) this.record({ type: 'end', t: this.now, id: a.recordId, ok });
  }

  private abort(a: Activity): void {
    this.finishActivity(a, false);
  }

  private complete(a: Activity): void {
    this.finishActivity(a, true);
    const scheduler = this.scheduler!;
    const c = a.cluster;
    if (a.kind === 'input') {
      c.storage.add(a.subject);
      c.bytesIn += a.sizeBytes;
      c.transfers++;
      this.fileSends[a.subject]!++;
      scheduler.sched_fileTransfer_done({ kind: 'input', fileId: a.subject, clusterId: c.id });
    } else if (a.kind === 'compute') {
      const work = this.app.works[a.subject]!;
      c.computedWorks.add(work.id);
      a.host!.computesDone++;
      for (const f of work.outputs) c.storage.add(f);
      if (this.workDone[work.id] === 0 && this.computedNotDone[work.id] === 0) {
        this.computedNotDone[work.id] = 1;
        this.awaitingOutput++;
      }
      // A per-Work job's core takes no other Work: it leaves once the scheduler knows this one is computed.
      const site = this.siteOfHost.size === 0 ? undefined : this.siteOfHost.get(a.host!.id);
      const oneWork = site?.endsAfterOneWork(a.host!.id) === true;
      if (oneWork) this.leavingHosts.add(a.host!.id);
      scheduler.sched_work_done([work.id], a.host!.id);
      if (oneWork) site!.workComputedOn(a.host!.id);
    } else {
      c.bytesOut += a.sizeBytes;
      c.transfers++;
      const w = a.subject;
      if (this.workDone[w] === 0) {
        this.workDone[w] = 1;
        this.worksDone++;
        this.lastOutputS = this.now;
      }
      if (this.computedNotDone[w] === 1) {
        this.computedNotDone[w] = 0;
        this.awaitingOutput--;
      }
      scheduler.sched_fileTransfer_done({ kind: 'output', workId: w, clusterId: c.id });
    }
  }

  // ---- port (2): the grid OS ------------------------------------------------------------------------------

  private upCluster(op: string, clusterId: ClusterId): SimCluster {
    const c = this.clusters.get(clusterId);
    if (!c) throw new Error(`GridOS.${op}: no cluster '${clusterId}' was ever added (scheduler bug)`);
    if (!c.up) throw new Error(`GridOS.${op}: cluster '${clusterId}' is down at t=${this.now} (scheduler bug)`);
    return c;
  }

  private idleLink(op: string, c: SimCluster): void {
    const busy = c.linkActivity;
    if (busy)
      throw new Error(
        `GridOS.${op}: FIFO violation: the link of cluster '${c.id}' is busy at t=${this.now} with ${describe(busy)} ` +
          `(started at t=${busy.startS}); a link carries one transfer at a time (scheduler bug)`,
      );
  }

  private knownHost(op: string, hostId: HostId): SimHost {
    const h = this.hosts.get(hostId);
    if (!h) throw new Error(`GridOS.${op}: no host '${hostId}' was ever added (scheduler bug)`);
    return h;
  }

  private store(fileId: FileId, clusterId: ClusterId): Capability {
    const c = this.upCluster('store', clusterId);
    const file = this.app.files[fileId];
    if (!file) throw new Error(`GridOS.store: no file ${fileId} in the application (scheduler bug)`);
    this.idleLink('store', c);
    this.start('input', c, null, fileId, file.sizeBytes, file.sizeBytes);
    // "<file>@<cluster>": names the copy without a table entry per stored file.
    return `${fileId}@${clusterId}`;
  }

  private remove(capability: Capability): void {
    const at = capability.indexOf('@');
    const fileId = Number(capability.slice(0, at));
    const cluster = at > 0 ? this.clusters.get(capability.slice(at + 1)) : undefined;
    if (!cluster || !Number.isInteger(fileId) || !this.app.files[fileId])
      throw new Error(`GridOS.remove: unknown capability '${capability}' (scheduler bug)`);
    // A copy still on its way is stopped; a stored one is deleted.
    const a = cluster.linkActivity;
    if (a && a.kind === 'input' && a.subject === fileId) this.abort(a);
    cluster.storage.delete(fileId);
  }

  private compute(workId: WorkId, hostId: HostId): void {
    const h = this.knownHost('compute', hostId);
    if (!h.up) throw new Error(`GridOS.compute: host '${hostId}' is down at t=${this.now} (scheduler bug)`);
    const work = this.app.works[workId];
    if (!work) throw new Error(`GridOS.compute: no work ${workId} in the application (scheduler bug)`);
    if (h.activity)
      throw new Error(
        `GridOS.compute: FIFO violation: host '${hostId}' is busy at t=${this.now} with ${describe(h.activity)} ` +
          `(started at t=${h.activity.startS}); a host runs one computation at a time (scheduler bug)`,
      );
    const c = h.cluster;
    for (const f of work.inputs)
      if (!c.storage.has(f))
        throw new Error(
          `GridOS.compute: work ${workId} on host '${hostId}' needs file ${f}, which is not in cluster '${c.id}' storage at t=${this.now} (scheduler bug)`,
        );
    const runTimeS = work.runTimeS[h.arch];
    if (runTimeS === undefined) throw new Error(`GridOS.compute: work ${workId} has no run time for architecture ${h.arch}`);
    if (this.workStarted[workId]) this.reexecutions++;
    this.workStarted[workId] = 1;
    this.start('compute', c, h, workId, runTimeS, 0);
  }

  private retrieve(workId: WorkId, hostId: HostId): void {
    const h = this.knownHost('retrieve', hostId);
    const c = this.upCluster('retrieve', h.cluster.id);
    const work = this.app.works[workId];
    if (!work) throw new Error(`GridOS.retrieve: no work ${workId} in the application (scheduler bug)`);
    if (!c.computedWorks.has(workId))
      throw new Error(
        `GridOS.retrieve: the outputs of work ${workId} are not in cluster '${c.id}' storage at t=${this.now}: its computation has not ended there (scheduler bug)`,
      );
    this.idleLink('retrieve', c);
    let sizeBytes = 0;
    for (const f of work.outputs) sizeBytes += this.app.files[f]!.sizeBytes;
    this.start('output', c, h, workId, sizeBytes, sizeBytes);
  }

  private cancel(workId: WorkId, hostId: HostId): void {
    const h = this.knownHost('cancel', hostId);
    const a = h.activity;
    if (!a || a.subject !== workId)
      throw new Error(`GridOS.cancel: work ${workId} is not running on host '${hostId}' at t=${this.now} (scheduler bug)`);
    this.abort(a);
  }
}

/** The counts as an array of numbers of exactly their length (Array.from leaves room to grow). */
function numbers(counts: Uint32Array): number[] {
  const out = new Array<number>(counts.length);
  for (let i = 0; i < counts.length; i++) out[i] = counts[i]!;
  return out;
}

function describe(a: Activity): string {
  if (a.kind === 'input') return `the input transfer of file ${a.subject}`;
  if (a.kind === 'output') return `the output transfer of work ${a.subject}`;
  return `the computation of work ${a.subject}`;
}
