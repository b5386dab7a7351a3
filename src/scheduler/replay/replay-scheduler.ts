// A planning source that replays a recorded schedule instead of planning: it answers the same sched_*
// events as the Scheduler and drives the same GridOS, but each host computes exactly the Works the record
// gave it, in the recorded order, and each link carries the recorded transfers in the recorded order. It
// keeps the FIFO discipline of the ports (one transfer per link, one computation per host) and waits when
// the next recorded step is not possible yet (a Work whose inputs have not arrived, an output not computed).
//
// The record is followed, not re-planned: a host that fails gets its Work back at the head of its own list
// when it returns; outputs lost with a cluster are computed again on the same host; a Work whose program
// fails is retried on the same host (the recorded schedule has no other place for it) until it has failed
// maxExitFailures times, then given up. A host removed for good (InformationService.hostRemoved: taken out
// of the real grid file) will not return, so the Works the record still had for it are given up at once
// (work-failed, reason 'host-removed', final), and the run can end; a later run can do them. A host already
// down when removed is reported failed again then (sched_host_failed), now with hostRemoved true.
import type { HostInfo } from '../../interfaces/information.js';
import type { SchedulerEvents, Transfer, WorkFailure } from '../../interfaces/scheduler-events.js';
import type { Application, FileId, WorkId, WorkSpec } from '../../model/application.js';
import type { ClusterId, HostId } from '../../model/grid.js';
import type { SchedCallRecord } from '../../record/events.js';
import type { SchedulerDeps } from '../deps.js';
import type { ReplayLinkItem, ReplayPlan } from './replay-plan.js';

/** What the replaying scheduler uses of a scheduler's dependencies (it plans nothing and draws nothing). */
export type ReplayDeps = Pick<SchedulerDeps, 'gridOS' | 'info' | 'clock' | 'record'>;

export class ReplayScheduler implements SchedulerEvents {
  private readonly hostQueue = new Map<HostId, WorkId[]>();
  private readonly linkQueue = new Map<ClusterId, ReplayLinkItem[]>();
  private readonly hostCluster = new Map<HostId, ClusterId>();
  private readonly upHosts = new Set<HostId>();
  private readonly running = new Map<HostId, WorkId>();
  private readonly linkBusy = new Map<ClusterId, ReplayLinkItem>();
  /** Works computed whose outputs wait in their cluster's storage. */
  private readonly computed = new Map<WorkId, HostId>();
  private readonly exitFailures = new Map<WorkId, number>();
  private readonly todo = new Set<WorkId>();
  private scheduling = false;
  private again = false;

  constructor(
    private readonly app: Application,
    plan: ReplayPlan,
    private readonly deps: ReplayDeps,
    private readonly maxExitFailures = 3,
  ) {
    for (const [host, works] of plan.hostOrder) this.hostQueue.set(host, [...works]);
    for (const [host, cluster] of plan.hostCluster) this.hostCluster.set(host, cluster);
    for (const [cluster, items] of plan.linkOrder) this.linkQueue.set(cluster, [...items]);
  }

  sched_new_host(hosts: readonly HostInfo[]): void {
    this.recordCall('sched_new_host', { hosts: hosts.map((h) => h.id) });
    for (const h of hosts) {
      this.upHosts.add(h.id);
      this.hostCluster.set(h.id, h.clusterId);
    }
    this.schedule();
  }

  sched_new_work(works: readonly WorkSpec[]): void {
    this.recordCall('sched_new_work', { works: works.map((w) => w.id) });
    for (const w of works) this.todo.add(w.id);
    // Works not given (a resumed run skips the verified ones) leave the recorded order.
    for (const [host, list] of this.hostQueue) this.hostQueue.set(host, list.filter((w) => this.todo.has(w)));
    for (const [cluster, list] of this.linkQueue) this.linkQueue.set(cluster, list.filter((i) => i.kind === 'input' || this.todo.has(i.workId)));
    this.schedule();
  }

  sched_work_done(works: readonly WorkId[], hostId: HostId): void {
    this.recordCall('sched_work_done', { works: [...works], hosts: [hostId] });
    for (const w of works) {
      if (this.running.get(hostId) !== w) continue;
      this.running.delete(hostId);
      this.computed.set(w, hostId);
    }
    this.schedule();
  }

