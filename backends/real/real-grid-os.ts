// Ports (2) and (3) for real grids, over Endpoints (local processes or SSH hosts). It carries out the
// scheduler's store/compute/retrieve/cancel, journals each state change before acting on it, verifies
// outputs (size + SHA-256 against what the host reported: origin-outputs.ts) before a task counts as
// done, turns lost machines into sched_host_failed / sched_disk_failed (machine-connections.ts connects
// and reconnects them, and probes them: the heartbeat), finds the tasks that finished while their machine
// was out of reach, applies the retry policy to tasks that fail, and keeps the measurements (load,
// bandwidth, latency) it observes. A write the origin itself refuses (disk full, read-only...:
// origin-failure.ts) blames no host or cluster and runs nothing again: the run stops with it.
import { resolve } from 'node:path';
import type { Capability, GridOS } from '../../src/interfaces/grid-os.js';
import type { ClusterInfo, HostInfo, InformationService, Sample, Topology } from '../../src/interfaces/information.js';
import type { SchedulerEvents, WorkFailure } from '../../src/interfaces/scheduler-events.js';
import type { FileId, WorkId } from '../../src/model/application.js';
import type { ClusterId, GridEvent, HostId } from '../../src/model/grid.js';
import type { RecordSink, ResourceRef, SubtaskKind } from '../../src/record/events.js';
import type { ExpandedSweep } from '../../src/sweep/expand.js';
import { transferDeadlineS, type Deadlines } from '../transport/deadline.js';
import { GridMeasurements } from './grid-measurements.js';
import { EndpointDownError, type Endpoint, type LoadSample } from '../transport/endpoint.js';
import { fetchVerifiedOutputs, placeArrivedOutputs, reportedOutputs, type ReportedOutputs } from './origin-outputs.js';
import type { Journal, JournalInput, OutputFacts, UnfinishedAttempt } from './journal.js';
import { OriginWriteError } from './origin-failure.js';
import { MachineConnections, type ConnectionOptions } from './machine-connections.js';
import type { ProgressEvent } from '../transport/progress-events.js';
import type { RetryPolicy } from './retry-policy.js';
import type { TaskLogs } from './task-logs.js';
import type { WallClock } from './wall-clock.js';

export interface RealGridOptions extends ConnectionOptions {
  readonly sweep: ExpandedSweep;
  readonly clusters: readonly { readonly id: ClusterId; readonly endpoints: readonly Endpoint[] }[];
  readonly clock: WallClock;
  readonly record: RecordSink;
  readonly journal?: Journal;
  /** Where each task's standard output and error are kept (the end of each); none kept without it. */
  readonly taskLogs?: { readonly logs: TaskLogs; readonly keepBytes: number };
  readonly policy: RetryPolicy;
  readonly deadlines: Deadlines;
  /** Works the run must finish (a resumed run leaves out those already verified). */
  readonly works: readonly WorkId[];
  readonly log: (event: ProgressEvent) => void;
}

interface RunningWork {
  readonly work: WorkId;
  readonly workKey: string;
  readonly subtaskId: number;
  /** Sent to the host (a task cancelled before that has nothing to kill there). */
  sent: boolean;
}

interface HostState {
  readonly info: HostInfo;
  readonly endpoint: Endpoint;
  /** The scheduler currently counts this host as available. */
  announced: boolean;
  setAside: boolean;
  running?: RunningWork;
  /** Removed from the real grid file: finishes its running task, takes no new one, then leaves. */
  leaving: boolean;
  /** Has left the run for good (removed from the real grid file). */
  left: boolean;
}

interface ClusterState {
  readonly id: ClusterId;
  readonly endpoints: Endpoint[];
  /** The scheduler currently counts this cluster as up. */
  up: boolean;
  /** Bumped when the cluster goes down, so that transfers started before are forgotten. */
  epoch: number;
  readonly stored: Set<FileId>;
  linkBusy: boolean;
  linkSubtask?: number;
}

interface ComputedWork extends ReportedOutputs {
  readonly host: HostId;
}

/** A task attempt lost with its machine's (or cluster's) connection: it may finish on the host meanwhile. */
interface LostAttempt {
  readonly work: WorkId;
  readonly host: HostId;
  readonly workKey: string;
}

export class RealGridOS implements GridOS, InformationService {
  private events: SchedulerEvents | undefined;
  private readonly hosts = new Map<HostId, HostState>();
  private readonly clusters = new Map<ClusterId, ClusterState>();
  private readonly measured = new GridMeasurements();
  private readonly attempts = new Map<WorkId, number>();
  private readonly computed = new Map<WorkId, ComputedWork>();
  /** Per cluster, the attempts lost with a connection, looked for when a machine of the cluster comes back. */
  private readonly lostAttempts = new Map<ClusterId, LostAttempt[]>();
  private readonly finished = new Set<WorkId>();
  /** Works given up, each with why. */
  private readonly failedForGood = new Map<WorkId, string>();
  /** The stderr tail of each Work's last failed attempt (forgotten when it succeeds). */
  private readonly lastStderr = new Map<WorkId, string>();
  private readonly remaining: Set<WorkId>;
  private readonly connections: MachineConnections;
  /** Machines removed from the real grid file (they leave once their hosts are idle). */
  private readonly retired = new Set<Endpoint>();
  /** Machines added while another machine with the same host names is still leaving. */
  private pendingJoins: { readonly clusterId: ClusterId; readonly endpoint: Endpoint }[] = [];
  private nextSubtaskId = 1;
  private stopped = false;
  /** The first write the origin refused: the run stops with it. */
  private originFailure: OriginWriteError | undefined;
  private resolveFinished!: () => void;
  private rejectFinished!: (err: Error) => void;
  /** Resolves when every Work of the run is done (verified) or has failed for good. */
  readonly finishedPromise: Promise<void>;
  /** How many times each input was sent to each cluster (`file@cluster` → count). */
  readonly inputSends = new Map<string, number>();

