// A small randomized work-queue scheduler for the simulator's own tests: an idle host takes a Work picked
// with the seeded Rng, its cluster's link sends the missing inputs, outputs go back as soon as the link is
// free; it records work-done and work-failed as a scheduler does. It copes with host and cluster failures by putting the lost Works back in the queue. Not the
// project's scheduler: a second, independent driver so that the engine is tested on many random runs.
import type { HostInfo } from '../../../src/interfaces/information.js';
import type { Transfer } from '../../../src/interfaces/scheduler-events.js';
import type { FileId, WorkId, WorkSpec } from '../../../src/model/application.js';
import type { SimScheduler } from '../../../backends/sim/run-simulation.js';
import type { SchedulerDeps } from '../../../src/scheduler/deps.js';

interface ClusterState {
  linkBusy: boolean;
  readonly sendQueue: FileId[];
  readonly sending: Set<FileId>;
  readonly retrieveQueue: { work: WorkId; host: string }[];
  /** The Work whose outputs are on the link now. */
  retrieving: WorkId | null;
}

export class RandomScheduler implements SimScheduler {
  private works: readonly WorkSpec[] = [];
  private readonly pending: WorkId[] = [];
  private readonly hosts = new Map<string, HostInfo>();
  /** Work assigned to a host: waiting for inputs, or running. */
  private readonly assigned = new Map<string, { work: WorkId; running: boolean }>();
  private readonly clusters = new Map<string, ClusterState>();
  private readonly computedOn = new Map<WorkId, string>();

  constructor(private readonly deps: SchedulerDeps) {}

  private cluster(id: string): ClusterState {
    let c = this.clusters.get(id);
    if (!c) this.clusters.set(id, (c = { linkBusy: false, sendQueue: [], sending: new Set(), retrieveQueue: [], retrieving: null }));
    return c;
  }

  sched_new_work(works: readonly WorkSpec[]): void {
    this.works = works;
    for (const w of works) this.pending.push(w.id);
  }

  sched_new_host(hosts: readonly HostInfo[]): void {
    for (const h of hosts) this.hosts.set(h.id, h);
    this.schedule();
  }

  sched_work_done(works: readonly WorkId[], hostId: string): void {
    const h = this.hosts.get(hostId)!;
    this.assigned.delete(hostId);
    for (const w of works) {
      this.computedOn.set(w, hostId);
      this.cluster(h.clusterId).retrieveQueue.push({ work: w, host: hostId });
    }
    this.schedule();
  }

  sched_host_failed(hosts: readonly string[]): void {
    for (const id of hosts) this.loseHost(id);
    this.schedule();
  }

  private loseHost(id: string): void {
    const a = this.assigned.get(id);
    if (a) {
      this.pending.push(a.work);
      if (a.running)
        this.deps.record({ type: 'work-failed', t: this.deps.clock.nowS(), work: a.work, host: id, reason: 'host-failed', final: false });
    }
    this.assigned.delete(id);
    this.hosts.delete(id);
  }

  sched_work_failed(): void {}

  sched_disk_failed(clusters: readonly string[]): void {
    for (const c of clusters) {
      for (const h of [...this.hosts.values()]) if (h.clusterId === c) this.loseHost(h.id);
      const state = this.cluster(c);
      // Outputs not yet sent are redone elsewhere; the link's queue and transfer are gone.
      for (const r of state.retrieveQueue) this.pending.push(r.work);
      if (state.retrieving !== null) this.pending.push(state.retrieving);
      this.clusters.delete(c);
    }
    this.schedule();
  }

  sched_fileTransfer_done(t: Transfer): void {
    const c = this.cluster(t.clusterId);
    c.linkBusy = false;
    if (t.kind === 'input') c.sending.delete(t.fileId);
    else {
      c.retrieving = null;
      this.deps.record({ type: 'work-done', t: this.deps.clock.nowS(), work: t.workId, host: this.computedOn.get(t.workId)! });
    }
    this.schedule();
  }

  private schedule(): void {
    const { gridOS, info, rng } = this.deps;
    for (const h of this.hosts.values()) {
      let a = this.assigned.get(h.id);
      if (!a && this.pending.length > 0) {
        const i = rng.int(this.pending.length);
        const work = this.pending[i]!;
        this.pending[i] = this.pending[this.pending.length - 1]!;
        this.pending.pop();
        a = { work, running: false };
        this.assigned.set(h.id, a);
        const c = this.cluster(h.clusterId);
        const stored = info.storedFiles(h.clusterId);
        for (const f of this.works[work]!.inputs)
          if (!stored.has(f) && !c.sending.has(f) && !c.sendQueue.includes(f)) c.sendQueue.push(f);
      }
      if (a && !a.running) {
        const stored = info.storedFiles(h.clusterId);
        if (this.works[a.work]!.inputs.every((f) => stored.has(f))) {
          a.running = true;
          gridOS.compute(a.work, h.id);
        }
      }
    }
    for (const [id, c] of this.clusters) {
      if (c.linkBusy) continue;
      const r = c.retrieveQueue.shift();
      if (r) {
        c.linkBusy = true;
        c.retrieving = r.work;
        gridOS.retrieve(r.work, r.host);
        continue;
      }
      const f = c.sendQueue.shift();
      if (f !== undefined) {
        c.linkBusy = true;
        c.sending.add(f);
        gridOS.store(f, id);
      }
    }
  }
}
