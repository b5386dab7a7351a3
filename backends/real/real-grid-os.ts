// Ports (2) and (3) for real grids, over Endpoints (local processes or SSH hosts): a thin layer that carries
// out the scheduler's store/compute/retrieve/cancel and answers its questions, over the run's concepts, each
// in a file of its own under gridos/:
//   host-membership.ts  where each host stands (joining, active, set aside, down, leaving, left) and the one
//                       checked transition that records it and tells the scheduler;
//   cluster-link.ts     each cluster up or down, its stored inputs, its one-transfer-at-a-time link;
//   recovery.ts         attempts lost with a connection, found finished when the machine answers again,
//                       and those of a killed run collected on --resume;
//   run-records.ts      the run record and the journal (each state change on disk before it is acted on);
//   work-ledger.ts      which Works are computed where, done, given up, left;
//   grid-file-edits.ts  machines added to and removed from the real grid file (and Slurm pilots).
// Outputs are verified (size + SHA-256 against what the host reported: origin-outputs.ts) before a task
// counts as done; lost machines become sched_host_failed / sched_disk_failed (machine-connections.ts
// connects and reconnects them, and probes them: the heartbeat); the retry policy decides on tasks that
// fail; the measurements (load, bandwidth, latency) it observes are kept. A write the origin itself refuses
// (disk full, read-only...: origin-failure.ts) blames no host or cluster and runs nothing again: the run
// stops with it.
import { resolve } from 'node:path';
import type { Capability, GridOS } from '../../src/interfaces/grid-os.js';
import type { ClusterInfo, InformationService, Sample, Topology } from '../../src/interfaces/information.js';
import type { SchedulerEvents, WorkFailure } from '../../src/interfaces/scheduler-events.js';
import type { FileId, WorkId } from '../../src/model/application.js';
import type { ClusterId, HostId } from '../../src/model/grid.js';
import type { RecordSink } from '../../src/record/events.js';
import type { ExpandedSweep } from '../../src/sweep/expand.js';
import { EXEC_MAX_SLOTS } from '../../src/realgrid/real-grid-file.js';
import type { Deadlines } from '../transport/deadline.js';
import { GridMeasurements } from './grid-measurements.js';
import { EndpointDownError, type Endpoint, type LoadSample } from '../transport/endpoint.js';
import { fetchVerifiedOutputs, placeArrivedOutputs, type ReportedOutputs } from './origin-outputs.js';
import type { Journal, OutputFacts, UnfinishedAttempt } from './journal.js';
import { OriginWriteError } from './origin-failure.js';
import { MachineConnections, type ConnectionOptions } from './machine-connections.js';
import type { ProgressEvent } from '../transport/progress-events.js';
import type { RetryPolicy } from './retry-policy.js';
import type { TaskLogs } from './task-logs.js';
import type { WallClock } from './wall-clock.js';
import { ClusterLinks, type ClusterLink } from './gridos/cluster-link.js';
import { GridFileEdits } from './gridos/grid-file-edits.js';
import { HostMembership, offered, SchedulerTell, type Host, type RunningWork } from './gridos/host-membership.js';
import { Recovery, type LostAttempt } from './gridos/recovery.js';
import { RunRecords } from './gridos/run-records.js';
import { WorkLedger } from './gridos/work-ledger.js';

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
  /**
   * A task still running this many seconds after it was sent to its host is killed, and the attempt counts
   * as failed ("timed out"), as a non-zero exit does. None by default.
   */
  readonly taskTimeoutS?: number;
  readonly log: (event: ProgressEvent) => void;
}