  constructor(private readonly o: RealGridOptions) {
    this.remaining = new Set(o.works);
    this.connections = new MachineConnections(o, {
      answered: (e) => this.answered(e),
      wanted: (e) => !this.retired.has(e),
      probed: (e, sample, first) => this.probed(e, sample, first),
      log: o.log,
      internalError: (err) => this.internalError(err),
    });
    this.finishedPromise = new Promise((res, rej) => {
      this.resolveFinished = res;
      this.rejectFinished = rej;
    });
    // It may reject (the origin full, say) before the runner awaits it (while connecting): not unhandled.
    this.finishedPromise.catch(() => undefined);
    for (const c of o.clusters) {
      this.clusterState(c.id);
      for (const e of c.endpoints) this.register(c.id, e);
    }
    if (this.remaining.size === 0) this.resolveFinished();
    if (o.taskLogs) o.taskLogs.logs.onOriginFailure = (err) => this.originFailed(err);
  }

  private clusterState(id: ClusterId): ClusterState {
    let c = this.clusters.get(id);
    if (!c) {
      c = { id, endpoints: [], up: false, epoch: 0, stored: new Set(), linkBusy: false };
      this.clusters.set(id, c);
    }
    return c;
  }

  private register(clusterId: ClusterId, e: Endpoint): void {
    this.clusterState(clusterId).endpoints.push(e);
    for (const h of e.spec.hostIds) {
      const leaves = e.spec.kind === 'pilot' ? { leavesAtS: e.spec.leavesAtS } : {};
      this.hosts.set(h, { info: { id: h, clusterId, arch: e.spec.arch, ...leaves }, endpoint: e, announced: false, setAside: false, leaving: false, left: false });
    }
    e.onDown((reason) => this.endpointDown(e, reason));
  }

  // ---- life cycle --------------------------------------------------------------------------------

  /**
   * Connects every machine and returns when all have answered, or `startGraceS` after the first one is
   * up: the run starts without the slow ones, which join when they answer (machine-connections.ts).
   */
  connectAll(): Promise<void> {
    return this.connections.connectAll(() => [...this.clusters.values()].map((c) => c.endpoints));
  }

  /**
   * A machine that answered once the run was going (slower than the start, added to the real grid file,
   * or back after going down): probed, then its hosts offered to the scheduler. The attempts its cluster
   * lost with a connection that have finished since are looked for first, and count as computed there
   * instead of running again.
   */
  private async answered(e: Endpoint): Promise<void> {
    const sample = await e.probe().catch(() => undefined);
    if (sample) this.probed(e, sample, false);
    const finished = await this.findLostAttemptsEnded(e);
    // Before the scheduler is attached, announceAll() will offer every machine that is up.
    if (this.stopped || this.retired.has(e) || !e.isUp() || !this.events) return;
    const hosts = this.bringUp(e);
    if (hosts.length > 0) this.events.sched_new_host(hosts);
    this.recover(e.clusterId, finished);
  }

