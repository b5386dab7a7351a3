// Edits of the real grid file while a run goes on (and Slurm pilots that start or run out of time, which
// the pilot pool reports the same way): a machine added joins (connected, then its hosts offered); a machine
// removed retires: its idle hosts leave at once, a computing one finishes its task first (its outputs are
// kept), then leaves. A machine whose hosts have all left is closed; the last machine of a cluster stays
// until the outputs computed there are back at the origin, then the cluster leaves and this run's files
// are removed from its storage. A machine added under the host names of one still leaving waits for it.
import type { SchedulerEvents } from '../../../src/interfaces/scheduler-events.js';
import type { WorkId } from '../../../src/model/application.js';
import type { ClusterId } from '../../../src/model/grid.js';
import type { Endpoint } from '../../transport/endpoint.js';
import type { ProgressEvent } from '../../transport/progress-events.js';
import type { ClusterLink, ClusterLinks } from './cluster-link.js';
import { SchedulerTell, type Host, type HostMembership } from './host-membership.js';
import type { WorkLedger } from './work-ledger.js';

export interface GridFileEditDeps {
  readonly hosts: HostMembership;
  readonly clusters: ClusterLinks;
  readonly works: WorkLedger;
  readonly log: (event: ProgressEvent) => void;
  /** Adds machine `e`'s hosts to the run (joining) and listens for its going down. */
  register(clusterId: ClusterId, e: Endpoint): void;
  /** Connects a machine added while the run goes on. */
  connectLate(e: Endpoint): void;
  scheduler(): SchedulerEvents;
  isStopped(): boolean;
}

export class GridFileEdits {
  /** Machines removed from the real grid file (they leave once their hosts are idle). */
  private readonly retired = new Set<Endpoint>();
  /** Machines added while another machine with the same host names is still leaving. */
  private pendingJoins: { readonly clusterId: ClusterId; readonly endpoint: Endpoint }[] = [];

  constructor(private readonly d: GridFileEditDeps) {}

  /** Removed from the real grid file: not reconnected, its hosts leave when idle. */
  isRetired(e: Endpoint): boolean {
    return this.retired.has(e);
  }

  /**
   * A machine added to the real grid file, or a pilot job that started (`quiet`: its pool tells the user):
   * connect it, then offer its hosts to the scheduler (a re-plan).
   */
  join(clusterId: ClusterId, e: Endpoint, quiet = false): void {
    if (this.d.isStopped()) return;
    const namesInUse = e.spec.hostIds.some((id) => {
      const h = this.d.hosts.find(id);
      return h !== undefined && h.state.kind !== 'left';
    });
    if (namesInUse) {
      // the machine it replaces (same host names) is still finishing its task
      this.pendingJoins.push({ clusterId, endpoint: e });
      return;
    }
    this.d.register(clusterId, e);
    if (!quiet) this.d.log({ kind: 'joining', machine: e.spec.name, cluster: clusterId });
    this.d.connectLate(e);
  }

  /**
   * A machine removed from the real grid file, or a pilot whose time is up (`quiet`: its pool tells the
   * user). Its idle hosts leave at once (sched_host_failed); a host that is computing finishes that task
   * first (its outputs are kept and brought back), then leaves.
   */
  retire(clusterId: ClusterId, name: string, quiet = false): void {
    this.pendingJoins = this.pendingJoins.filter((p) => !(p.clusterId === clusterId && p.endpoint.spec.name === name));
    const c = this.d.clusters.find(clusterId);
    const e = c?.endpoints.find((x) => x.spec.name === name && !this.retired.has(x));
    if (!c || !e) return;
    this.retired.add(e);
    const hosts = e.spec.hostIds.map((id) => this.d.hosts.get(id));
    const running: WorkId[] = [];
    for (const h of hosts) {
      if (!h.running) continue;
      running.push(h.running.work);
      const tell = new SchedulerTell();
      this.d.hosts.move(h, 'leaving', { why: 'removed' }, tell);
      tell.send(this.d.scheduler());
    }
    if (!quiet) this.d.log({ kind: 'leaving', machine: name, running });
    for (const h of hosts) if (!h.running) this.hostLeaves(h);
    this.settle(c);
  }

  /** After a task of `h` ended (done, failed, lost or cancelled): a leaving host leaves now. */
  afterTask(h: Host): void {
    if (h.state.kind !== 'leaving' || h.running) return;
    this.hostLeaves(h);
    this.settle(this.d.clusters.get(h.info.clusterId));
  }

  /**
   * Closes the removed machines whose hosts have all left. The last machine of a cluster stays until the
   * outputs computed there are back at the origin; then the cluster leaves (sched_disk_failed, with
   * nothing left in it to lose) and this run's files are removed from its storage.
   */
  settle(c: ClusterLink): void {
    const drained = (e: Endpoint): boolean => this.retired.has(e) && e.spec.hostIds.every((id) => this.d.hosts.get(id).state.kind === 'left');
    const releasable = c.endpoints.filter(drained);
    if (releasable.length === 0) return;
    const clusterLeaves = releasable.length === c.endpoints.length;
    if (clusterLeaves && (c.linkBusy || this.d.works.computedIn(c.id).length > 0)) return;
    const cleaner = clusterLeaves ? releasable.find((e) => e.isUp()) : undefined;
    for (const e of releasable) {
      c.endpoints.splice(c.endpoints.indexOf(e), 1);
      this.d.log({ kind: 'left', machine: e.spec.name });
      void (async () => {
        if (e === cleaner) await e.removeRunDir().catch(() => undefined);
        await e.close().catch(() => undefined);
      })();
    }
    if (clusterLeaves && c.up) this.d.clusters.markDown(c, this.d.scheduler());
    const waiting = this.pendingJoins;
    this.pendingJoins = [];
    for (const p of waiting) this.join(p.clusterId, p.endpoint);
  }

  /**
   * A leaving (or idle, removed) host goes: the scheduler learns it is gone for good (hostRemoved is now
   * true), and gives the Works queued on it back to the Works to do. A host it already counts as failed
   * (down, reconnecting, set aside, never reached) is reported again: the replay, which waits for a failed
   * host to come back, stops waiting for this one.
   */
  private hostLeaves(h: Host): void {
    if (h.state.kind === 'left') return;
    const tell = new SchedulerTell();
    this.d.hosts.move(h, 'left', { why: 'removed' }, tell);
    tell.send(this.d.scheduler());
  }
}
