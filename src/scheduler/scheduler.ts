// The event-driven scheduler (Berman et al. 1999, §7.3): the sched_* entry points, do_schedule() (Fig. 10) and
// do_plan() (Fig. 5, §7.4). It talks to the grid only through the ports in src/interfaces, so the same code
// drives the simulator and real hosts. It never imports from backends/ (a test checks this).
//
// When do_plan() runs:
//  - at t(i+1), a timer set by each plan: t(i) + planIntervalS (S1) or an interval tuned by the deviation from
//    the planned schedule (S2, S3; strategies/plan-events.ts);
//  - on host additions and/or failures, as options.replanOn says (a host that joins while additions do not
//    re-plan waits, idle, for the next scheduling event);
//  - when do_schedule() finds a host with an empty FIFO (Fig. 10 line 9), unless that host got nothing from
//    the last plan (nothing would change), nothing is left to plan, or a plan already ran at this instant.
// A periodic event (the timer) that finds no Work to do and none queued on a host (every Work running,
// computed, on its way back, done or given up) is skipped: no plan runs, none is counted or recorded, and
// the timer is set again one interval later. The skip still does what an empty plan would have done to the
// scheduler's own state: S2/S3 compare their prediction with what runs, adapt the interval and predict what
// runs now; Δ is worked out for the planning state; a host that joined without a re-plan stops waiting.
// What it does not do: re-sort the link FIFOs (a plan orders the outputs waiting there by the chart's
// estimated starts; they keep their order). So a long computation costs a timer per interval, not a plan.
// The other strategies of Berman et al. 1999, §5.2 and §5.6 (quality of information, running estimates, Δ, task-space
// reduction, link order) are options too; each is described in its file under strategies/.
// Requests are coalesced through a timer due now, which the clock runs after every other event of the
// instant, so hosts added together are planned together. While a plan's simulated duration runs
// (planDurationS > 0) the grid works from the kept FIFO heads (§7.3.1 temporary FIFOs); the result is merged
// when the duration is over. After a plan (or a merge), do_schedule() runs at once.
import { performance } from 'node:perf_hooks';
import type { TimerId } from '../interfaces/clock.js';
import type { HostInfo } from '../interfaces/information.js';
import type { SchedulerEvents, Transfer, WorkFailure } from '../interfaces/scheduler-events.js';
import type { Application, FileId, WorkId, WorkSpec } from '../model/application.js';
import type { ClusterId, HostId } from '../model/grid.js';
import { NO_RECORD, type SchedCallRecord } from '../record/events.js';
import type { SchedulerDeps } from './deps.js';
import { Estimator } from './estimates.js';
import { IdSet } from './id-set.js';
import { byDecreasingUsage } from './input-order.js';
import { WorkTable } from './work-table.js';
import { getHeuristic } from './heuristics/registry.js';
import type { Heuristic } from './heuristics/heuristic.js';
import { WorkIndex } from './heuristics/work-index.js';
import { resolveSchedulerOptions, type ResolvedSchedulerOptions, type SchedulerOptions } from './options.js';
import { makePlan, type PlanOutput, type RunningOn } from './planner.js';
import { LinkQueue, PendingWorks, QueuedOutputs, WaitingHead, type ClusterState, type HostState, type LinkItem, type RunningSubtask, type WorkState, type WorkStatus } from './state.js';
import { DeltaController } from './strategies/delta.js';
import { maySkipOutput, type LinkOrderRule } from './strategies/link-order.js';
import { IntervalController, type PlannedSlot } from './strategies/plan-events.js';
import { planLimits } from './strategies/plan-fill.js';
import { Beliefs } from './strategies/quality.js';
import { checkStrategies } from './strategies/registry.js';
import { expectedEndS, type RunningEstimateRule } from './strategies/running-estimate.js';
import { checkSelfScheduling, schedulesDirectly } from './strategies/self-scheduling.js';

export type { SchedulerDeps } from './deps.js';

export interface SchedulerStats {
  planCalls: number;
  planCpuMs: number;
  /** Works whose outputs are back at the origin. */
  worksDone: number;
  /** Work failures reported (each one is recorded as 'work-failed'). */
  workFailures: number;
  /** Computations started again after a failure. */
  reExecutions: number;
}

/** Where the adaptive strategies stand (tests, dashboards). */
export interface PlanningState {
  /** t(i+1) − t(i) of the last plan. */
  readonly intervalS: number;
  /** Δ of the last plan. */
  readonly deltaS: number;
  /** S2/S3: the deviation the last plan measured (null: nothing to compare). */
  readonly lastDeviation: number | null;
  /** Adaptive Δ: mean relative error of recent estimates (undefined before the first finished sub-task). */
  readonly meanEstimateError: number | undefined;
}

const DEFAULT_MAX_EXIT_FAILURES = 3;

export class Scheduler implements SchedulerEvents {
  /**
   * Whether do_schedule() passes over hosts found waiting (WaitingHead) and the idle hosts of a quiet cluster
   * without looking at them again (see scheduleOnce). Tests turn it off to compare with the plain visit of
   * every idle host, looked at afresh; read at construction.
   */
  static skipQuietClusters = true;

  readonly stats: SchedulerStats = { planCalls: 0, planCpuMs: 0, worksDone: 0, workFailures: 0, reExecutions: 0 };