  sched_host_failed(hosts: readonly HostId[]): void {
    this.recordCall('sched_host_failed', { hosts: [...hosts] });
    for (const h of hosts) {
      this.upHosts.delete(h);
      if (this.deps.info.hostRemoved?.(h) === true) {
        this.giveUpHost(h);
        continue;
      }
      const w = this.running.get(h);
      if (w === undefined) continue;
      this.running.delete(h);
      this.deps.record({ type: 'work-failed', t: this.deps.clock.nowS(), work: w, host: h, reason: 'host-failed', final: false });
      this.hostQueue.get(h)!.unshift(w);
    }
    this.schedule();
  }

  sched_work_failed(works: readonly WorkId[], failure: WorkFailure): void {
    this.recordCall('sched_work_failed', { works: [...works], hosts: [failure.hostId] });
    const h = failure.hostId;
    for (const w of works) {
      if (this.running.get(h) !== w) continue;
      this.running.delete(h);
      const n = failure.reason === 'exit' ? (this.exitFailures.get(w) ?? 0) + 1 : 0;
      this.exitFailures.set(w, n);
      const final = n >= this.maxExitFailures;
      this.deps.record({ type: 'work-failed', t: this.deps.clock.nowS(), work: w, host: h, reason: failure.reason, final });
      if (final) this.forget(w);
      else this.hostQueue.get(h)!.unshift(w);
    }
    this.schedule();
  }

  sched_disk_failed(clusters: readonly ClusterId[]): void {
    this.recordCall('sched_disk_failed', { clusters: [...clusters] });
    for (const c of clusters) {
      const lost = [...this.upHosts].filter((h) => this.hostCluster.get(h) === c);
      this.sched_host_failed(lost);
      const busy = this.linkBusy.get(c);
      this.linkBusy.delete(c);
      if (busy?.kind === 'output') this.linkQueue.get(c)!.unshift(busy);
      // Outputs waiting in that storage are gone: compute those Works again, first on their hosts.
      for (const [w, h] of [...this.computed]) {
        if (this.hostCluster.get(h) !== c) continue;
        this.computed.delete(w);
        if (this.deps.info.hostRemoved?.(h) === true) {
          this.deps.record({ type: 'work-failed', t: this.deps.clock.nowS(), work: w, host: h, reason: 'host-removed', final: true });
          this.forget(w);
          continue;
        }
        this.deps.record({ type: 'work-failed', t: this.deps.clock.nowS(), work: w, host: h, reason: 'outputs-lost', final: false });
        this.hostQueue.get(h)!.unshift(w);
      }
    }
    this.schedule();
  }

  sched_fileTransfer_done(transfer: Transfer): void {
    const fields: Omit<SchedCallRecord, 'type' | 't' | 'call'> =
      transfer.kind === 'input' ? { file: transfer.fileId, clusters: [transfer.clusterId] } : { works: [transfer.workId], clusters: [transfer.clusterId] };
    this.recordCall('sched_fileTransfer_done', fields);
    const busy = this.linkBusy.get(transfer.clusterId);
    if (!busy) return;
    this.linkBusy.delete(transfer.clusterId);
    if (transfer.kind === 'output' && busy.kind === 'output' && busy.workId === transfer.workId) {
      const host = this.computed.get(transfer.workId)!;
      this.computed.delete(transfer.workId);
      this.todo.delete(transfer.workId);
      this.deps.record({ type: 'work-done', t: this.deps.clock.nowS(), work: transfer.workId, host });
    }
    this.schedule();
  }

  /**
   * Works lost with `hostId` that had finished there after all (a blinked connection): computed on it,
   * whatever the record had them wait for again (its list, or a run started since, which is cancelled).
   * Their outputs keep their place in the recorded link order.
   */
  sched_work_recovered(works: readonly WorkId[], hostId: HostId): void {
    this.recordCall('sched_work_recovered', { works: [...works], hosts: [hostId] });
    for (const w of works) {
      if (!this.todo.has(w) || this.computed.has(w)) continue;
      for (const [h, running] of this.running) {
        if (running !== w) continue;
        this.running.delete(h);
        this.deps.gridOS.cancel(w, h);
      }
      for (const [h, list] of this.hostQueue) this.hostQueue.set(h, list.filter((x) => x !== w));
      this.computed.set(w, hostId);
    }
    this.schedule();
  }

