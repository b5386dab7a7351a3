// A scheduler that follows a fixed script, for checking the simulator against hand-computed schedules.
// Each link and each host has a FIFO of steps taken from the script in order; whenever a sched_* call
// arrives, the head of every idle resource's FIFO is issued if it is ready (its cluster or host is up,
// a computation's inputs are stored, a retrieval's Work has been computed). Hooks let a test react to
// failures by adding steps. Like the real scheduler, it records work-done and work-failed.
import type { HostInfo } from '../../../src/interfaces/information.js';
import type { Transfer, WorkFailure } from '../../../src/interfaces/scheduler-events.js';
import type { WorkId, WorkSpec } from '../../../src/model/application.js';
import type { SimScheduler } from '../../../backends/sim/run-simulation.js';
import type { SchedulerDeps } from '../../../src/scheduler/deps.js';

export type Step =
  | { readonly op: 'store'; readonly file: number; readonly cluster: string }
  | { readonly op: 'compute'; readonly work: number; readonly host: string }
  | { readonly op: 'retrieve'; readonly work: number; readonly host: string; readonly cluster: string };

export interface ScriptHooks {
  onHostFailed?(s: ScriptedScheduler, host: string): void;
  onDiskFailed?(s: ScriptedScheduler, cluster: string): void;
  onNewHost?(s: ScriptedScheduler, hosts: readonly HostInfo[]): void;
}

export class ScriptedScheduler implements SimScheduler {
  /** Every sched_* call received, as "t name args" lines, for assertions. */
  readonly calls: string[] = [];
  private readonly linkFifo = new Map<string, Step[]>();
  private readonly hostFifo = new Map<string, Step[]>();
  private readonly busy = new Set<string>();
  private readonly hostsUp = new Map<string, HostInfo>();
  private readonly computed = new Set<WorkId>();
  private readonly running = new Map<string, WorkId>();
  private readonly computedOn = new Map<WorkId, string>();
  private works: readonly WorkSpec[] = [];

  constructor(
    readonly deps: SchedulerDeps,
    steps: readonly Step[],
    private readonly hooks: ScriptHooks = {},
  ) {
    for (const s of steps) this.add(s);
  }

  /** Appends a step to its resource's FIFO (call dispatch() to issue it at once). */
  add(step: Step): void {
    const key = step.op === 'compute' ? step.host : step.cluster;
    const fifos = step.op === 'compute' ? this.hostFifo : this.linkFifo;
    let q = fifos.get(key);
    if (!q) fifos.set(key, (q = []));
    q.push(step);
  }

  private log(name: string, args: unknown): void {
    this.calls.push(`${this.deps.clock.nowS()} ${name} ${JSON.stringify(args)}`);
  }

  sched_new_work(works: readonly WorkSpec[]): void {
    this.log('sched_new_work', works.length);
    this.works = works;
  }

  sched_new_host(hosts: readonly HostInfo[]): void {
    this.log('sched_new_host', hosts.map((h) => h.id));
    for (const h of hosts) this.hostsUp.set(h.id, h);
    this.hooks.onNewHost?.(this, hosts);
    this.dispatch();
  }

  sched_work_done(works: readonly WorkId[], hostId: string): void {
    this.log('sched_work_done', { works, hostId });
    for (const w of works) {
      this.computed.add(w);
      this.computedOn.set(w, hostId);
    }
    this.running.delete(hostId);
    this.busy.delete(`host:${hostId}`);
    this.dispatch();
  }

  sched_host_failed(hosts: readonly string[]): void {
    this.log('sched_host_failed', hosts);
    for (const h of hosts) {
      this.failRunning(h);
      this.hostsUp.delete(h);
      this.busy.delete(`host:${h}`);
      this.hostFifo.delete(h);
      this.hooks.onHostFailed?.(this, h);
    }
    this.dispatch();
  }

  sched_work_failed(works: readonly WorkId[], failure: WorkFailure): void {
    this.log('sched_work_failed', { works, failure });
  }

  sched_disk_failed(clusters: readonly string[]): void {
    this.log('sched_disk_failed', clusters);
    for (const c of clusters) {
      this.busy.delete(`link:${c}`);
      for (const h of [...this.hostsUp.values()]) {
        if (h.clusterId !== c) continue;
        this.failRunning(h.id);
        this.hostsUp.delete(h.id);
        this.busy.delete(`host:${h.id}`);
        this.hostFifo.delete(h.id);
      }
      this.linkFifo.delete(c);
      this.hooks.onDiskFailed?.(this, c);
    }
    this.dispatch();
  }

  private failRunning(host: string): void {
    const w = this.running.get(host);
    if (w === undefined) return;
    this.running.delete(host);
    this.deps.record({ type: 'work-failed', t: this.deps.clock.nowS(), work: w, host, reason: 'host-failed', final: false });
  }

  sched_fileTransfer_done(transfer: Transfer): void {
    this.log('sched_fileTransfer_done', transfer);
    if (transfer.kind === 'output')
      this.deps.record({ type: 'work-done', t: this.deps.clock.nowS(), work: transfer.workId, host: this.computedOn.get(transfer.workId)! });
    this.busy.delete(`link:${transfer.clusterId}`);
    this.dispatch();
  }

  /** Issues the ready head of every idle resource's FIFO. */
  dispatch(): void {
    const { gridOS, info } = this.deps;
    const upClusters = new Set(info.topology().clusters.map((c) => c.id));
    for (const [cluster, q] of this.linkFifo) {
      const step = q[0];
      if (!step || this.busy.has(`link:${cluster}`) || !upClusters.has(cluster)) continue;
      if (step.op === 'retrieve' && !this.computed.has(step.work)) continue;
      q.shift();
      this.busy.add(`link:${cluster}`);
      if (step.op === 'store') gridOS.store(step.file, cluster);
      else if (step.op === 'retrieve') gridOS.retrieve(step.work, step.host);
    }
    for (const [host, q] of this.hostFifo) {
      const step = q[0];
      const h = this.hostsUp.get(host);
      if (!step || !h || this.busy.has(`host:${host}`) || step.op !== 'compute') continue;
      const stored = info.storedFiles(h.clusterId);
      if (!this.works[step.work]!.inputs.every((f) => stored.has(f))) continue;
      q.shift();
      this.busy.add(`host:${host}`);
      this.running.set(host, step.work);
      gridOS.compute(step.work, host);
    }
  }
}