  private readonly heuristic: Heuristic;
  /** A host that empties its FIFO takes the next Work without a plan (strategies/self-scheduling.ts). */
  private readonly selfScheduling: boolean;
  private readonly estimator: Estimator;
  private readonly options: ResolvedSchedulerOptions;
  private readonly beliefs: Beliefs;
  private readonly intervals: IntervalController;
  private readonly delta: DeltaController;
  private readonly runningRule: RunningEstimateRule;
  private readonly linkRule: LinkOrderRule;
  /** Hybrid link order: how many times each not-ready output has been skipped. */
  private readonly outputSkips = new Map<WorkId, number>();
  private lastDeltaS = 0;
  /** False when the run is not recorded (deps.record is NO_RECORD): no record event is built. */
  private readonly recording: boolean;
  private readonly works: WorkTable;
  /** works.at: the WorkStates indexed by Work id (ids index Application.works), the hot paths' lookup. */
  private readonly workAt: WorkState[];
  /** Usage counts, todo and computed Works, kept up to date by setStatus() so that plans need no scan. */
  private readonly pending: PendingWorks;
  /** What the Works' specifications give the heuristics, kept between plans (heuristics/work-index.ts). */
  private readonly workIndex = new WorkIndex();
  private readonly statusCount: Record<WorkStatus, number> = { todo: 0, queued: 0, running: 0, computed: 0, retrieving: 0, done: 0, failed: 0 };
  private readonly hosts = new Map<HostId, SchedHost>();
  private hostOrder: SchedHost[] = [];
  /** The up hosts computing nothing, in host order: the only ones do_schedule() has to look at. */
  private idleHosts: SchedHost[] = [];
  /** scheduleOnce()'s copy of idleHosts (reused, never shortened: a pass never runs inside another). */
  private idleScratch: SchedHost[] = [];
  /**
   * Set while a pass walks idleHosts itself (no copy made yet): the first change of the list copies it into
   * idleScratch first, and the pass goes on over the copy (copy on write: most passes change nothing).
   */
  private idleShared = false;
  /** How many link FIFOs hold each Work's output (setStatus() asks only the links that may). */
  private readonly queuedOutputs = new QueuedOutputs();
  private readonly clusters = new Map<ClusterId, SchedCluster>();
  private clusterOrder: SchedCluster[] = [];
  /** Hosts added to idleHosts so far (a pass's copy misses those added during it: see scheduleOnce). */
  private idleAdditions = 0;
  /** scheduleOnce() passes so far (a cluster found quiet in a pass is not skipped in that same pass). */
  private passes = 0;
  private readonly skipQuiet = Scheduler.skipQuietClusters;
  private quietSkips = 0;

  private periodicTimer: TimerId | null = null;
  private soonTimer: TimerId | null = null;
  private soonForced = false;
  private lastPlanS = -Infinity;
  private planPending = false;
  private replanAfterMerge = false;
  private inSchedule = false;
  private scheduleAgain = false;

  constructor(
    private readonly app: Application,
    options: SchedulerOptions,
    private readonly deps: SchedulerDeps,
  ) {
    checkStrategies(options);
    this.works = new WorkTable(app.works.length);
    this.workAt = this.works.at;
    this.pending = new PendingWorks(this.works, this.works.specAt);
    this.recording = deps.record !== NO_RECORD;
    checkSelfScheduling(options.selfScheduling);
    const o = (this.options = resolveSchedulerOptions(options));
    this.selfScheduling = schedulesDirectly(o.selfScheduling, o.heuristic, o.taskSpace);
    this.heuristic = getHeuristic(o.heuristic);
    this.estimator = new Estimator(deps.info, deps.forecaster, o.resourcePredictor);
    // The noise generator is forked from the run's only when needed, so other modes keep the run's stream.
    this.beliefs = new Beliefs(app.files, app.works, o.quality, o.noiseBound, () => deps.rng.fork());
    this.intervals = new IntervalController({
      mode: o.planEvents,
      initialS: o.planIntervalS,
      minS: o.minPlanIntervalS,
      maxS: o.maxPlanIntervalS,
      threshold: o.deviationThreshold,
    });
    this.delta = new DeltaController({ mode: o.deltaStrategy, deltaS: o.deltaS, fraction: o.deltaFraction });
    this.runningRule = { mode: o.runningEstimate, overdueGraceS: o.overdueGraceS };
    this.linkRule = { mode: o.linkOrder, waitS: o.hybridWaitS, maxSkips: o.hybridMaxSkips };
  }

  /** Every Work's outputs are back at the origin (or the Work was given up after repeated program failures). */
  isFinished(): boolean {
    return this.statusCount.done + this.statusCount.failed === this.works.size;
  }

  // ── sched_* (§7.3.2) ──

  sched_new_host(hosts: readonly HostInfo[]): void {
    if (this.recording) this.recordCall('sched_new_host', { hosts: hosts.map((h) => h.id) });
    const replanOnAdd = this.options.replanOn === 'add' || this.options.replanOn === 'both';
    // Without re-planning on additions a new host waits for the next scheduling event, if there is one.
    const awaitingPlan = !replanOnAdd && (this.periodicTimer !== null || this.planPending);
    const hostCount = this.hosts.size;
    // First every host's info and cluster as this call leaves them, and their ranks (setIdle compares
    // those); then each joining host, in the order given, as before.
    const joining: { host: SchedHost; known: boolean }[] = [];
    let reordered = false;
    for (const info of hosts) {
      const cluster = this.clusterFor(info.clusterId);
      if (!cluster.up) {
        cluster.up = true;
        cluster.busy = null;
        cluster.queue.clear();
        cluster.inputDrops++;
        cluster.stored = IdSet.from(this.deps.info.storedFiles(cluster.id), this.app.files.length, false);
      }
      const known = this.hosts.get(info.id);
      if (known === undefined) {
        const host: SchedHost = { info, up: true, fifo: [], running: null, starved: false, awaitingPlan, waiting: new WaitingHead(), rank: -1, cluster };
        this.hosts.set(info.id, host);
        joining.push({ host, known: false });
      } else if (!known.up) {
        // A host that is down is in no idle list: its rank may change with its info.
        if (known.info.clusterId !== info.clusterId) reordered = true;
        known.info = info;
        known.cluster = cluster;
        known.up = true;
        joining.push({ host: known, known: true });
      }
    }
    if (this.hosts.size > hostCount) {
      this.hostOrder = [...this.hosts.values()].sort(compareHosts);
      if (!reordered) this.hostOrder.forEach((h, rank) => (h.rank = rank));
    }
    if (reordered) [...this.hosts.values()].sort(compareHosts).forEach((h, rank) => (h.rank = rank));
    for (const { host, known } of joining) {
      if (!known) {
        this.setIdle(host, true);
        for (const c of this.clusters.values()) c.queue.allMayGo();
      } else {
        for (const c of this.clusters.values()) c.queue.allMayGo();
        host.fifo = [];
        host.cluster.hostsVersion++;
        host.running = null;
        host.starved = false;
        host.awaitingPlan = awaitingPlan;
        this.setIdle(host, true);
      }
    }
    if (replanOnAdd) this.requestPlan(true);
    this.doSchedule();
  }

  sched_new_work(works: readonly WorkSpec[]): void {
    if (this.recording) this.recordCall('sched_new_work', { works: works.map((w) => w.id) });
    for (const spec of works) {
      if (this.works.has(spec.id)) continue;
      const ws: WorkState = { spec: this.beliefs.work(spec), status: 'todo', host: null, executions: 0, exitFailures: 0 };
      this.works.add(ws);
      this.pending.track(ws);
      this.statusCount.todo++;
    }
    this.unstarveAll();
    if (this.hostOrder.some((h) => h.up)) this.requestPlan(true);
  }