  private probed(e: Endpoint, sample: LoadSample, first: boolean): void {
    const t = this.o.clock.nowS();
    this.measured.probed(e.spec.hostIds, t, sample);
    if (first) this.measured.latencyProbed(e.clusterId, t, sample.rttMs);
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
        const clusterId = a.cluster ?? this.hosts.get(a.host)?.info.clusterId;
        const e = clusterId !== undefined ? this.clusters.get(clusterId)?.endpoints.find((x) => x.isUp()) : undefined;
        const task = this.o.sweep.tasks[a.work];
        if (!e || !task || !this.remaining.has(a.work)) return;
        const workKey = `w${a.work}.a${a.attempt}`;
        try {
          if (!(await e.adopt(a.runId, workKey))) return;
          const outputs = await reportedOutputs(e, workKey, task.outputs.map((o) => o.path));
          if (!outputs) return;
          this.attempts.set(a.work, a.attempt);
          this.journalNote({ type: 'done', work: a.work, host: a.host, outputs });
          await this.fetchOutputs(e, { workKey, outputs });
          await this.journaled({ type: 'verified', work: a.work, host: a.host, argv: task.argv, outputs });
          void e.removeWork(workKey).catch(() => undefined);
          this.markFinished(a.work);
          collected.push(a.work);
          this.o.log({ kind: 'collected', work: a.work, host: a.host });
        } catch (err) {
          // not collected: the scheduler runs it again (unless the origin refused it: the run stops)
          if (err instanceof OriginWriteError) this.originFailed(err);
        }
      }),
    );
    return collected;
  }

  /** Hands the grid to the scheduler: every machine that is up becomes available. */
  attach(events: SchedulerEvents): void {
    this.events = events;
  }

  announceAll(): void {
    const hosts = [...this.clusters.values()].flatMap((c) => c.endpoints.filter((e) => e.isUp()).flatMap((e) => this.bringUp(e)));
    if (hosts.length > 0) this.scheduler().sched_new_host(hosts);
  }

  /** Hosts whose machine is up (offered to the scheduler or about to be, by announceAll). */
  upHostCount(): number {
    return [...this.hosts.values()].filter((h) => h.endpoint.isUp() && !h.left).length;
  }

  /**
   * Ends the run's use of the grid: no more probes or reconnections, this run's files removed from the
   * storage (if `cleanStorage`), `beforeClose` run while the connections are still open (a Slurm cluster's
   * pilots are cancelled through its login node), then every connection closed.
   */
  async stop(cleanStorage: boolean, beforeClose?: () => Promise<void>): Promise<void> {
    this.stopped = true;
    this.connections.stop();
    const endpoints = [...this.clusters.values()].flatMap((c) => c.endpoints);
    if (cleanStorage) {
      for (const c of this.clusters.values()) {
        const e = c.endpoints.find((x) => x.isUp());
        if (e) await e.removeRunDir().catch(() => undefined);
      }
    }
    await beforeClose?.();
    await Promise.all(endpoints.map((e) => e.close().catch(() => undefined)));
  }

  /** The Works given up, each with why. */
  worksFailedForGood(): ReadonlyMap<WorkId, string> {
    return this.failedForGood;
  }

  /** The end of the standard error of Work `work`'s last attempt, when that attempt failed. */
  stderrTailOf(work: WorkId): string | undefined {
    return this.lastStderr.get(work);
  }

  /** Works not yet verified at the origin nor given up. */
  worksLeft(): number {
    return this.remaining.size;
  }

  worksDone(): ReadonlySet<WorkId> {
    return this.finished;
  }

  /**
   * Hosts a Work already failed on; the scheduler should place it elsewhere. Once it has failed on every
   * host of the run (those not gone for good), none is avoided: it is retried on them rather than waiting
   * for a host that does not exist (a run on 2 local slots would otherwise never end).
   */
  hostsToAvoid(work: WorkId): ReadonlySet<HostId> {
    const avoid = this.o.policy.hostsToAvoid(work);
    if (avoid.size === 0) return avoid;
    for (const h of this.hosts.values()) if (!h.left && !avoid.has(h.info.id)) return avoid;
    return NO_HOSTS;
  }

  /** Removed from the real grid file and still computing: the scheduler must start nothing more there. */
  hostIsLeaving(hostId: HostId): boolean {
    return this.hosts.get(hostId)?.leaving === true;
  }

  /** Removed from the real grid file and gone: unlike a host that failed, it will not come back. */
  hostRemoved(hostId: HostId): boolean {
    return this.hosts.get(hostId)?.left === true;
  }

  // ---- machines joining and leaving (edits of the real grid file) --------------------------------

  /**
   * A machine added to the real grid file, or a pilot job that started (`quiet`: its pool tells the user):
   * connect it, then offer its hosts to the scheduler (a re-plan).
   */
  join(clusterId: ClusterId, e: Endpoint, quiet = false): void {
    if (this.stopped) return;
    const namesInUse = e.spec.hostIds.some((id) => {
      const h = this.hosts.get(id);
      return h !== undefined && !h.left;
    });
    if (namesInUse) {
      // the machine it replaces (same host names) is still finishing its task
      this.pendingJoins.push({ clusterId, endpoint: e });
      return;
    }
    this.register(clusterId, e);
    if (!quiet) this.o.log({ kind: 'joining', machine: e.spec.name, cluster: clusterId });
    this.connections.connectLate(e);
  }

  /**
   * A machine removed from the real grid file, or a pilot whose time is up (`quiet`: its pool tells the
   * user). Its idle hosts leave at once (sched_host_failed); a host that is computing finishes that task
   * first (its outputs are kept and brought back), then leaves.
   */
  retire(clusterId: ClusterId, name: string, quiet = false): void {
    this.pendingJoins = this.pendingJoins.filter((p) => !(p.clusterId === clusterId && p.endpoint.spec.name === name));
    const c = this.clusters.get(clusterId);
    const e = c?.endpoints.find((x) => x.spec.name === name && !this.retired.has(x));
    if (!c || !e) return;
    this.retired.add(e);
    const running: WorkId[] = [];
    for (const id of e.spec.hostIds) {
      const h = this.host(id);
      h.leaving = true;
      if (h.running) running.push(h.running.work);
    }
    if (!quiet) this.o.log({ kind: 'leaving', machine: name, running });
    for (const id of e.spec.hostIds) {
      const h = this.host(id);
      if (!h.running) this.hostLeaves(h);
    }
    this.settleRetirements(c);
  }

  /**
   * A leaving host is idle: the scheduler learns it is gone for good (hostRemoved is now true), and gives
   * the Works queued on it back to the Works to do. A host it already counts as failed (down, reconnecting,
   * set aside, never reached) is reported again: the replay, which waits for a failed host to come back,
   * stops waiting for this one.
   */
  private hostLeaves(h: HostState): void {
    if (h.left) return;
    h.left = true;
    h.leaving = false;
    if (h.announced) {
      h.announced = false;
      this.gridEvent({ kind: 'REMOVE_HOST', host: h.info.id, timeS: this.o.clock.nowS() });
    }
    this.scheduler().sched_host_failed([h.info.id]);
  }

  /** After a task of `h` ended (done or failed): a leaving host leaves now. */
  private afterTask(h: HostState): void {
    if (!h.leaving || h.running) return;
    this.hostLeaves(h);
    this.settleRetirements(this.cluster(h.info.clusterId));
  }

  /**
   * Closes the removed machines whose hosts have all left. The last machine of a cluster stays until the
   * outputs computed there are back at the origin; then the cluster leaves (sched_disk_failed, with
   * nothing left in it to lose) and this run's files are removed from its storage.
   */
  private settleRetirements(c: ClusterState): void {
    const drained = (e: Endpoint): boolean => this.retired.has(e) && e.spec.hostIds.every((id) => this.host(id).left);
    const releasable = c.endpoints.filter(drained);
    if (releasable.length === 0) return;
    const clusterLeaves = releasable.length === c.endpoints.length;
    if (clusterLeaves) {
      const waiting = c.linkBusy || [...this.computed.values()].some((d) => this.host(d.host).info.clusterId === c.id);
      if (waiting) return;
    }
    const cleaner = clusterLeaves ? releasable.find((e) => e.isUp()) : undefined;
    for (const e of releasable) {
      c.endpoints.splice(c.endpoints.indexOf(e), 1);
      this.o.log({ kind: 'left', machine: e.spec.name });
      void (async () => {
        if (e === cleaner) await e.removeRunDir().catch(() => undefined);
        await e.close().catch(() => undefined);
      })();
    }
    if (clusterLeaves && c.up) {
      c.up = false;
      c.epoch++;
      c.stored.clear();
      this.gridEvent({ kind: 'REMOVE_CLUSTER', cluster: c.id, timeS: this.o.clock.nowS() });
      this.scheduler().sched_disk_failed([c.id]);
    }
    const waiting = this.pendingJoins;
    this.pendingJoins = [];
    for (const p of waiting) this.join(p.clusterId, p.endpoint);
  }

  // ---- port (3): information ---------------------------------------------------------------------

  topology(): Topology {
    const clusters: ClusterInfo[] = [...this.clusters.values()].filter((c) => c.up).map((c) => ({ id: c.id }));
    const hosts = [...this.hosts.values()].filter((h) => h.announced).map((h) => h.info);
    return { clusters, hosts };
  }

  storedFiles(clusterId: ClusterId): ReadonlySet<FileId> {
    const c = this.clusters.get(clusterId);
    return c && c.up ? c.stored : new Set();
  }

  hostAvailability(hostId: HostId, maxSamples: number): readonly Sample[] {
    return this.measured.hostAvailability(hostId, maxSamples);
  }

  linkBandwidthBps(clusterId: ClusterId, maxSamples: number): readonly Sample[] {
    return this.measured.linkBandwidthBps(clusterId, maxSamples);
  }

  linkLatencyMs(clusterId: ClusterId, maxSamples: number): readonly Sample[] {
    return this.measured.linkLatencyMs(clusterId, maxSamples);
  }

  // ---- port (2): grid OS -------------------------------------------------------------------------

  store(fileId: FileId, clusterId: ClusterId): Capability {
    const c = this.cluster(clusterId);
    this.takeLink(c, 'store');
    const path = this.o.sweep.filePaths[fileId];
    if (path === undefined) throw new Error(`store: unknown file ${fileId}`);
    const sizeBytes = this.o.sweep.application.files[fileId]!.sizeBytes;
    c.linkSubtask = this.recordStart('input', { type: 'link', cluster: clusterId }, { file: fileId, sizeBytes });
    const epoch = c.epoch;
    const started = this.o.clock.nowS();
    const deadlineS = this.transferDeadlineS(c, sizeBytes);
    void this.onSomeEndpoint(c, epoch, (e) => e.putFile(resolve(this.o.sweep.originDir, path), storageName(fileId), deadlineS))
      .then((ok) => {
        if (!ok || c.epoch !== epoch) return;
        const seconds = this.o.clock.nowS() - started;
        this.measured.transferred(c.id, this.o.clock.nowS(), sizeBytes, seconds);
        c.stored.add(fileId);
        const key = `${fileId}@${clusterId}`;
        this.inputSends.set(key, (this.inputSends.get(key) ?? 0) + 1);
        this.releaseLink(c, true);
        this.o.log({ kind: 'stored', file: fileId, cluster: clusterId, sizeBytes, seconds });
        this.scheduler().sched_fileTransfer_done({ kind: 'input', fileId, clusterId });
        this.settleRetirements(c);
      }, (err: unknown) => {
        // The cluster's storage refuses the file (a full disk, say): treat it as a failed disk, as a
        // retrieval that cannot be verified is, and offer the cluster again later.
        if (c.epoch !== epoch) return;
        this.failCluster(c, `input ${fileId} could not be stored: ${(err as Error).message}`);
      })
      .catch((err: unknown) => this.internalError(err));
    return `${clusterId}/${fileId}`;
  }

  remove(capability: Capability): void {
    const slash = capability.lastIndexOf('/');
    const c = this.cluster(capability.slice(0, slash));
    const fileId = Number(capability.slice(slash + 1));
    c.stored.delete(fileId);
    const e = c.endpoints.find((x) => x.isUp());
    if (e) void e.removeFile(storageName(fileId)).catch(() => undefined);
  }

  compute(workId: WorkId, hostId: HostId): void {
    if (this.originFailure) return; // the run is stopping: nothing new starts
    const h = this.host(hostId);
    if (!h.announced) throw new Error(`bug: compute(${workId}) on host ${hostId}, which is not available`);
    if (h.running) throw new Error(`bug: compute(${workId}) on host ${hostId}, which is already computing Work ${h.running.work}`);
    if (h.leaving) throw new Error(`bug: compute(${workId}) on host ${hostId}, which is leaving the run (hostIsLeaving)`);
    const task = this.o.sweep.tasks[workId];
    if (!task) throw new Error(`compute: unknown Work ${workId}`);
    const attempt = (this.attempts.get(workId) ?? 0) + 1;
    this.attempts.set(workId, attempt);
    const workKey = `w${workId}.a${attempt}`;
    const started = this.journaled({ type: 'started', work: workId, host: hostId, cluster: h.info.clusterId, attempt });
    const subtaskId = this.recordStart('compute', { type: 'host', host: hostId, cluster: h.info.clusterId }, { work: workId });
    const running: RunningWork = { work: workId, workKey, subtaskId, sent: false };
    h.running = running;
    const outputs = task.outputs.map((f) => f.path);
    void (async () => {
      try {
        // A task starts only once the journal holds its start: a resumed run then knows to collect it.
        await started;
        if (h.running !== running) return;
        running.sent = true;
        const exit = await h.endpoint.run({
          workKey,
          argv: task.argv,
          inputs: task.inputs.map((f) => ({ storageName: storageName(f.fileId), path: f.path })),
          outputs,
          ...(this.o.taskLogs ? { keepOutputBytes: this.o.taskLogs.keepBytes } : {}),
        });
        // Stopping for the origin's failure: the exit (a task killed as the run stops, say) says nothing
        // about the task; the next run finds how it ended from the journal.
        if (h.running !== running || this.originFailure) return;
        this.o.taskLogs?.logs.write(workId, exit);
        if (exit.exitCode !== 0) {
          this.taskFailed(h, running, 'exit', exit);
          return;
        }
        const facts = exit.outputs ?? (await h.endpoint.outputFacts(workKey, outputs));
        if (h.running !== running || this.originFailure) return;
        const missing = outputs.filter((_, i) => facts[i] === undefined);
        if (missing.length > 0) {
          this.taskFailed(h, running, 'output missing', { exitCode: 0, signal: null, stderrTail: `${exit.stderrTail}\ngridsweep: the task exited 0 but did not write ${missing.join(', ')}`.trim() });
          return;
        }
        const outputFacts: OutputFacts[] = outputs.map((path, i) => ({ path, ...facts[i]! }));
        this.lastStderr.delete(workId);
        this.journalNote({ type: 'done', work: workId, host: hostId, outputs: outputFacts });
        h.running = undefined;
        this.recordEnd(subtaskId, true);
        this.o.policy.taskSucceeded(hostId);
        this.computed.set(workId, { host: hostId, workKey, outputs: outputFacts, ...(exit.outputData ? { outputData: exit.outputData } : {}) });
      } catch (err) {
        if (h.running !== running) return;
        if (err instanceof EndpointDownError) return; // endpointDown() reports the host failure
        if (err instanceof OriginWriteError) return; // the origin's failure, not the task's: the run stops
        this.taskFailed(h, running, 'error', { exitCode: null, signal: null, stderrTail: `gridsweep: ${(err as Error).message}` });
        return;
      }
      // Outside the try: an error of the scheduler's is a bug that must end the run, not a task failure to
      // ignore (the check above would swallow it, the host being free by now).
      this.scheduler().sched_work_done([workId], hostId);
      this.afterTask(h);
    })().catch((err: unknown) => this.internalError(err));
  }

  retrieve(workId: WorkId, hostId: HostId): void {
    if (this.originFailure) return; // the run is stopping: its outputs wait in the cluster for the next run
    const h = this.host(hostId);
    const c = this.cluster(h.info.clusterId);
    const done = this.computed.get(workId);
    if (!done) throw new Error(`bug: retrieve(${workId}) but that Work has not finished computing on ${hostId}`);
    this.takeLink(c, 'retrieve');
    const sizeBytes = done.outputs.reduce((s, o) => s + o.sizeBytes, 0);
    c.linkSubtask = this.recordStart('output', { type: 'link', cluster: c.id }, { work: workId, sizeBytes });
    const epoch = c.epoch;
    const started = this.o.clock.nowS();
    const prefer = h.endpoint;
    // Outputs that came back with the task's exit need no machine of the cluster, nor a link measurement.
    const transfer = (async (): Promise<{ ok: boolean; fetched: boolean }> => {
      const placed = placeArrivedOutputs(this.o.sweep.originDir, done);
      if (placed.size === done.outputs.length) return { ok: true, fetched: false };
      return { ok: await this.onSomeEndpoint(c, epoch, (e) => this.fetchOutputs(e, done, placed), prefer), fetched: true };
    })();
    void transfer
      .then(({ ok, fetched }) => {
        if (!ok || c.epoch !== epoch) return;
        if (fetched) this.measured.transferred(c.id, this.o.clock.nowS(), sizeBytes, this.o.clock.nowS() - started);
        const task = this.o.sweep.tasks[workId]!;
        // The outputs are at the origin: the link is free at once. The task counts as done, and its
        // directory on the host is removed, once the journal holds that it was verified.
        const verified = this.journaled({ type: 'verified', work: workId, host: done.host, argv: task.argv, outputs: done.outputs });
        this.computed.delete(workId);
        this.releaseLink(c, true);
        this.scheduler().sched_fileTransfer_done({ kind: 'output', workId, clusterId: c.id });
        this.settleRetirements(c);
        return verified.then(() => {
          this.markFinished(workId);
          this.o.log({ kind: 'done', work: workId, host: done.host, done: this.finished.size, total: this.o.works.length });
          const e = c.endpoints.find((x) => x.isUp());
          if (e) void e.removeWork(done.workKey).catch(() => undefined);
        });
      }, (err: unknown) => {
        // The origin cannot hold the outputs (disk full...): its failure, not the cluster's.
        if (err instanceof OriginWriteError) {
          this.originFailed(err);
          return;
        }
        // The cluster's storage cannot give the outputs back intact: treat it as a failed disk (the
        // scheduler redoes the Works whose outputs were there) and offer the cluster again later.
        if (c.epoch !== epoch) return;
        this.failCluster(c, `outputs of Work ${workId} could not be retrieved: ${(err as Error).message}`);
      })
      .catch((err: unknown) => this.internalError(err));
  }

  cancel(workId: WorkId, hostId: HostId): void {
    const h = this.host(hostId);
    const running = h.running;
    if (!running || running.work !== workId) return;
    h.running = undefined;
    this.recordEnd(running.subtaskId, false);
    if (running.sent) void h.endpoint.kill(running.workKey).catch(() => undefined);
    // A leaving host has nothing left to finish; told after the scheduler's call that cancelled is over.
    queueMicrotask(() => this.afterTask(h));
  }

  // ---- internals ---------------------------------------------------------------------------------

  private scheduler(): SchedulerEvents {
    if (!this.events) throw new Error('RealGridOS: attach() the scheduler first');
    return this.events;
  }

  private host(id: HostId): HostState {
    const h = this.hosts.get(id);
    if (!h) throw new Error(`unknown host ${id}`);
    return h;
  }

  private cluster(id: ClusterId): ClusterState {
    const c = this.clusters.get(id);
    if (!c) throw new Error(`unknown cluster ${id}`);
    return c;
  }

  private takeLink(c: ClusterState, what: string): void {
    if (!c.up) throw new Error(`bug: ${what} over the link of cluster ${c.id}, which is down`);
    if (c.linkBusy) throw new Error(`bug: ${what} over the link of cluster ${c.id} while another transfer is in progress (one at a time per link)`);
    c.linkBusy = true;
  }

  private releaseLink(c: ClusterState, ok: boolean): void {
    if (c.linkSubtask !== undefined) this.recordEnd(c.linkSubtask, ok);
    c.linkSubtask = undefined;
    c.linkBusy = false;
  }

  /**
   * Runs a transfer through a machine of the cluster that is up (the preferred one first), moving on to
   * another one when the machine goes down mid-way. Resolves false when none is left (the cluster is down).
   */
  private async onSomeEndpoint(c: ClusterState, epoch: number, op: (e: Endpoint) => Promise<void>, prefer?: Endpoint): Promise<boolean> {
    const tried = new Set<Endpoint>();
    while (c.epoch === epoch && !this.stopped) {
      const candidates = c.endpoints.filter((e) => e.isUp() && !tried.has(e));
      const e = prefer && candidates.includes(prefer) ? prefer : candidates[0];
      if (!e) return false;
      try {
        await op(e);
        return true;
      } catch (err) {
        if (err instanceof OriginWriteError || (!(err instanceof EndpointDownError) && e.isUp())) throw err;
        tried.add(e);
      }
    }
    return false;
  }

  /** Fetches a finished task's outputs through `e`, but those `placed` already, each verified on arrival. */
  private fetchOutputs(e: Endpoint, done: ReportedOutputs, placed?: ReadonlySet<number>): Promise<void> {
    const c = this.cluster(e.clusterId);
    return fetchVerifiedOutputs(this.o.sweep.originDir, e, done, (sizeBytes) => this.transferDeadlineS(c, sizeBytes), placed);
  }

  private taskFailed(h: HostState, running: RunningWork, what: string, exit: { exitCode: number | null; signal: string | null; stderrTail: string }): void {
    h.running = undefined;
    this.recordEnd(running.subtaskId, false);
    const verdict = this.o.policy.taskFailed(running.work, h.info.id);
    const reason = `${what}: exit code ${exit.exitCode ?? '-'}${exit.signal ? `, signal ${exit.signal}` : ''}`;
    this.lastStderr.set(running.work, exit.stderrTail);
    this.journalNote({ type: 'failed', work: running.work, host: h.info.id, reason, final: false });
    this.o.log({ kind: 'failed', work: running.work, host: h.info.id, reason: `${reason}${exit.stderrTail ? ` — ${lastLine(exit.stderrTail)}` : ''}`, final: false });
    void h.endpoint.removeWork(running.workKey).catch(() => undefined);
    const failure: WorkFailure = { reason: 'exit', hostId: h.info.id, exitCode: exit.exitCode, signal: exit.signal, stderrTail: exit.stderrTail };
    this.scheduler().sched_work_failed([running.work], failure);
    if (verdict.setHostAsideS !== undefined) this.setAside(h, verdict.setHostAsideS);
    this.afterTask(h);
  }

  /**
   * The scheduler gave a Work up (it recorded 'work-failed' with final: true, after repeated program
   * failures, or, replaying, because its host was removed from the real grid file): journal it, and stop
   * waiting for it. The journal's final failure does not stop `--resume` from running it again.
   */
  workGivenUp(work: WorkId, host: HostId, schedulerReason: string): void {
    if (this.failedForGood.has(work) || this.finished.has(work)) return;
    const reason = schedulerReason === 'host-removed' ? `given up: host ${host} was removed from the real grid file` : 'given up after repeated failures';
    this.failedForGood.set(work, reason);
    this.journalNote({ type: 'failed', work, host, reason, final: true });
    this.o.log({ kind: 'failed', work, host, reason, final: true });
    this.markFinished(work);
  }

  private markFinished(work: WorkId): void {
    if (!this.failedForGood.has(work)) this.finished.add(work);
    this.remaining.delete(work);
    if (this.remaining.size === 0) this.resolveFinished();
  }

  private setAside(h: HostState, seconds: number): void {
    if (!h.announced) return;
    h.announced = false;
    h.setAside = true;
    this.gridEvent({ kind: 'REMOVE_HOST', host: h.info.id, timeS: this.o.clock.nowS() });
    this.o.log({ kind: 'down', machine: h.info.id, reason: `set aside for ${seconds} s after repeated task failures` });
    this.scheduler().sched_host_failed([h.info.id]);
    this.connections.after(seconds, () => {
      h.setAside = false;
      if (h.endpoint.isUp() && !h.announced && !h.leaving && !h.left && this.cluster(h.info.clusterId).up) {
        h.announced = true;
        this.hostAdded(h, this.o.clock.nowS());
        this.scheduler().sched_new_host([h.info]);
      }
    });
  }

  /** Marks an endpoint's hosts (and maybe its cluster) up; returns the hosts the scheduler should learn of. */
  private bringUp(e: Endpoint): HostInfo[] {
    const c = this.cluster(e.clusterId);
    const t = this.o.clock.nowS();
    if (!c.up) {
      c.up = true;
      this.gridEvent({ kind: 'ADD_CLUSTER', cluster: c.id, behavior: 'real', offset: 0, timeS: t });
    }
    const infos: HostInfo[] = [];
    for (const id of e.spec.hostIds) {
      const h = this.host(id);
      if (h.announced || h.setAside || h.leaving || h.left) continue;
      h.announced = true;
      this.hostAdded(h, t);
      infos.push(h.info);
    }
    return infos;
  }

  private endpointDown(e: Endpoint, reason: string): void {
    if (this.stopped) return;
    const c = this.cluster(e.clusterId);
    const t = this.o.clock.nowS();
    this.o.log({ kind: 'down', machine: e.spec.name, reason });
    const lost: HostId[] = [];
    const lostHere: LostAttempt[] = [];
    for (const id of e.spec.hostIds) {
      const h = this.host(id);
      const r = this.loseRunningWork(h, `host failed: ${reason}`);
      if (r) lostHere.push({ work: r.work, host: id, workKey: r.workKey });
      if (h.announced) {
        h.announced = false;
        lost.push(id);
        this.gridEvent({ kind: 'REMOVE_HOST', host: id, timeS: t });
      }
      if (this.retired.has(e)) {
        h.leaving = false;
        h.left = true;
      }
    }
    const clusterLost = c.up && !c.endpoints.some((x) => x.isUp());
    // Outputs computed in the cluster and not yet back are lost with it, unless a machine comes back.
    if (clusterLost) for (const [work, done] of this.computed) if (this.host(done.host).info.clusterId === c.id) lostHere.push({ work, host: done.host, workKey: done.workKey });
    if (!this.retired.has(e)) this.lostAttempts.set(c.id, [...(this.lostAttempts.get(c.id) ?? []), ...lostHere]);
    if (clusterLost) this.clusterDown(c);
    else if (lost.length > 0 && this.events) this.events.sched_host_failed(lost);
    if (this.retired.has(e)) this.settleRetirements(c);
    else this.connections.reconnect(e);
  }

  /**
   * The Work running on `h` is lost with its machine or cluster: it is no longer running there, its
   * sub-task ends in failure and the journal records a failure that is not final (it will be redone).
   * Returns that Work, or undefined when none was running.
   */
  private loseRunningWork(h: HostState, reason: string): RunningWork | undefined {
    const r = h.running;
    if (!r) return undefined;
    h.running = undefined;
    this.recordEnd(r.subtaskId, false);
    this.journalNote({ type: 'failed', work: r.work, host: h.info.id, reason, final: false });
    return r;
  }

  /** The scheduler's view of a cluster goes down: its link, its stored files, its computed outputs. */
  private clusterDown(c: ClusterState): void {
    c.up = false;
    c.epoch++;
    c.stored.clear();
    if (c.linkBusy) this.releaseLink(c, false);
    // Outputs computed in this cluster but not yet brought back are lost with it.
    for (const [work, done] of this.computed) if (this.host(done.host).info.clusterId === c.id) this.computed.delete(work);
    this.gridEvent({ kind: 'REMOVE_CLUSTER', cluster: c.id, timeS: this.o.clock.nowS() });
    if (this.events) this.events.sched_disk_failed([c.id]);
  }

  /** A cluster whose machines are up but whose storage misbehaves: fail it, then offer it again later. */
  private failCluster(c: ClusterState, reason: string): void {
    this.o.log({ kind: 'down', machine: c.id, reason });
    const t = this.o.clock.nowS();
    const clusterHosts = c.endpoints.flatMap((e) => e.spec.hostIds.map((id) => this.host(id)));
    for (const h of clusterHosts) {
      const lostWork = this.loseRunningWork(h, `cluster failed: ${reason}`);
      if (lostWork) void h.endpoint.kill(lostWork.workKey).catch(() => undefined);
      if (h.announced) {
        h.announced = false;
        this.gridEvent({ kind: 'REMOVE_HOST', host: h.info.id, timeS: t });
      }
    }
    this.clusterDown(c);
    // Their tasks are gone: a leaving host has nothing left to finish, so it leaves now.
    for (const h of clusterHosts) this.afterTask(h);
    this.connections.after(this.o.reconnectBaseS, () => {
      const hosts = c.endpoints.filter((e) => e.isUp()).flatMap((e) => this.bringUp(e));
      if (hosts.length > 0) this.scheduler().sched_new_host(hosts);
    });
  }

  /**
   * The attempts lost in `e`'s cluster that have since exited 0 with all their outputs, found through `e`,
   * which has just come back. Those still running on `e` are killed (they were re-planned), the others
   * forgotten.
   */
  private async findLostAttemptsEnded(e: Endpoint): Promise<(LostAttempt & { outputs: OutputFacts[] })[]> {
    const lost = this.lostAttempts.get(e.clusterId) ?? [];
    this.lostAttempts.delete(e.clusterId);
    if (!this.events?.sched_work_recovered) return [];
    const found: (LostAttempt & { outputs: OutputFacts[] })[] = [];
    await Promise.all(
      lost.map(async (a) => {
        if (!this.remaining.has(a.work) || this.computed.has(a.work)) return;
        try {
          if (!(await e.endedWell(a.workKey))) {
            // Only on the machine that ran it (a process group id means nothing on another node), and not
            // waited for: the kill gives the task a grace period, and the hosts need not wait for it.
            if (e.spec.hostIds.includes(a.host)) void e.kill(a.workKey).catch(() => undefined);
            return;
          }
          const outputs = await reportedOutputs(e, a.workKey, this.o.sweep.tasks[a.work]!.outputs.map((o) => o.path));
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
  private recover(clusterId: ClusterId, found: readonly (LostAttempt & { outputs: OutputFacts[] })[]): void {
    if (found.length === 0 || ![...this.hosts.values()].some((h) => h.announced && h.info.clusterId === clusterId)) return;
    for (const a of found) {
      if (!this.remaining.has(a.work) || this.computed.has(a.work)) continue;
      this.computed.set(a.work, { host: a.host, workKey: a.workKey, outputs: a.outputs });
      this.journalNote({ type: 'done', work: a.work, host: a.host, outputs: a.outputs });
      this.o.log({ kind: 'recovered', work: a.work, host: a.host });
      this.scheduler().sched_work_recovered!([a.work], a.host);
    }
  }

  /** A transfer's deadline on the cluster's link, from the median of its measured bandwidths. */
  private transferDeadlineS(c: ClusterState, sizeBytes: number): number {
    return transferDeadlineS(this.o.deadlines, sizeBytes, this.measured.medianBandwidthBps(c.id));
  }

  private recordStart(kind: SubtaskKind, resource: ResourceRef, extra: { work?: WorkId; file?: FileId; sizeBytes?: number }): number {
    const id = this.nextSubtaskId++;
    this.o.record({ type: 'start', t: this.o.clock.nowS(), id, kind, resource, ...extra });
    return id;
  }

  private recordEnd(id: number, ok: boolean): void {
    this.o.record({ type: 'end', t: this.o.clock.nowS(), id, ok });
  }

  private hostAdded(h: HostState, t: number): void {
    const leaves = h.info.leavesAtS !== undefined ? { leavesAtS: h.info.leavesAtS } : {};
    this.gridEvent({ kind: 'ADD_HOST', cluster: h.info.clusterId, host: h.info.id, behavior: 'real', offset: 0, arch: h.info.arch, ...leaves, timeS: t });
  }

  private gridEvent(event: GridEvent): void {
    this.o.record({ type: 'grid', t: this.o.clock.nowS(), event });
  }

  /** Records `entry` in the journal (if any); resolves once it is on disk. A journal that cannot be written ends the run. */
  private journaled(entry: JournalInput): Promise<void> {
    const journal = this.o.journal;
    if (!journal) return Promise.resolve();
    return journal.append(entry).catch((err: unknown) => {
      this.internalError(err); // an OriginWriteError (disk full...) stops the run as the origin's failure
      throw err;
    });
  }

  /** Records `entry` without waiting for it: nothing done next depends on it being on disk. */
  private journalNote(entry: JournalInput): void {
    void this.journaled(entry).catch(() => undefined);
  }

  /** A bug (ours or the scheduler's) surfaced in an asynchronous step: the run stops with it. */
  private internalError(err: unknown): void {
    if (err instanceof OriginWriteError) this.originFailed(err);
    else this.rejectFinished(err instanceof Error ? err : new Error(String(err)));
  }

  /**
   * The origin refused a write (an output, the journal, the run record, a task log): no host or cluster is
   * marked down and no task runs again because of it. The run stops (finishedPromise rejects with the
   * first such error); what was verified stays verified, and the next run carries on from the journal.
   */
  originFailed(err: OriginWriteError): void {
    if (this.originFailure) return;
    this.originFailure = err;
    this.stopped = true;
    this.rejectFinished(err);
  }
}

const NO_HOSTS: ReadonlySet<HostId> = new Set();

function storageName(fileId: FileId): string {
  return `f${fileId}`;
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}
