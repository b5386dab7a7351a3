// The benchmarks' minimal work queue: the engine's own throughput apart from the project's scheduler, and
// the policy the SimGrid twin (bench/simgrid-twin/master-worker.cpp) implements too.
import type { Application } from '../../src/model/application.js';
import type { HostInfo } from '../../src/interfaces/information.js';
import type { Transfer } from '../../src/interfaces/scheduler-events.js';
import type { SimScheduler } from '../../backends/sim/run-simulation.js';
import type { SchedulerDeps } from '../../src/scheduler/deps.js';

/** Hands each idle host the next Work; each link sends inputs and outputs in request order. O(1) per event. */
export class MinimalWorkQueue implements SimScheduler {
  private next = 0;
  private readonly links = new Map<string, { busy: boolean; queue: { host: HostInfo; work: number; output: boolean }[]; head: number }>();
  private readonly hosts = new Map<string, HostInfo>();
  /** The Work whose (only) input a file is, and the host waiting for it. */
  private readonly workOfInput = new Map<number, number>();
  private readonly waiting = new Map<number, HostInfo>();

  constructor(
    private readonly deps: SchedulerDeps,
    private readonly app: Application,
  ) {
    for (const w of app.works) this.workOfInput.set(w.inputs[0]!, w.id);
  }

  sched_new_work(): void {}
  sched_new_host(hosts: readonly HostInfo[]): void {
    for (const h of hosts) {
      this.hosts.set(h.id, h);
      this.assign(h);
    }
  }
  sched_work_done(works: readonly number[], hostId: string): void {
    const h = this.hosts.get(hostId)!;
    this.enqueue(h, works[0]!, true);
    this.assign(h);
  }
  sched_host_failed(): void {}
  sched_work_failed(): void {}
  sched_disk_failed(): void {}
  sched_fileTransfer_done(t: Transfer): void {
    this.links.get(t.clusterId)!.busy = false;
    if (t.kind === 'input') {
      const h = this.waiting.get(t.fileId)!;
      this.waiting.delete(t.fileId);
      this.deps.gridOS.compute(this.workOfInput.get(t.fileId)!, h.id);
    }
    this.pump(t.clusterId);
  }
  private assign(h: HostInfo): void {
    if (this.next < this.app.works.length) this.enqueue(h, this.next++, false);
  }
  private enqueue(host: HostInfo, work: number, output: boolean): void {
    let link = this.links.get(host.clusterId);
    if (!link) this.links.set(host.clusterId, (link = { busy: false, queue: [], head: 0 }));
    link.queue.push({ host, work, output });
    if (!output) this.waiting.set(this.app.works[work]!.inputs[0]!, host);
    this.pump(host.clusterId);
  }
  private pump(clusterId: string): void {
    const link = this.links.get(clusterId)!;
    if (link.busy || link.head >= link.queue.length) return;
    const op = link.queue[link.head++]!;
    link.busy = true;
    if (op.output) this.deps.gridOS.retrieve(op.work, op.host.id);
    else this.deps.gridOS.store(this.app.works[op.work]!.inputs[0]!, clusterId);
  }
}