  sched_work_done(works: readonly WorkId[], hostId: HostId): void {
    if (this.recording) this.recordCall('sched_work_done', { works: [...works], hosts: [hostId] });
    const host = this.hosts.get(hostId);
    for (const workId of works) {
      const ws = this.workAt[workId];
      if (host === undefined || ws === undefined || host.running?.workId !== workId) continue;
      this.observeEstimate(host.running);
      host.running = null;
      this.setIdle(host, true);
      this.setStatus(ws, 'computed');
      this.beliefs.observeOutputs(ws.spec, this.app.files);
      const cluster = host.cluster;
      if (!cluster.queue.hasOutput(workId)) cluster.queue.push({ kind: 'output', workId, planS: this.deps.clock.nowS() });
    }
    this.doSchedule();
  }

  sched_host_failed(hosts: readonly HostId[]): void {
    if (this.recording) this.recordCall('sched_host_failed', { hosts: [...hosts] });
    const todoBefore = this.statusCount.todo;
    for (const hostId of hosts) this.failHost(hostId);
    this.afterFailure(todoBefore);
  }

  sched_work_failed(works: readonly WorkId[], failure: WorkFailure): void {
    if (this.recording) this.recordCall('sched_work_failed', { works: [...works], hosts: [failure.hostId] });
    const host = this.hosts.get(failure.hostId);
    for (const workId of works) {
      if (host?.running?.workId === workId) this.failRunning(host, failure.reason);
    }
    // A program that failed, or could not start, leaves its host free (a lost host is handled by
    // sched_host_failed).
    if (failure.reason !== 'host-failed') this.doSchedule();
  }

  sched_disk_failed(clusters: readonly ClusterId[]): void {
    if (this.recording) this.recordCall('sched_disk_failed', { clusters: [...clusters] });
    const todoBefore = this.statusCount.todo;
    for (const clusterId of clusters) {
      const cluster = this.clusters.get(clusterId);
      if (cluster === undefined || !cluster.up) continue;
      for (const host of this.hostOrder) if (host.info.clusterId === clusterId) this.failHost(host.info.id);
      cluster.up = false;
      cluster.busy = null; // lost with the link: the backend will not report it
      cluster.queue.clear();
      cluster.inputDrops++;
      cluster.stored = new IdSet(this.app.files.length, false);
      // Outputs waiting in (or leaving) that storage are gone: those Works must run again.
      for (const ws of this.works.values()) {
        if ((ws.status === 'computed' || ws.status === 'retrieving') && ws.host !== null && this.hosts.get(ws.host)?.info.clusterId === clusterId) {
          this.recordFailure(ws, ws.host, 'outputs-lost', false);
          this.toTodo(ws);
        }
      }
    }
    this.afterFailure(todoBefore);
  }

  sched_fileTransfer_done(transfer: Transfer): void {
    if (this.recording)
      this.recordCall(
        'sched_fileTransfer_done',
        transfer.kind === 'input' ? { file: transfer.fileId, clusters: [transfer.clusterId] } : { works: [transfer.workId], clusters: [transfer.clusterId] },
      );
    const cluster = this.clusters.get(transfer.clusterId);
    const busy = cluster?.busy?.item;
    if (cluster === undefined || !cluster.up || busy === undefined) return;
    if (transfer.kind === 'input') {
      if (busy.kind !== 'input' || busy.fileId !== transfer.fileId) return;
      cluster.stored.add(transfer.fileId);
    } else {
      if (busy.kind !== 'output' || busy.workId !== transfer.workId) return;
      const ws = this.workAt[transfer.workId]!;
      this.setStatus(ws, 'done');
      this.stats.worksDone++;
      if (this.recording) this.deps.record({ type: 'work-done', t: this.deps.clock.nowS(), work: ws.spec.id, host: ws.host! });
    }
    this.observeEstimate(cluster.busy!);
    cluster.busy = null;
    if (this.isFinished()) this.stopTimers();
    this.doSchedule();
  }

  sched_work_recovered(works: readonly WorkId[], hostId: HostId): void {
    if (this.recording) this.recordCall('sched_work_recovered', { works: [...works], hosts: [hostId] });
    const host = this.hosts.get(hostId);
    const cluster = host === undefined ? undefined : this.clusters.get(host.info.clusterId);
    if (cluster === undefined || !cluster.up) return;
    for (const workId of works) {
      const ws = this.works.get(workId);
      if (ws === undefined) continue;
      if (ws.status === 'queued' || ws.status === 'running') this.dropCopy(ws);
      else if (ws.status !== 'todo') continue;
      ws.host = hostId;
      this.setStatus(ws, 'computed');
      if (!cluster.queue.hasOutput(workId)) cluster.queue.push({ kind: 'output', workId, planS: this.deps.clock.nowS() });
    }
    this.doSchedule();
  }

  sched_input_lost(files: readonly FileId[], clusterId: ClusterId): void {
    if (this.recording) for (const file of files) this.recordCall('sched_input_lost', { file, clusters: [clusterId] });
    const cluster = this.clusters.get(clusterId);
    if (cluster === undefined || !cluster.up) return;
    for (const fileId of files) cluster.stored.delete(fileId);
    // Hosts waiting on inputs look again: the one they wait for may be among them.
    cluster.inputDrops++;
    cluster.hostsVersion++;
    this.doSchedule();
  }

  /** A Work queued or running on a host, found computed elsewhere: out of that host's FIFO, or cancelled there. */
  private dropCopy(ws: WorkState): void {
    const host = this.hosts.get(ws.host!)!;
    this.clusters.get(host.info.clusterId)!.queue.removeOutput(ws.spec.id);
    if (ws.status === 'queued') {
      host.fifo = host.fifo.filter((workId) => workId !== ws.spec.id);
      host.cluster.hostsVersion++;
      return;
    }
    host.running = null;
    if (host.up) this.setIdle(host, true);
    this.deps.gridOS.cancel(ws.spec.id, host.info.id);
  }

  // ── do_schedule() (Fig. 10) ──