export class RealGridOS implements GridOS, InformationService {
  private events: SchedulerEvents | undefined;
  private readonly measured = new GridMeasurements();
  /** SSH hosts whose cores beyond their one slot were pointed out (once per run). */
  private readonly coresNoted = new Set<string>();
  private readonly records: RunRecords;
  private readonly hosts: HostMembership;
  private readonly clusters: ClusterLinks;
  private readonly works: WorkLedger;
  private readonly recovery: Recovery;
  private readonly edits: GridFileEdits;
  private readonly connections: MachineConnections;
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
    this.finishedPromise = new Promise((res, rej) => {
      this.resolveFinished = res;
      this.rejectFinished = rej;
    });
    // It may reject (the origin full, say) before the runner awaits it (while connecting): not unhandled.
    this.finishedPromise.catch(() => undefined);
    this.records = new RunRecords(o.clock, o.record, o.journal, (err) => this.internalError(err));
    this.hosts = new HostMembership(this.records);
    this.clusters = new ClusterLinks(this.records, this.measured, o.deadlines, () => this.stopped);
    this.works = new WorkLedger(o.works, (host) => this.hosts.get(host).info.clusterId, () => this.resolveFinished());
    this.recovery = new Recovery({
      sweep: o.sweep,
      works: this.works,
      records: this.records,
      hosts: this.hosts,
      clusters: this.clusters,
      log: o.log,
      fetchOutputs: (e, done) => this.fetchOutputs(e, done),
      originFailed: (err) => this.originFailed(err),
      after: (seconds, fn) => this.connections.after(seconds, fn),
      events: () => this.events,
      isStopped: () => this.stopped,
      watchPeriodS: o.samplePeriodS,
    });
    this.edits = new GridFileEdits({
      hosts: this.hosts,
      clusters: this.clusters,
      works: this.works,
      log: o.log,
      register: (clusterId, e) => this.register(clusterId, e),
      connectLate: (e) => this.connections.connectLate(e),
      scheduler: () => this.scheduler(),
      isStopped: () => this.stopped,
    });
    this.connections = new MachineConnections(o, {
      answered: (e) => this.answered(e),
      wanted: (e) => !this.edits.isRetired(e),
      probed: (e, sample, first) => this.probed(e, sample, first),
      log: o.log,
      internalError: (err) => this.internalError(err),
    });
    for (const c of o.clusters) {
      this.clusters.ensure(c.id);
      for (const e of c.endpoints) this.register(c.id, e);
    }
    if (o.taskLogs) o.taskLogs.logs.onOriginFailure = (err) => this.originFailed(err);
  }

  private register(clusterId: ClusterId, e: Endpoint): void {
    this.clusters.ensure(clusterId).endpoints.push(e);
    for (const h of e.spec.hostIds) {
      const leaves = e.spec.kind === 'pilot' ? { leavesAtS: e.spec.leavesAtS } : {};
      this.hosts.add({ id: h, clusterId, arch: e.spec.arch, ...leaves }, e);
    }
    e.onDown((reason) => this.endpointDown(e, reason));
  }

  // ---- life cycle --------------------------------------------------------------------------------

  /**
   * Connects every machine and returns when all have answered, or `startGraceS` after the first one is
   * up: the run starts without the slow ones, which join when they answer (machine-connections.ts).
   */
  connectAll(): Promise<void> {
    return this.connections.connectAll(() => [...this.clusters.all()].map((c) => c.endpoints));
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
    const finished = await this.recovery.findEnded(e, this.events);
    // Before the scheduler is attached, announceAll() will offer every machine that is up.
    if (this.stopped || this.edits.isRetired(e) || !e.isUp() || !this.events) return;
    const tell = new SchedulerTell();
    this.bringUp(e, tell);
    tell.send(this.events);
    this.recovery.recover(e.clusterId, finished, this.events);
  }

  private probed(e: Endpoint, sample: LoadSample, first: boolean): void {
    const spec = e.spec;
    if (spec.kind === 'ssh' && spec.slotsLeftOut && sample.cores > 1 && !this.coresNoted.has(spec.name)) {
      this.coresNoted.add(spec.name);
      this.o.log({ kind: 'cores', machine: spec.name, cores: sample.cores, slots: spec.transport === 'exec' ? Math.min(sample.cores, EXEC_MAX_SLOTS) : sample.cores });
    }
    const t = this.o.clock.nowS();
    this.measured.probed(e.spec.hostIds, t, sample);
    if (first) this.measured.latencyProbed(e.clusterId, t, sample.rttMs);
  }

  /**
   * Before the scheduler starts (a resumed run): the attempts the journal saw start and not end that
   * exited 0 meanwhile, on a machine that is up, are adopted into this run, their outputs fetched and
   * verified, and they count as done; the others are left to the scheduler. Returns the Works collected.
   */
  collectFinished(attempts: readonly UnfinishedAttempt[]): Promise<WorkId[]> {
    return this.recovery.collectFinished(attempts);
  }

  /** Hands the grid to the scheduler: every machine that is up becomes available. */
  attach(events: SchedulerEvents): void {
    this.events = events;
  }

  announceAll(): void {
    const tell = new SchedulerTell();
    for (const c of this.clusters.all()) for (const e of c.endpoints) if (e.isUp()) this.bringUp(e, tell);
    tell.send(this.scheduler());
  }

  /** Hosts whose machine is up (offered to the scheduler or about to be, by announceAll). */
  upHostCount(): number {
    return [...this.hosts.all()].filter((h) => h.endpoint.isUp() && h.state.kind !== 'left').length;
  }

  /**
   * Ends the run's use of the grid: no more probes or reconnections, this run's files removed from the
   * storage (if `cleanStorage`), `beforeClose` run while the connections are still open (a Slurm cluster's
   * pilots are cancelled through its login node), then every connection closed.
   */
  async stop(cleanStorage: boolean, beforeClose?: () => Promise<void>): Promise<void> {
    this.stopped = true;
    this.connections.stop();
    const endpoints = [...this.clusters.all()].flatMap((c) => c.endpoints);
    if (cleanStorage) {
      for (const c of this.clusters.all()) {
        const e = this.clusters.someMachineUp(c);
        if (e) await e.removeRunDir().catch(() => undefined);
      }
    }
    await beforeClose?.();
    await Promise.all(endpoints.map((e) => e.close().catch(() => undefined)));
  }

  /** The Works given up, each with why. */
  worksFailedForGood(): ReadonlyMap<WorkId, string> {
    return this.works.failedForGood;
  }

  /** The end of the standard error of Work `work`'s last attempt, when that attempt failed. */
  stderrTailOf(work: WorkId): string | undefined {
    return this.works.lastStderr.get(work);
  }

  /** Works not yet verified at the origin nor given up. */
  worksLeft(): number {
    return this.works.remaining.size;
  }

  worksDone(): ReadonlySet<WorkId> {
    return this.works.finished;
  }

  /**
   * Hosts a Work already failed on; the scheduler should place it elsewhere. Once it has failed on every
   * host of the run (those not gone for good), none is avoided: it is retried on them rather than waiting
   * for a host that does not exist (a run on 2 local slots would otherwise never end).
   */
  hostsToAvoid(work: WorkId): ReadonlySet<HostId> {
    const avoid = this.o.policy.hostsToAvoid(work);
    if (avoid.size === 0) return avoid;
    for (const h of this.hosts.all()) if (h.state.kind !== 'left' && !avoid.has(h.info.id)) return avoid;
    return NO_HOSTS;
  }

  /** Removed from the real grid file and still computing: the scheduler must start nothing more there. */
  hostIsLeaving(hostId: HostId): boolean {
    return this.hosts.find(hostId)?.state.kind === 'leaving';
  }

  /** Removed from the real grid file and gone: unlike a host that failed, it will not come back. */
  hostRemoved(hostId: HostId): boolean {
    return this.hosts.find(hostId)?.state.kind === 'left';
  }

  // ---- machines joining and leaving (edits of the real grid file: gridos/grid-file-edits.ts) -------

  /** A machine added to the real grid file, or a pilot job that started (`quiet`: its pool tells the user). */
  join(clusterId: ClusterId, e: Endpoint, quiet = false): void {
    this.edits.join(clusterId, e, quiet);
  }

  /** A machine removed from the real grid file, or a pilot whose time is up (`quiet`: its pool tells the user). */
  retire(clusterId: ClusterId, name: string, quiet = false): void {
    this.edits.retire(clusterId, name, quiet);
  }

  // ---- port (3): information ---------------------------------------------------------------------

  topology(): Topology {
    const clusters: ClusterInfo[] = [...this.clusters.all()].filter((c) => c.up).map((c) => ({ id: c.id }));
    const hosts = [...this.hosts.all()].filter((h) => offered(h.state)).map((h) => h.info);
    return { clusters, hosts };
  }

  storedFiles(clusterId: ClusterId): ReadonlySet<FileId> {
    const c = this.clusters.find(clusterId);
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
    const c = this.clusters.get(clusterId);
    const path = this.o.sweep.filePaths[fileId];
    if (path === undefined) throw new Error(`store: unknown file ${fileId}`);
    const sizeBytes = this.o.sweep.application.files[fileId]!.sizeBytes;
    this.clusters.take(c, 'store', () => this.records.subtaskStarted('input', { type: 'link', cluster: clusterId }, { file: fileId, sizeBytes }));
    const epoch = c.epoch;
    const started = this.o.clock.nowS();
    const deadlineS = this.clusters.transferDeadlineS(c, sizeBytes);
    void this.clusters
      .onSomeEndpoint(c, epoch, (e) => e.putFile(resolve(this.o.sweep.originDir, path), storageName(fileId), deadlineS))
      .then((ok) => {
        if (!ok || c.epoch !== epoch) return;
        const seconds = this.o.clock.nowS() - started;
        this.measured.transferred(c.id, this.o.clock.nowS(), sizeBytes, seconds);
        c.stored.add(fileId);
        const key = `${fileId}@${clusterId}`;
        this.inputSends.set(key, (this.inputSends.get(key) ?? 0) + 1);
        this.clusters.release(c, true);
        this.o.log({ kind: 'stored', file: fileId, cluster: clusterId, sizeBytes, seconds });
        this.scheduler().sched_fileTransfer_done({ kind: 'input', fileId, clusterId });
        this.edits.settle(c);
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
    const c = this.clusters.get(capability.slice(0, slash));
    const fileId = Number(capability.slice(slash + 1));
    c.stored.delete(fileId);
    const e = this.clusters.someMachineUp(c);
    if (e) void e.removeFile(storageName(fileId)).catch(() => undefined);
  }

  compute(workId: WorkId, hostId: HostId): void {
    if (this.originFailure) return; // the run is stopping: nothing new starts
    const h = this.hosts.get(hostId);
    if (!offered(h.state)) throw new Error(`bug: compute(${workId}) on host ${hostId}, which is not available`);
    if (h.running) throw new Error(`bug: compute(${workId}) on host ${hostId}, which is already computing Work ${h.running.work}`);
    if (h.state.kind === 'leaving') throw new Error(`bug: compute(${workId}) on host ${hostId}, which is leaving the run (hostIsLeaving)`);
    const task = this.o.sweep.tasks[workId];
    if (!task) throw new Error(`compute: unknown Work ${workId}`);
    const attempt = this.works.nextAttempt(workId);
    const workKey = `w${workId}.a${attempt}`;
    const started = this.records.journalWritten({ type: 'started', work: workId, host: hostId, cluster: h.info.clusterId, attempt });
    const subtaskId = this.records.subtaskStarted('compute', { type: 'host', host: hostId, cluster: h.info.clusterId }, { work: workId });
    const running: RunningWork = { work: workId, workKey, subtaskId, sent: false };
    h.running = running;
    const outputs = task.outputs.map((f) => f.path);
    void (async () => {
      try {
        // A task starts only once its start is written to the journal (fsync'd soon after, see journal.ts): a
        // resumed run then knows to collect it, even after a SIGKILL; after an OS crash it may run it again.
        await started;
        if (h.running !== running) return;
        running.sent = true;
        this.limitRunTime(h, running);
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
        if (exit.missingInputs !== undefined && exit.missingInputs.length > 0) {
          // Not the task's failure: the cluster's storage lost files it held (a scratch purge, say).
          const missing = exit.missingInputs;
          this.inputsLost(h, running, task.inputs.filter((f) => missing.includes(f.path)).map((f) => f.fileId), missing);
          return;
        }
        this.o.taskLogs?.logs.write(workId, exit);
        if (exit.exitCode !== 0) {
          this.taskFailed(h, running, running.timedOut ? `timed out after ${this.o.taskTimeoutS} s` : 'exit', exit);
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
        this.works.lastStderr.delete(workId);
        this.records.journalNote({ type: 'done', work: workId, host: hostId, outputs: outputFacts });
        h.running = undefined;
        this.records.subtaskEnded(subtaskId, true);
        this.o.policy.taskSucceeded(hostId);
        this.works.computed.set(workId, { host: hostId, workKey, outputs: outputFacts, ...(exit.outputData ? { outputData: exit.outputData } : {}) });
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
      this.edits.afterTask(h);
    })().catch((err: unknown) => this.internalError(err));
  }

  retrieve(workId: WorkId, hostId: HostId): void {
    if (this.originFailure) return; // the run is stopping: its outputs wait in the cluster for the next run
    const h = this.hosts.get(hostId);
    const c = this.clusters.get(h.info.clusterId);
    const done = this.works.computed.get(workId);
    if (!done) throw new Error(`bug: retrieve(${workId}) but that Work has not finished computing on ${hostId}`);
    const sizeBytes = done.outputs.reduce((s, o) => s + o.sizeBytes, 0);
    this.clusters.take(c, 'retrieve', () => this.records.subtaskStarted('output', { type: 'link', cluster: c.id }, { work: workId, sizeBytes }));
    const epoch = c.epoch;
    const started = this.o.clock.nowS();
    const prefer = h.endpoint;
    // Outputs that came back with the task's exit need no machine of the cluster, nor a link measurement.
    const transfer = (async (): Promise<{ ok: boolean; fetched: boolean }> => {
      const placed = placeArrivedOutputs(this.o.sweep.originDir, done);
      if (placed.size === done.outputs.length) return { ok: true, fetched: false };
      return { ok: await this.clusters.onSomeEndpoint(c, epoch, (e) => this.fetchOutputs(e, done, placed), prefer), fetched: true };
    })();
    void transfer
      .then(({ ok, fetched }) => {
        if (!ok || c.epoch !== epoch) return;
        if (fetched) this.measured.transferred(c.id, this.o.clock.nowS(), sizeBytes, this.o.clock.nowS() - started);
        const task = this.o.sweep.tasks[workId]!;
        // The outputs are at the origin: the link is free at once. The task counts as done, and its
        // directory on the host is removed, once the journal holds that it was verified.
        const verified = this.records.journaled({ type: 'verified', work: workId, host: done.host, argv: task.argv, outputs: done.outputs });
        this.works.computed.delete(workId);
        this.clusters.release(c, true);
        this.scheduler().sched_fileTransfer_done({ kind: 'output', workId, clusterId: c.id });
        this.edits.settle(c);
        return verified.then(() => {
          this.works.markFinished(workId);
          this.o.log({ kind: 'done', work: workId, host: done.host, done: this.works.finished.size, total: this.o.works.length });
          const e = this.clusters.someMachineUp(c);
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
    const h = this.hosts.get(hostId);
    const running = h.running;
    if (!running || running.work !== workId) return;
    h.running = undefined;
    this.records.subtaskEnded(running.subtaskId, false);
    if (running.sent) void h.endpoint.kill(running.workKey).catch(() => undefined);
    // A leaving host has nothing left to finish; told after the scheduler's call that cancelled is over.
    queueMicrotask(() => this.edits.afterTask(h));
  }

  /**
   * The scheduler gave a Work up (it recorded 'work-failed' with final: true, after repeated program
   * failures, or, replaying, because its host was removed from the real grid file): journal it, and stop
   * waiting for it. The journal's final failure does not stop `--resume` from running it again.
   */
  workGivenUp(work: WorkId, host: HostId, schedulerReason: string): void {
    if (this.works.failedForGood.has(work) || this.works.finished.has(work)) return;
    const reason = schedulerReason === 'host-removed' ? `given up: host ${host} was removed from the real grid file` : 'given up after repeated failures';
    this.works.failedForGood.set(work, reason);
    this.records.journalNote({ type: 'failed', work, host, reason, final: true });
    this.o.log({ kind: 'failed', work, host, reason, final: true });
    this.works.markFinished(work);
  }

  // ---- what happens to hosts and clusters -----------------------------------------------------------

  private scheduler(): SchedulerEvents {
    if (!this.events) throw new Error('RealGridOS: attach() the scheduler first');
    return this.events;
  }

  /** Fetches a finished task's outputs through `e`, but those `placed` already, each verified on arrival. */
  private fetchOutputs(e: Endpoint, done: ReportedOutputs, placed?: ReadonlySet<number>): Promise<void> {
    const c = this.clusters.get(e.clusterId);
    return fetchVerifiedOutputs(this.o.sweep.originDir, e, done, (sizeBytes) => this.clusters.transferDeadlineS(c, sizeBytes), placed);
  }

  /** With a task time limit: kills the attempt if it still runs then (its exit then says it failed). */
  private limitRunTime(h: Host, running: RunningWork): void {
    const limitS = this.o.taskTimeoutS;
    if (limitS === undefined) return;
    this.connections.after(limitS, () => {
      if (h.running !== running) return;
      running.timedOut = true;
      // A host that is down meanwhile loses the attempt anyway (and adopts or kills it when it answers).
      void h.endpoint.kill(running.workKey).catch(() => undefined);
    });
  }

  private taskFailed(h: Host, running: RunningWork, what: string, exit: { exitCode: number | null; signal: string | null; stderrTail: string }): void {
    h.running = undefined;
    this.records.subtaskEnded(running.subtaskId, false);
    const verdict = this.o.policy.taskFailed(running.work, h.info.id);
    const reason = `${what}: exit code ${exit.exitCode ?? '-'}${exit.signal ? `, signal ${exit.signal}` : ''}`;
    this.works.lastStderr.set(running.work, exit.stderrTail);
    this.records.journalNote({ type: 'failed', work: running.work, host: h.info.id, reason, final: false });
    this.o.log({ kind: 'failed', work: running.work, host: h.info.id, reason: `${reason}${exit.stderrTail ? ` — ${lastLine(exit.stderrTail)}` : ''}`, final: false });
    void h.endpoint.removeWork(running.workKey).catch(() => undefined);
    const failure: WorkFailure = { reason: 'exit', hostId: h.info.id, exitCode: exit.exitCode, signal: exit.signal, stderrTail: exit.stderrTail };
    this.scheduler().sched_work_failed([running.work], failure);
    if (verdict.setHostAsideS !== undefined) this.setAside(h, verdict.setHostAsideS);
    this.edits.afterTask(h);
  }

  /** Out of the scheduler's grid for `seconds` (repeated task failures), then offered again if its machine and cluster are up. */
  private setAside(h: Host, seconds: number): void {
    if (!offered(h.state)) return;
    this.o.log({ kind: 'down', machine: h.info.id, reason: `set aside for ${seconds} s after repeated task failures` });
    const tell = new SchedulerTell();
    // A leaving host is withdrawn instead: it leaves once idle (now, as its task just ended).
    this.hosts.move(h, h.state.kind === 'leaving' ? 'leaving' : 'set-aside', { why: 'set-aside', seconds }, tell);
    tell.send(this.scheduler());
    this.connections.after(seconds, () => {
      if (h.state.kind !== 'set-aside') return;
      const back = new SchedulerTell();
      const up = h.endpoint.isUp() && this.clusters.get(h.info.clusterId).up;
      this.hosts.move(h, up ? 'active' : 'down', { why: 'set-aside-over' }, back);
      back.send(this.scheduler());
    });
  }

  /** Marks an endpoint's cluster up and its hosts that are joining or down active; `tell` gathers them for the scheduler. */
  private bringUp(e: Endpoint, tell: SchedulerTell): void {
    this.clusters.markUp(this.clusters.get(e.clusterId));
    for (const id of e.spec.hostIds) {
      const h = this.hosts.get(id);
      if (h.state.kind === 'joining' || h.state.kind === 'down') this.hosts.move(h, 'active', { why: 'answered' }, tell);
    }
  }

  private endpointDown(e: Endpoint, reason: string): void {
    if (this.stopped) return;
    const c = this.clusters.get(e.clusterId);
    const retired = this.edits.isRetired(e);
    this.o.log({ kind: 'down', machine: e.spec.name, reason });
    const clusterLost = c.up && !c.endpoints.some((x) => x.isUp());
    const cause = { why: clusterLost ? 'cluster-lost' : 'machine-lost' } as const;
    const tell = new SchedulerTell();
    const lostHere: LostAttempt[] = [];
    for (const id of e.spec.hostIds) {
      const h = this.hosts.get(id);
      const r = this.loseRunningWork(h, `host failed: ${reason}`);
      if (r) lostHere.push({ work: r.work, host: id, workKey: r.workKey });
      // A removed machine's hosts have left, or leave now; the others that were offered are down.
      if (h.state.kind === 'leaving') this.hosts.move(h, 'left', cause, tell);
      else if (h.state.kind === 'active') this.hosts.move(h, 'down', cause, tell);
    }
    // Outputs computed in the cluster and not yet back are lost with it, unless a machine comes back.
    if (clusterLost) for (const [work, done] of this.works.computedIn(c.id)) lostHere.push({ work, host: done.host, workKey: done.workKey });
    if (!retired) this.recovery.lostIn(c.id, lostHere);
    if (clusterLost) this.clusterDown(c);
    else tell.send(this.events);
    if (retired) this.edits.settle(c);
    else this.connections.reconnect(e);
  }

  /**
   * The Work running on `h` is lost with its machine or cluster: it is no longer running there, its
   * sub-task ends in failure and the journal records a failure that is not final (it will be redone).
   * Returns that Work, or undefined when none was running.
   */
  private loseRunningWork(h: Host, reason: string): RunningWork | undefined {
    const r = h.running;
    if (!r) return undefined;
    h.running = undefined;
    this.records.subtaskEnded(r.subtaskId, false);
    this.records.journalNote({ type: 'failed', work: r.work, host: h.info.id, reason, final: false });
    return r;
  }

  /** The scheduler's view of a cluster goes down: its link, its stored files, its computed outputs. */
  private clusterDown(c: ClusterLink): void {
    // Outputs computed in this cluster but not yet brought back are lost with it.
    const lost = this.works.computedIn(c.id);
    this.clusters.markDown(c, undefined);
    for (const [work] of lost) this.works.computed.delete(work);
    if (this.events) this.events.sched_disk_failed([c.id]);
  }

  /**
   * The task `running` on `h` did not start: its cluster's storage lost the inputs `fileIds` (at the task's
   * `paths`). Those alone are forgotten and sent again when needed; the task runs again, not counted as a
   * failure, and the cluster's other tasks run on. A scheduler without sched_input_lost has the whole
   * cluster failed instead, its tasks running again.
   */
  private inputsLost(h: Host, running: RunningWork, fileIds: readonly FileId[], paths: readonly string[]): void {
    const c = this.clusters.get(h.info.clusterId);
    const events = this.events;
    if (!events?.sched_input_lost || fileIds.length === 0) {
      this.failCluster(c, `its storage lost ${paths.join(', ')} (removed since stored?): inputs are sent again`);
      return;
    }
    for (const fileId of fileIds) c.stored.delete(fileId);
    this.o.log({ kind: 'input-lost', cluster: c.id, paths, work: running.work });
    this.loseRunningWork(h, `its cluster's storage lost ${paths.join(', ')}`);
    events.sched_input_lost(fileIds, c.id);
    events.sched_work_failed([running.work], { reason: 'input-lost', hostId: h.info.id });
  }

  /** A cluster whose machines are up but whose storage misbehaves: fail it, then offer it again later. */
  private failCluster(c: ClusterLink, reason: string): void {
    this.o.log({ kind: 'down', machine: c.id, reason });
    const clusterHosts = c.endpoints.flatMap((e) => e.spec.hostIds.map((id) => this.hosts.get(id)));
    const tell = new SchedulerTell();
    for (const h of clusterHosts) {
      const lostWork = this.loseRunningWork(h, `cluster failed: ${reason}`);
      if (lostWork) void h.endpoint.kill(lostWork.workKey).catch(() => undefined);
      if (h.state.kind === 'active' || (h.state.kind === 'leaving' && h.state.offered)) this.hosts.move(h, h.state.kind === 'leaving' ? 'leaving' : 'down', { why: 'cluster-failed' }, tell);
    }
    this.clusterDown(c);
    // Their tasks are gone: a leaving host has nothing left to finish, so it leaves now.
    for (const h of clusterHosts) this.edits.afterTask(h);
    this.connections.after(this.o.reconnectBaseS, () => {
      const back = new SchedulerTell();
      for (const e of c.endpoints) if (e.isUp()) this.bringUp(e, back);
      back.send(this.scheduler());
    });
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
