// Simulation speed, end to end (parse the description files, simulate, format the report):
//  (a) a work-queue sweep of 100,000 tasks on 1,000 hosts in 10 clusters: each task one private 1 MB
//      input, 100 s of work, a 10 KB output; links 10 ms, 1e8 B/s. Target: median ≤ 3 s.
//  (b) an MCell-style sweep of 20,000 tasks in chunks of 50 sharing one 50 MB file (plus a private 100 KB
//      input), on 200 hosts in 4 clusters, with xsufferage. Target: ≤ 30 s, peak RSS ≤ 1 GB.
// Also (a) driven by a minimal O(1)-per-event work queue instead of the project's scheduler, to show the
// engine's own throughput apart from do_plan().
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadApplication, loadGrid, saveApplication, writeGrid } from '../src/formats/index.js';
import type { Application, FileSpec, WorkSpec } from '../src/model/application.js';
import type { GridDescription, GridEvent } from '../src/model/grid.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../src/scheduler/options.js';
import { Rng } from '../src/util/rng.js';
import { formatReport } from '../src/cli/commands/simulate.js';
import { simulate } from '../backends/sim/simulate.js';
import { runSimulation, type SimScheduler, type SimSchedulerDeps } from '../backends/sim/run-simulation.js';
import type { HostInfo } from '../src/interfaces/information.js';
import type { Transfer } from '../src/interfaces/scheduler-events.js';
import { enlargeYoungGeneration } from '../src/util/young-generation.js';

// As the gridsweep command does.
enlargeYoungGeneration();

/** Hands each idle host the next Work; each link sends inputs and outputs in request order. O(1) per event. */
class MinimalWorkQueue implements SimScheduler {
  private next = 0;
  private readonly links = new Map<string, { busy: boolean; queue: { host: HostInfo; work: number; output: boolean }[]; head: number }>();
  private readonly hosts = new Map<string, HostInfo>();
  /** The Work whose (only) input a file is, and the host waiting for it. */
  private readonly workOfInput = new Map<number, number>();
  private readonly waiting = new Map<number, HostInfo>();