  private doSchedule(): void {
    if (this.inSchedule) {
      this.scheduleAgain = true; // a port called back synchronously: go round again
      return;
    }
    this.inSchedule = true;
    try {
      do {
        this.scheduleAgain = false;
        this.scheduleOnce();
      } while (this.scheduleAgain);
    } finally {
      this.inSchedule = false;
    }
  }

  /**
   * One pass over the idle hosts, in host order, then over the links. A cluster's idle hosts are consecutive
   * in host order; when every one of them was found still waiting (the first test below, which changes
   * nothing), the cluster is marked quiet with what that answer depended on (quietNow). A later pass skips
   * the idle hosts of a cluster still quiet: each would be found still waiting again, and passed over.
   */
  private scheduleOnce(): void {
    let callPlan = false;
    const pass = ++this.passes;
    const additions = this.idleAdditions;
    // The pass walks the idle hosts as they were when it began: starting a computation takes the host out of
    // the list, so the list is copied before its first change (setIdle), and the walk goes on over the copy.
    // (A host freed meanwhile by a synchronous callback is seen in the next pass, which that callback asks for.)
    // No Work to do or queued (so every FIFO is empty) and no stealing: each idle host would be passed over.
    const n = this.skipQuiet && !this.options.workStealing && this.statusCount.todo + this.statusCount.queued === 0 ? 0 : this.idleHosts.length;
    if (this.skipQuiet) this.idleShared = n > 0;
    else for (let k = 0; k < n; k++) this.idleScratch[k] = this.idleHosts[k]!;
    let segment: SchedCluster | null = null;
    let segmentWaiting = false;
    for (let k = 0; k < n; k++) {
      const shared = this.idleShared;
      const idle = shared ? this.idleHosts : this.idleScratch;
      const host = idle[k]!;
      const cluster = host.cluster;
      if (cluster !== segment) {
        if (segmentWaiting && this.idleAdditions === additions) markQuiet(segment!, pass);
        segment = cluster;
        segmentWaiting = true;
        if (this.skipQuiet && cluster.quiet.pass !== pass && quietNow(cluster)) {
          this.quietSkips++;
          // Unchanged, the list holds the cluster's idle hosts one after another from here.
          if (shared) k += cluster.idleCount - 1;
          else while (k + 1 < n && idle[k + 1]!.cluster === cluster) k++;
          segmentWaiting = false;
          continue;
        }
      }
      if (!host.up || host.running !== null) continue;
      // Still waiting, its inputs still on their way (asked before isLeaving, a query of port (3) that
      // changes nothing: either way the host is passed over).
      if (this.skipQuiet && host.fifo.length > 0 && host.waiting.unchanged(host.fifo[0]!, cluster, cluster.inputDrops)) continue;
      segmentWaiting = false;
      if (this.isLeaving(host)) continue;
      if (host.fifo.length > 0) {
        const head = host.fifo[0]!;
        const ws = this.workAt[head]!;
        const missing = this.firstMissing(ws, cluster);
        if (missing < 0) {
          host.fifo.shift();
          cluster.hostsVersion++;
          this.startCompute(host, ws);
        } else {
          this.ensureInputsQueued(ws, cluster);
          host.waiting.record(head, cluster, missing, cluster.inputDrops);
        }
        continue;
      }
      if (this.options.workStealing) this.steal(host, cluster);
      if (host.starved || host.awaitingPlan || this.statusCount.todo + this.statusCount.queued === 0) continue;
      if (host.running === null && this.selfSchedule(host, cluster)) continue;
      callPlan = true;
    }
    if (segmentWaiting && this.idleAdditions === additions) markQuiet(segment!, pass);
    this.idleShared = false;
    for (const cluster of this.clusterOrder) {
      if (cluster.up && cluster.busy === null) this.startNextTransfer(cluster);
    }
    if (callPlan) this.requestPlan(false);
  }

  /**
   * Self-scheduling without a chart (strategies/self-scheduling.ts): the idle host takes the todo Work of
   * smallest id it may run; its missing inputs go on the link now, by decreasing usage. False when a plan
   * must decide instead (a plan is requested or running at this instant, or there is no such Work).
   */
  private selfSchedule(host: SchedHost, cluster: SchedCluster): boolean {
    if (!this.selfScheduling || this.soonTimer !== null || this.planPending || !cluster.up) return false;
    const spec = this.deps.info.hostsToAvoid !== undefined ? this.pending.todo().find((w) => !this.mustAvoid(w.id, host.info.id)) : this.pending.firstTodo();
    if (spec === undefined || this.endsTooLate(spec, host)) return false;
    const ws = this.workAt[spec.id]!;
    ws.host = host.info.id;
    this.setStatus(ws, 'queued');
    host.fifo.push(spec.id);
    host.cluster.hostsVersion++;
    const inputs = byDecreasingUsage(ws.spec.inputs, this.pending.usage);
    const storage = this.deps.info.storedFiles(cluster.id);
    const nowS = this.deps.clock.nowS();
    for (const fileId of inputs) {
      if (cluster.stored.has(fileId)) continue;
      if (storage.has(fileId)) {
        cluster.stored.add(fileId);
        continue;
      }
      const busy = cluster.busy?.item;
      if (busy?.kind === 'input' && busy.fileId === fileId) continue;
      cluster.queue.insertByPlan({ kind: 'input', fileId, planS: nowS });
    }
    if (this.isReady(ws, cluster)) {
      host.fifo.shift();
      cluster.hostsVersion++;
      this.startCompute(host, ws);
    }
    return true;
  }

  /** The host leaves (a pilot's walltime end) before the Work could end there: a plan decides instead. */
  private endsTooLate(spec: WorkSpec, host: HostState): boolean {
    const leavesAtS = host.info.leavesAtS;
    if (leavesAtS === undefined) return false;
    const runS = (spec.estRunTimeS[host.info.arch] ?? Infinity) / Math.max(this.estimator.availability(host.info.id), Number.MIN_VALUE);
    return this.deps.clock.nowS() + runS > leavesAtS;
  }

  private isReady(ws: WorkState, cluster: ClusterState): boolean {
    return this.firstMissing(ws, cluster) < 0;
  }

  /** The first input of the Work not in the cluster's storage (-1: none, the Work is ready). */
  private firstMissing(ws: WorkState, cluster: ClusterState): FileId {
    const inputs = ws.spec.inputs;
    for (let k = 0; k < inputs.length; k++) if (!cluster.stored.has(inputs[k]!)) return inputs[k]!;
    return -1;
  }

