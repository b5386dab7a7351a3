// A deliberately simple stand-in scheduler for testing the real backends through the GridOS port before
// (and independently of) the real Scheduler: first-come first-served, one transfer per link, one Work per
// host, inputs stored on demand. It keeps the FIFO discipline the ports require and nothing more.
import type { GridOS } from '../../../src/interfaces/grid-os.js';
import type { HostInfo, InformationService } from '../../../src/interfaces/information.js';
import type { SchedulerEvents, Transfer, WorkFailure } from '../../../src/interfaces/scheduler-events.js';
import type { FileId, WorkId, WorkSpec } from '../../../src/model/application.js';
import type { ClusterId, HostId } from '../../../src/model/grid.js';
import type { RecordSink } from '../../../src/record/events.js';

export class GreedyDriver implements SchedulerEvents {
  private readonly pending: WorkSpec[] = [];
  private readonly hosts = new Map<HostId, HostInfo>();
  private readonly running = new Map<HostId, WorkSpec>();
  private readonly linkBusy = new Set<ClusterId>();
  private readonly toRetrieve = new Map<ClusterId, { work: WorkSpec; host: HostId }[]>();
  readonly calls: string[] = [];
  readonly failures: { works: readonly WorkId[]; failure: WorkFailure }[] = [];

  private readonly exitFailures = new Map<WorkId, number>();

  constructor(
    private readonly gridOS: GridOS,
    private readonly info: InformationService,
    private readonly record: RecordSink,
    private readonly maxExitFailures = 3,
  ) {}

  sched_new_host(hosts: readonly HostInfo[]): void {
    this.calls.push(`new_host ${hosts.map((h) => h.id).join(',')}`);
    for (const h of hosts) this.hosts.set(h.id, h);
    this.tick();
  }

  sched_new_work(works: readonly WorkSpec[]): void {
    this.pending.push(...works);
  }

  sched_work_done(works: readonly WorkId[], hostId: HostId): void {
    const w = this.running.get(hostId)!;
    if (!works.includes(w.id)) throw new Error(`driver: ${hostId} finished ${works} but ran ${w.id}`);
    this.running.delete(hostId);
    const c = this.hosts.get(hostId)!.clusterId;
    this.toRetrieve.set(c, [...(this.toRetrieve.get(c) ?? []), { work: w, host: hostId }]);
    this.tick();
  }

  sched_host_failed(hosts: readonly HostId[]): void {
    this.calls.push(`host_failed ${hosts.join(',')}`);
    for (const h of hosts) {
      const w = this.running.get(h);
      if (w) this.pending.unshift(w);
      this.running.delete(h);
      this.hosts.delete(h);
    }
    this.tick();
  }

  sched_work_failed(works: readonly WorkId[], failure: WorkFailure): void {
    this.failures.push({ works, failure });
    const w = this.running.get(failure.hostId);
    if (!w || !works.includes(w.id)) return;
    this.running.delete(failure.hostId);
    const n = (this.exitFailures.get(w.id) ?? 0) + 1;
    this.exitFailures.set(w.id, n);
    const final = n >= this.maxExitFailures;
    this.record({ type: 'work-failed', t: 0, work: w.id, host: failure.hostId, reason: failure.reason, final });
    if (!final) this.pending.push(w);
    this.tick();
  }

  sched_disk_failed(clusters: readonly ClusterId[]): void {
    this.calls.push(`disk_failed ${clusters.join(',')}`);
    for (const c of clusters) {
      for (const { work } of this.toRetrieve.get(c) ?? []) this.pending.unshift(work);
      this.toRetrieve.delete(c);
      this.linkBusy.delete(c);
      const hosts = [...this.hosts.values()].filter((h) => h.clusterId === c).map((h) => h.id);
      this.sched_host_failed(hosts);
    }
  }

  sched_fileTransfer_done(t: Transfer): void {
    this.linkBusy.delete(t.clusterId);
    this.tick();
  }

  private tick(): void {
    const up = this.info.topology();
    for (const { id: c } of up.clusters) {
      if (this.linkBusy.has(c)) continue;
      const ready = this.toRetrieve.get(c);
      if (ready && ready.length > 0) {
        const { work, host } = ready.shift()!;
        this.linkBusy.add(c);
        this.gridOS.retrieve(work.id, host);
        continue;
      }
      const stored = this.info.storedFiles(c);
      const need = this.nextMissingInput(c, stored);
      if (need !== undefined) {
        this.linkBusy.add(c);
        this.gridOS.store(need, c);
      }
    }
    for (const h of up.hosts) {
      if (this.running.has(h.id) || !this.hosts.has(h.id)) continue;
      const stored = this.info.storedFiles(h.clusterId);
      const i = this.pending.findIndex((w) => w.inputs.every((f) => stored.has(f)) && !(this.info.hostsToAvoid?.(w.id).has(h.id) ?? false));
      // (a Work every up host must avoid simply waits; the tests give it enough hosts)
      if (i < 0) continue;
      const [w] = this.pending.splice(i, 1);
      this.running.set(h.id, w!);
      this.gridOS.compute(w!.id, h.id);
    }
  }

  private nextMissingInput(c: ClusterId, stored: ReadonlySet<FileId>): FileId | undefined {
    for (const w of this.pending) for (const f of w.inputs) if (!stored.has(f)) return f;
    return undefined;
  }
}