  /** Every Work of the run is back at the origin or given up. */
  isFinished(): boolean {
    return this.todo.size === 0;
  }

  // A GridOS call may call back synchronously: go round again instead of nesting.
  private schedule(): void {
    if (this.scheduling) {
      this.again = true;
      return;
    }
    this.scheduling = true;
    try {
      do {
        this.again = false;
        this.step();
      } while (this.again);
    } finally {
      this.scheduling = false;
    }
  }

  private step(): void {
    const topology = this.deps.info.topology();
    for (const h of [...this.upHosts].sort()) {
      if (this.running.has(h) || this.deps.info.hostIsLeaving?.(h) === true) continue;
      const w = this.hostQueue.get(h)?.[0];
      if (w === undefined) continue;
      const cluster = this.hostCluster.get(h)!;
      const stored = this.deps.info.storedFiles(cluster);
      const missing = this.app.works[w]!.inputs.filter((f) => !stored.has(f));
      if (missing.length > 0) {
        this.requeueInputs(cluster, missing);
        continue;
      }
      this.hostQueue.get(h)!.shift();
      this.running.set(h, w);
      this.deps.gridOS.compute(w, h);
    }
    for (const { id: c } of topology.clusters) {
      if (this.linkBusy.has(c)) continue;
      const queue = this.linkQueue.get(c);
      const stored = this.deps.info.storedFiles(c);
      while (queue && queue.length > 0) {
        const item = queue[0]!;
        if (item.kind === 'input') {
          if (stored.has(item.fileId)) {
            queue.shift();
            continue;
          }
          queue.shift();
          this.linkBusy.set(c, item);
          this.deps.gridOS.store(item.fileId, c);
        } else if (this.computed.has(item.workId)) {
          queue.shift();
          this.linkBusy.set(c, item);
          this.deps.gridOS.retrieve(item.workId, this.computed.get(item.workId)!);
        }
        break; // the recorded order: an output not computed yet holds the link
      }
    }
  }

  /**
   * A host removed from the grid for good: the record has no other place for the Works it still had to
   * compute (the one it was computing, if its machine went down while leaving, then its list), so each is
   * given up once. Outputs it already computed stay in its cluster's storage and are still brought back.
   */
  private giveUpHost(h: HostId): void {
    const running = this.running.get(h);
    this.running.delete(h);
    const works = [...(running !== undefined ? [running] : []), ...(this.hostQueue.get(h) ?? [])];
    this.hostQueue.set(h, []);
    for (const w of works) {
      if (!this.todo.has(w) || this.computed.has(w)) continue;
      this.deps.record({ type: 'work-failed', t: this.deps.clock.nowS(), work: w, host: h, reason: 'host-removed', final: true });
      this.forget(w);
    }
  }

  /** A Work given up: nothing more is done for it. */
  private forget(w: WorkId): void {
    this.todo.delete(w);
    for (const [cluster, list] of this.linkQueue) this.linkQueue.set(cluster, list.filter((i) => i.kind === 'input' || i.workId !== w));
  }

  /** A Work at the head of a host list needs files that are no longer queued (lost with a failed cluster). */
  private requeueInputs(cluster: ClusterId, files: readonly FileId[]): void {
    const queue = this.linkQueue.get(cluster) ?? [];
    this.linkQueue.set(cluster, queue);
    const busy = this.linkBusy.get(cluster);
    for (const f of files) {
      if (busy?.kind === 'input' && busy.fileId === f) continue;
      if (queue.some((i) => i.kind === 'input' && i.fileId === f)) continue;
      queue.unshift({ kind: 'input', fileId: f });
    }
  }

  private recordCall(call: string, fields: Omit<SchedCallRecord, 'type' | 't' | 'call'>): void {
    this.deps.record({ type: 'sched', t: this.deps.clock.nowS(), call, ...fields });
  }
}