  /** A head Work waiting for a file nobody is bringing (e.g. its entry was dropped): queue the file. */
  private ensureInputsQueued(ws: WorkState, cluster: ClusterState): void {
    for (const fileId of ws.spec.inputs) {
      if (cluster.stored.has(fileId) || cluster.queue.hasInput(fileId)) continue;
      const busy = cluster.busy?.item;
      if (busy?.kind === 'input' && busy.fileId === fileId) continue;
      cluster.queue.push({ kind: 'input', fileId, planS: this.deps.clock.nowS() });
    }
  }

  /** Fig. 10 lines 7–8: take the first ready Work queued on another host of the same cluster. */
  private steal(host: SchedHost, cluster: ClusterState): void {
    for (const victim of this.hostOrder) {
      if (victim === host || !victim.up || victim.info.clusterId !== host.info.clusterId) continue;
      const k = victim.fifo.findIndex((workId) => this.isReady(this.works.get(workId)!, cluster) && !this.mustAvoid(workId, host.info.id));
      if (k < 0) continue;
      const [workId] = victim.fifo.splice(k, 1);
      victim.cluster.hostsVersion++;
      this.startCompute(host, this.works.get(workId!)!);
      return;
    }
  }

  /** The information service says this Work failed on this host before (real runs): never place it there. */
  private mustAvoid(workId: WorkId, hostId: HostId): boolean {
    return this.deps.info.hostsToAvoid?.(workId).has(hostId) === true;
  }

  private startCompute(host: SchedHost, ws: WorkState): void {
    const nowS = this.deps.clock.nowS();
    const runS = ws.spec.estRunTimeS[host.info.arch] ?? Infinity;
    host.running = { workId: ws.spec.id, startS: nowS, estEndS: nowS + runS / this.estimator.availability(host.info.id), estAmount: runS };
    this.setIdle(host, false);
    ws.host = host.info.id;
    ws.executions++;
    if (ws.executions > 1) this.stats.reExecutions++;
    this.setStatus(ws, 'running');
    this.deps.gridOS.compute(ws.spec.id, host.info.id);
  }

  /**
   * Lines 10–16: the first entry of the link FIFO that can go. An output not computed yet is skipped or
   * waited for as options.linkOrder says (strategies/link-order.ts).
   *
   * Greedy, the entries skipped (outputs of Works queued or running in this cluster) are passed over
   * without being looked at: the queue keeps the entries that may go (every entry added, and every output
   * whose Work setStatus() saw leave queued/running in this cluster, or join another cluster), and the
   * first of those is the first entry the walk below would stop at; one found unable to go is dropped
   * from them. So the same entries are removed and the same one sent as by walking the whole FIFO.
   */
  private startNextTransfer(cluster: ClusterState): void {
    const queue = cluster.queue;
    const greedy = this.linkRule.mode === 'greedy';
    const seen = cluster.nothingToSend;
    if (greedy && seen.queue === queue.version && seen.works === cluster.worksVersion) return;
    const files = this.beliefs.files();
    let skipped: WorkId[] | undefined; // hybrid only: made when an output is first skipped
    for (let k = 0; ; ) {
      if (greedy) {
        k = queue.firstMayGo(k);
        if (k < 0) break;
      } else if (k >= queue.length) break;
      const item = queue.at(k);
      if (item.kind === 'input') {
        if (cluster.stored.has(item.fileId)) {
          queue.removeAt(k);
          continue;
        }
        queue.removeAt(k);
        this.countSkips(skipped);
        this.startTransfer(cluster, item, files[item.fileId]!.estSizeBytes);
        return;
      }
      const ws = this.workAt[item.workId];
      const hostCluster = ws?.host === null || ws === undefined ? undefined : this.hosts.get(ws.host)?.info.clusterId;
      const live = ws !== undefined && hostCluster === cluster.id && (ws.status === 'queued' || ws.status === 'running' || ws.status === 'computed');
      if (!live) {
        queue.removeAt(k);
        continue;
      }
      if (ws.status === 'computed') {
        queue.removeAt(k);
        let bytes = 0;
        for (const fileId of ws.spec.outputs) bytes += files[fileId]!.estSizeBytes;
        this.setStatus(ws, 'retrieving');
        this.outputSkips.delete(ws.spec.id);
        this.countSkips(skipped);
        this.startTransfer(cluster, item, bytes);
        return;
      }
      if (!greedy) {
        if (!maySkipOutput(this.linkRule, this.expectedComputeInS(ws), this.outputSkips.get(ws.spec.id) ?? 0)) return;
        (skipped ??= []).push(ws.spec.id);
      } else queue.cannotGo(k);
      k++;
    }
    if (greedy) {
      seen.queue = queue.version;
      seen.works = cluster.worksVersion;
    }
  }

  /** Seconds until a Work whose output waits on a link is expected to be computed (Infinity: not started). */
  private expectedComputeInS(ws: WorkState): number {
    const host = ws.host === null ? undefined : this.hosts.get(ws.host);
    if (ws.status !== 'running' || host?.running == null) return Infinity;
    return this.runningEndS(host.running, { kind: 'host', hostId: host.info.id }) - this.deps.clock.nowS();
  }

  private countSkips(skipped: readonly WorkId[] | undefined): void {
    if (this.linkRule.mode !== 'hybrid' || skipped === undefined) return;
    for (const workId of skipped) this.outputSkips.set(workId, (this.outputSkips.get(workId) ?? 0) + 1);
  }

  /** When a running sub-task is expected to end, as options.runningEstimate says. */
  private runningEndS(running: RunningSubtask, on: RunningOn): number {
    const nowS = this.deps.clock.nowS();
    return expectedEndS(this.runningRule, running, nowS, () =>
      on.kind === 'host' ? this.estimator.hostProgress(on.hostId, running.startS, nowS) : this.estimator.linkProgress(on.clusterId, running.startS, nowS),
    );
  }

  /** A sub-task finished: how far off its estimate was (adaptive Δ). */
  private observeEstimate(running: RunningSubtask): void {
    const nowS = this.deps.clock.nowS();
    this.delta.observe(running.estEndS - running.startS, nowS - running.startS);
  }