  constructor(
    private readonly deps: SimSchedulerDeps,
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

interface Scenario {
  readonly name: string;
  readonly heuristic: string;
  readonly repetitions: number;
  readonly targetS: number;
  readonly app: () => Application;
  readonly grid: () => GridDescription;
}

function gridOf(clusters: number, hostsPerCluster: number, rng: Rng): GridDescription {
  const events: GridEvent[] = [];
  for (let c = 0; c < clusters; c++) {
    events.push({ kind: 'ADD_CLUSTER', timeS: 0, cluster: `cluster${c}`, behavior: 'link', offset: 0 });
    for (let h = 0; h < hostsPerCluster; h++)
      events.push({ kind: 'ADD_HOST', timeS: 0, cluster: `cluster${c}`, host: `host${c}.${h}`, behavior: `cpu${rng.int(4)}`, offset: rng.int(20), arch: 0 });
  }
  return {
    version: '1',
    events,
    linkBehaviors: new Map([['link', { kind: 'link', name: 'link', samples: [{ latencyMs: 10, bandwidthBps: 1e8 }] }]]),
    hostBehaviors: new Map(
      [0, 1, 2, 3].map((i) => [`cpu${i}`, { kind: 'host' as const, name: `cpu${i}`, availabilityPct: Array.from({ length: 20 }, () => 50 + rng.int(51)) }]),
    ),
  };
}

const workQueue: Scenario = {
  name: '(a) work-queue sweep: 100,000 tasks, 1,000 hosts in 10 clusters',
  heuristic: 'workqueue',
  repetitions: 3,
  targetS: 3,
  app: () => {
    const tasks = 100_000;
    const files: FileSpec[] = [];
    const works: WorkSpec[] = [];
    for (let w = 0; w < tasks; w++) {
      files.push({ id: 2 * w, name: `in_${w}`, sizeBytes: 1_000_000, estSizeBytes: 1_000_000 });
      files.push({ id: 2 * w + 1, name: `out_${w}`, sizeBytes: 10_000, estSizeBytes: 10_000 });
      works.push({ id: w, inputs: [2 * w], outputs: [2 * w + 1], runTimeS: [100], estRunTimeS: [100] });
    }
    return { version: '1', files, works };
  },
  grid: () => gridOf(10, 100, new Rng(1)),
};

const mcell: Scenario = {
  name: '(b) MCell-style sweep: 20,000 tasks in chunks of 50 sharing a 50 MB file, 200 hosts in 4 clusters',
  heuristic: 'xsufferage',
  repetitions: 2,
  targetS: 30,
  app: () => {
    const rng = new Rng(2);
    const tasks = 20_000;
    const chunks = tasks / 50;
    const files: FileSpec[] = [];
    const works: WorkSpec[] = [];
    const file = (name: string, sizeBytes: number) => files.push({ id: files.length, name, sizeBytes, estSizeBytes: sizeBytes }) - 1;
    const shared = Array.from({ length: chunks }, (_, c) => file(`chunk_${c}`, 50_000_000));
    for (let w = 0; w < tasks; w++) {
      const input = file(`param_${w}`, 100_000);
      const output = file(`out_${w}`, 10_000 + rng.int(10_000));
      const runS = 90 + rng.int(21);
      works.push({ id: w, inputs: [shared[Math.floor(w / 50)]!, input], outputs: [output], runTimeS: [runS], estRunTimeS: [runS] });
    }
    return { version: '1', files, works };
  },
  grid: () => gridOf(4, 50, new Rng(3)),
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function engineAlone(): void {
  const app = workQueue.app();
  const grid = workQueue.grid();
  const times: number[] = [];
  let events = 0;
  let finished = false;
  for (let rep = 0; rep < 3; rep++) {
    const r = runSimulation({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'minimal-work-queue' }, seed: 1 }, (deps) => new MinimalWorkQueue(deps, app));
    times.push(r.wallMs.simulate);
    events = r.events;
    finished = r.finished;
  }
  const m = median(times);
  console.log(`(a) engine alone (minimal O(1) work queue instead of the scheduler), ${app.works.length} tasks, 1000 hosts`);
  console.log(`  simulate: median ${m.toFixed(0)} ms of ${times.map((t) => t.toFixed(0)).join(', ')}; ${events} events, ${Math.round(events / (m / 1000)).toLocaleString('en-US')} events/s; finished ${finished}`);
}

const only = process.argv[2]; // 'a' or 'b' runs one scenario only
const dir = mkdtempSync(join(tmpdir(), 'gridsweep-sim-bench-'));
try {
  engineAlone();
  for (const sc of [workQueue, mcell].filter((x) => only === undefined || x.name.startsWith(`(${only})`))) {
    const appPath = join(dir, 'bench.app');
    const gridPath = join(dir, 'bench.grid');
    saveApplication(appPath, sc.app());
    writeGrid(dir, 'bench.grid', sc.grid());
    const totals: number[] = [];
    let last: { parseMs: number; simMs: number; planMs: number; events: number; makespanS: number; finished: boolean; tasks: number; hosts: number } | undefined;
    for (let rep = 0; rep < sc.repetitions; rep++) {
      const t0 = performance.now();
      const app = loadApplication(appPath);
      const { grid } = loadGrid(gridPath);
      const t1 = performance.now();
      const r = simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: sc.heuristic }, seed: 1 });
      const report = formatReport(app, sc.heuristic, r);
      const t2 = performance.now();
      if (report.length === 0) throw new Error('empty report');
      totals.push((t2 - t0) / 1000);
      last = { parseMs: t1 - t0, simMs: r.wallMs.simulate, planMs: r.planCpuMs, events: r.events, makespanS: r.makespanS, finished: r.finished, tasks: r.worksTotal, hosts: r.hosts.length };
    }
    const m = median(totals);
    const l = last!;
    console.log(sc.name);
    console.log(`  inputs: ${l.tasks} tasks, ${l.hosts} hosts; heuristic ${sc.heuristic}; ${sc.repetitions} repetitions`);
    console.log(`  end to end: median ${m.toFixed(2)} s (target ≤ ${sc.targetS} s${m <= sc.targetS ? ', met' : ', MISSED'}); runs ${totals.map((t) => t.toFixed(2)).join(', ')} s`);
    console.log(`  last run: parse ${l.parseMs.toFixed(0)} ms, simulate ${l.simMs.toFixed(0)} ms (of which do_plan ${l.planMs.toFixed(0)} ms)`);
    console.log(`  simulated events: ${l.events} (${Math.round(l.events / (l.simMs / 1000)).toLocaleString('en-US')} events/s); makespan ${l.makespanS.toFixed(1)} s, finished ${l.finished}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const peakMB = process.resourceUsage().maxRSS / 1024;
console.log(`peak RSS: ${peakMB.toFixed(0)} MB (target ≤ 1024 MB${peakMB <= 1024 ? ', met' : ', MISSED'})`);