  private startTransfer(cluster: ClusterState, item: LinkItem, estBytes: number): void {
    const nowS = this.deps.clock.nowS();
    const link = this.estimator.link(cluster.id);
    cluster.busy = { item, startS: nowS, estEndS: nowS + link.latencyS + estBytes / link.bandwidthBps, estAmount: estBytes };
    if (item.kind === 'input') this.deps.gridOS.store(item.fileId, cluster.id);
    else this.deps.gridOS.retrieve(item.workId, this.workAt[item.workId]!.host!);
  }

  // ── do_plan() (Fig. 5, §7.4) ──

  /** Asks for a plan at this instant. `force`: even if one already ran now (host additions, failures). */
  private requestPlan(force: boolean): void {
    if (this.isFinished()) return;
    if (this.planPending) {
      if (force) this.replanAfterMerge = true;
      return;
    }
    const clock = this.deps.clock;
    if (!force && this.lastPlanS === clock.nowS()) return;
    if (force) this.soonForced = true;
    if (this.soonTimer !== null) return;
    this.soonTimer = clock.at(clock.nowS(), () => {
      this.soonTimer = null;
      const forced = this.soonForced;
      this.soonForced = false;
      if (!forced && this.lastPlanS === clock.nowS()) return;
      this.doPlan();
    });
  }

  private doPlan(): void {
    if (this.isFinished() || this.planPending) return;
    const clock = this.deps.clock;
    const nowS = clock.nowS();
    this.lastPlanS = nowS;
    // (1) the next scheduling event: S1, or S2/S3 from the deviation with the last plan's prediction.
    if (this.periodicTimer !== null) clock.cancel(this.periodicTimer);
    this.periodicTimer = null;
    const upHosts = this.hostOrder.filter((h) => h.up);
    const intervalS = this.intervals.update(nowS, computingOn(upHosts));
    let nextPlanS: number | null = null;
    if (upHosts.length > 0 && Number.isFinite(intervalS) && intervalS > 0) nextPlanS = this.armPeriodic(nowS + intervalS);
    const cpuStart = performance.now();
    this.truncateFifos(upHosts);
    // The plan looks up port (3)'s storage for the files it reads (input.storedFiles); only the shared-files
    // task space, which ranks Works by every file at hand, needs the whole storage first.
    if (this.options.taskSpace === 'shared-files') {
      for (const cluster of this.clusterOrder) {
        if (cluster.up) for (const fileId of this.deps.info.storedFiles(cluster.id)) cluster.stored.add(fileId);
      }
    }
    // (5) Δ.
    const deltaS = this.delta.deltaS(nextPlanS === null ? 0 : intervalS);
    this.lastDeltaS = deltaS;
    const info = this.deps.info;
    const limits = planLimits(this.options.planFill, (nextPlanS ?? nowS) + deltaS, this.options.worksPerHost, upHosts.length);
    const plan = makePlan({
      nowS,
      horizonS: limits.horizonS,
      maxPlacements: limits.maxPlacements,
      files: this.beliefs.planFiles(),
      works: this.works,
      hosts: upHosts,
      clusters: this.clusterOrder.filter((c) => c.up),
      clusterOfHost: (hostId) => this.hosts.get(hostId)?.info.clusterId,
      estimator: this.estimator,
      heuristic: this.heuristic,
      rng: this.deps.rng,
      randomTolerance: this.options.randomTolerance,
      hostCandidates: this.options.hostCandidates,
      runningEndS: (running, on) => this.runningEndS(running, on),
      taskSpace: { mode: this.options.taskSpace, size: this.options.taskSpaceSize },
      pending: this.pending,
      workIndex: this.workIndex,
      storedFiles: (clusterId) => info.storedFiles(clusterId),
      ...(info.hostsToAvoid === undefined ? {} : { hostsToAvoid: (workId: WorkId) => info.hostsToAvoid!(workId) }),
      ...(info.hostIsLeaving === undefined ? {} : { hostIsLeaving: (hostId: HostId) => info.hostIsLeaving!(hostId) }),
    });
    for (const [clusterId, fileIds] of plan.foundStored) {
      const stored = this.clusters.get(clusterId)!.stored;
      for (const fileId of fileIds) stored.add(fileId);
    }
    this.intervals.predict(plan.slots);
    // The temporary FIFOs (§7.3.1): what was kept, ordered as the new chart expects.
    for (const cluster of this.clusterOrder) {
      if (!cluster.up) continue;
      cluster.queue.clear();
      cluster.inputDrops++;
      for (const item of plan.kept.links.get(cluster.id) ?? []) cluster.queue.push(item);
    }
    const cpuMs = performance.now() - cpuStart;
    this.stats.planCalls++;
    this.stats.planCpuMs += cpuMs;
    this.deps.record({
      type: 'plan',
      t: nowS,
      cpuMs,
      simulatedDurationS: this.options.planDurationS,
      consideredWorks: plan.consideredWorks,
      plannedWorks: plan.plannedWorks,
      nextPlanS,
    });
    if (this.options.planDurationS > 0) {
      this.planPending = true;
      clock.at(nowS + this.options.planDurationS, () => {
        this.planPending = false;
        this.merge(plan);
        this.doSchedule();
        if (this.replanAfterMerge) {
          this.replanAfterMerge = false;
          this.requestPlan(true);
        }
      });
    } else {
      this.merge(plan);
    }
    this.doSchedule();
  }

  /** The periodic scheduling event t(i+1) (S1, S2, S3) at `atS`; returns `atS`. */
  private armPeriodic(atS: number): number {
    this.periodicTimer = this.deps.clock.at(atS, () => {
      this.periodicTimer = null;
      if (this.planPending) this.replanAfterMerge = true;
      else if (this.statusCount.todo + this.statusCount.queued === 0) this.skipPlan();
      else this.doPlan();
    });
    return atS;
  }

  /**
   * A periodic scheduling event with no Work to do and none queued (the file header's rule): no plan runs.
   * The event still counts as the one a host that joined without a re-plan waits for.
   */
  private skipPlan(): void {
    if (this.isFinished()) return;
    const nowS = this.deps.clock.nowS();
    const upHosts = this.hostOrder.filter((h) => h.up);
    for (const host of upHosts) host.awaitingPlan = false;
    let intervalS = this.intervals.currentS;
    if (this.options.planEvents !== 'constant') {
      // S2/S3 observe and predict as the empty plan would have: the prediction is what runs now.
      intervalS = this.intervals.update(nowS, computingOn(upHosts));
      const slots = new Map<HostId, PlannedSlot[]>();
      for (const host of upHosts) {
        if (!this.clusters.get(host.info.clusterId)!.up) continue;
        const running = host.running;
        const on: RunningOn = { kind: 'host', hostId: host.info.id };
        slots.set(host.info.id, running === null ? [] : [{ workId: running.workId, startS: running.startS, endS: this.runningEndS(running, on) }]);
      }
      this.intervals.predict(slots);
    }
    const armed = upHosts.length > 0 && Number.isFinite(intervalS) && intervalS > 0;
    if (armed) this.armPeriodic(nowS + intervalS);
    this.lastDeltaS = this.delta.deltaS(armed ? intervalS : 0);
  }

  /**
   * §7.4: keep options.keepWorksPerHost Works at the head of each host FIFO; the rest is planned again. A
   * leaving host keeps none: it will start nothing more.
   */
  private truncateFifos(upHosts: readonly SchedHost[]): void {
    const keep = Math.max(0, Math.floor(this.options.keepWorksPerHost));
    let moved = false;
    for (const host of upHosts) {
      for (const workId of host.fifo.splice(this.isLeaving(host) ? 0 : keep)) {
        this.toTodo(this.works.get(workId)!, false);
        host.cluster.hostsVersion++;
        moved = true;
      }
    }
    if (moved) this.unstarveAll();
  }

  /** Appends the heuristic's entries behind what is left of the temporary FIFOs. */
  private merge(plan: PlanOutput): void {
    for (const [hostId, workIds] of plan.added.hosts) {
      const host = this.hosts.get(hostId);
      if (host === undefined || !host.up) continue;
      for (const workId of workIds) {
        const ws = this.works.get(workId)!;
        if (ws.status !== 'todo') continue;
        ws.host = hostId;
        this.setStatus(ws, 'queued');
        host.fifo.push(workId);
        host.cluster.hostsVersion++;
      }
    }
    for (const [clusterId, items] of plan.added.links) {
      const cluster = this.clusters.get(clusterId);
      if (cluster === undefined || !cluster.up) continue;
      for (const item of items) {
        if (item.kind === 'input') {
          const busy = cluster.busy?.item;
          if (cluster.stored.has(item.fileId) || (busy?.kind === 'input' && busy.fileId === item.fileId)) continue;
        } else {
          const ws = this.works.get(item.workId)!;
          if (ws.status !== 'queued' || ws.host === null || this.hosts.get(ws.host)?.info.clusterId !== clusterId) continue;
        }
        cluster.queue.push(item);
      }
      cluster.queue.sortByPlan();
    }
    for (const host of this.hostOrder) {
      if (!host.up) continue;
      host.starved = plan.idleHosts.has(host.info.id) && host.fifo.length === 0;
      if (plan.slots.has(host.info.id)) host.awaitingPlan = false;
    }
  }

  /**
   * After hosts or a cluster failed: a re-plan if options.replanOn says so; and if Works went back to do,
   * do_schedule() at once, so that a host left idle takes them (the work queue's next Work, or the plan an
   * idle host with an empty FIFO asks for) rather than waiting for the next scheduling event. Berman et al.
   * 1999, §7.3.2, has the failure functions leave do_schedule() out, as no host was freed; but a host that
   * ran dry before the failure is idle, and in a real run of the work queue the lost Works then waited up to
   * a plan interval while every other host sat idle.
   */
  private afterFailure(todoBefore: number): void {
    if (this.options.replanOn === 'fail' || this.options.replanOn === 'both') this.requestPlan(true);
    if (this.statusCount.todo > todoBefore) this.doSchedule();
  }

  private stopTimers(): void {
    if (this.periodicTimer !== null) this.deps.clock.cancel(this.periodicTimer);
    if (this.soonTimer !== null) this.deps.clock.cancel(this.soonTimer);
    this.periodicTimer = null;
    this.soonTimer = null;
  }

  // ── Failures ──

  private failHost(hostId: HostId): void {
    const host = this.hosts.get(hostId);
    if (host === undefined || !host.up) return;
    host.up = false;
    this.setIdle(host, false);
    host.starved = false;
    const cluster = this.clusters.get(host.info.clusterId)!;
    for (const workId of host.fifo) {
      cluster.queue.removeOutput(workId);
      this.toTodo(this.works.get(workId)!);
    }
    host.fifo = [];
    host.cluster.hostsVersion++;
    if (host.running !== null) this.failRunning(host, 'host-failed');
  }

  /** The Work running on `host` failed: back to the Works to do, or given up after too many program failures. */
  private failRunning(host: SchedHost, reason: WorkFailure['reason']): void {
    const ws = this.works.get(host.running!.workId)!;
    host.running = null;
    if (host.up) this.setIdle(host, true);
    this.clusters.get(host.info.clusterId)!.queue.removeOutput(ws.spec.id);
    if (reason === 'exit') ws.exitFailures++;
    const final = reason === 'exit' && ws.exitFailures >= (this.options.maxExitFailures ?? DEFAULT_MAX_EXIT_FAILURES);
    this.recordFailure(ws, host.info.id, reason, final);
    if (final) {
      ws.host = null;
      this.setStatus(ws, 'failed');
      if (this.isFinished()) this.stopTimers();
    } else {
      this.toTodo(ws);
    }
  }

  private isLeaving(host: HostState): boolean {
    return this.deps.info.hostIsLeaving?.(host.info.id) === true;
  }

  private recordFailure(ws: WorkState, hostId: HostId, reason: string, final: boolean): void {
    this.stats.workFailures++;
    if (this.recording) this.deps.record({ type: 'work-failed', t: this.deps.clock.nowS(), work: ws.spec.id, host: hostId, reason, final });
  }

  /** `unstarve` false: the caller unstarves the hosts once after moving many Works. */
  private toTodo(ws: WorkState, unstarve = true): void {
    this.touchCluster(ws.host);
    ws.host = null;
    this.outputSkips.delete(ws.spec.id);
    this.setStatus(ws, 'todo');
    if (unstarve) this.unstarveAll();
  }

  // ── Bookkeeping ──

  private setStatus(ws: WorkState, status: WorkStatus): void {
    const from = ws.status;
    this.statusCount[from]--;
    this.statusCount[status]++;
    ws.status = status;
    this.pending.moved(ws, from);
    if (this.linkRule.mode === 'greedy' && this.queuedOutputs.any(ws.spec.id)) {
      // Its output may go now from any link but its own cluster's while it is queued or running there
      // (every change of a Work's host comes with one of its status). No link holds it: nothing to tell.
      const own = (status === 'queued' || status === 'running') && ws.host !== null ? this.hosts.get(ws.host)?.info.clusterId : undefined;
      for (const c of this.clusters.values()) if (c.id !== own) c.queue.mayGo(ws.spec.id);
    }
    // Queued or running, a Work's output cannot go yet: nothing new for its link to send.
    if (status !== 'queued' && status !== 'running') this.touchCluster(ws.host);
  }

  /** A Work on this host may now have an output to send, or none any more: its cluster's link must look again. */
  private touchCluster(hostId: HostId | null): void {
    if (hostId !== null) {
      const host = this.hosts.get(hostId);
      if (host !== undefined) host.cluster.worksVersion++;
    }
  }

  /** Keeps idleHosts (up hosts computing nothing, in host order) up to date. */
  private setIdle(host: SchedHost, idle: boolean): void {
    const list = this.idleHosts;
    const rank = host.rank;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.rank < rank) lo = mid + 1;
      else hi = mid;
    }
    const present = list[lo] === host;
    // Moved by hand: splice would also make an array of what it removes.
    if (idle !== present) {
      if (this.idleShared) {
        // A pass is walking the list: it goes on over a copy of the list as it is before this change.
        for (let j = 0; j < list.length; j++) this.idleScratch[j] = list[j]!;
        this.idleShared = false;
      }
      host.cluster.hostsVersion++;
      host.cluster.idleCount += idle ? 1 : -1;
    }
    if (idle && !present) {
      this.idleAdditions++;
      list.push(host);
      for (let j = list.length - 1; j > lo; j--) list[j] = list[j - 1]!;
      list[lo] = host;
    } else if (!idle && present) {
      for (let j = lo + 1; j < list.length; j++) list[j - 1] = list[j]!;
      list.pop();
    }
  }

  private unstarveAll(): void {
    for (const host of this.hostOrder) host.starved = false;
  }

  private clusterFor(clusterId: ClusterId): SchedCluster {
    let cluster = this.clusters.get(clusterId);
    if (cluster === undefined) {
      cluster = {
        id: clusterId,
        up: false,
        queue: new LinkQueue(this.queuedOutputs),
        busy: null,
        worksVersion: 0,
        nothingToSend: { queue: -1, works: -1 },
        stored: new IdSet(this.app.files.length, false),
        hostsVersion: 0,
        idleCount: 0,
        inputDrops: 0,
        quiet: { pass: 0, hostsVersion: -1, inputDrops: -1, stored: null, storedCount: -1 },
      };
      this.clusters.set(clusterId, cluster);
      this.clusterOrder = [...this.clusters.values()].sort((a, b) => compareStrings(a.id, b.id));
    }
    return cluster;
  }

  private recordCall(call: string, fields: Omit<SchedCallRecord, 'type' | 't' | 'call'>): void {
    this.deps.record({ type: 'sched', t: this.deps.clock.nowS(), call, ...fields });
  }

  // ── Read-only views (tests, dashboards) ──

  /** The Works queued on a host, head first. */
  hostFifo(hostId: HostId): readonly WorkId[] {
    return this.hosts.get(hostId)?.fifo ?? [];
  }

  /** The transfers queued on a cluster's link, head first. */
  linkFifo(clusterId: ClusterId): readonly LinkItem[] {
    return this.clusters.get(clusterId)?.queue.list() ?? [];
  }

  workStatus(workId: WorkId): WorkStatus | undefined {
    return this.works.get(workId)?.status;
  }

  /** How many times do_schedule() passed over a quiet cluster's idle hosts (tests). */
  quietClusterSkips(): number {
    return this.quietSkips;
  }

  planningState(): PlanningState {
    return {
      intervalS: this.intervals.currentS,
      deltaS: this.lastDeltaS,
      lastDeviation: this.intervals.lastDeviation,
      meanEstimateError: this.delta.meanError(),
    };
  }
}

/** The scheduler's own view of a host: its place in host order and its cluster, kept with its info. */
interface SchedHost extends HostState {
  /** Its index among every known host in host order (compareHosts on the current infos): setIdle compares these. */
  rank: number;
  /** The cluster of info.clusterId. */
  cluster: SchedCluster;
}

/** The scheduler's own view of a cluster: what do_schedule() needs to pass over its idle hosts. */
interface SchedCluster extends ClusterState {
  /** Bumped whenever one of its hosts joins or leaves the idle hosts, or a host's FIFO changes. */
  hostsVersion: number;
  /** How many of its hosts are in the idle list. */
  idleCount: number;
  /** Bumped whenever its link FIFO loses entries other than by sending them or finding them stored (a clear). */
  inputDrops: number;
  /**
   * What held when a pass last found every idle host of the cluster still waiting for the inputs of its
   * FIFO head (hostsVersion -1: never); `pass` is that pass.
   */
  readonly quiet: { pass: number; hostsVersion: number; inputDrops: number; stored: ReadonlySet<FileId> | null; storedCount: number };
}

/**
 * Every idle host of `cluster` would be found still waiting: the same idle hosts with the same FIFOs
 * (hostsVersion), no link entry dropped and no file stored since the cluster was marked quiet, which covers
 * all that WaitingHead.unchanged() compares (a file stored might be some head's missing one).
 */
function quietNow(cluster: SchedCluster): boolean {
  const q = cluster.quiet;
  return q.hostsVersion === cluster.hostsVersion && q.inputDrops === cluster.inputDrops && q.stored === cluster.stored && q.storedCount === cluster.stored.size;
}

function markQuiet(cluster: SchedCluster, pass: number): void {
  const q = cluster.quiet;
  q.pass = pass;
  q.hostsVersion = cluster.hostsVersion;
  q.inputDrops = cluster.inputDrops;
  q.stored = cluster.stored;
  q.storedCount = cluster.stored.size;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Host order: cluster id, then host id (plain string order, independent of locale). */
function compareHosts(a: HostState, b: HostState): number {
  return compareStrings(a.info.clusterId, b.info.clusterId) || compareStrings(a.info.id, b.info.id);
}

/** Host → the Work it computes, for the up hosts computing one. */
function computingOn(upHosts: readonly HostState[]): Map<HostId, WorkId> {
  const computing = new Map<HostId, WorkId>();
  for (const h of upHosts) if (h.running !== null) computing.set(h.info.id, h.running.workId);
  return computing;
}
