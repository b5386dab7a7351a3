// One full do_plan() at t = 0 on an MCell-style sweep: 10,000 Works in chunks of 50 sharing one large
// input, each with 2 private inputs and 1 output; 1,000 hosts in 10 clusters (3 architectures, 3
// availability levels), nothing stored anywhere yet. The Scheduler runs against minimal in-memory ports;
// the figures are the plan's own time (the 'plan' record's cpuMs, elapsed time) and the process's user CPU
// time around the whole call (the plan and the scheduler's set-up around it), which says more on a shared
// machine. Target: every built-in heuristic ≤ 1 s median (issue 31). Usage: node dist/bench/plan.bench.js
// [heuristic ...] (default: every built-in heuristic). With more than one, each heuristic runs in a process
// of its own, so that its figure does not depend on which heuristics V8 compiled the shared engine for
// before it (Min-min after the work queue once took 3.0 s against 0.66 s alone: an on-stack-replacement trap,
// fixed in MctEngine.updateCells; both now take 0.70 s).
// (REPS=N in the environment changes the number of repetitions, default 5; HOST_CANDIDATES=with-room scores only
// hosts that still want work, see src/scheduler/strategies/host-candidates.ts.)
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Clock, TimerId } from '../src/interfaces/clock.js';
import type { GridOS } from '../src/interfaces/grid-os.js';
import type { HostInfo, InformationService, Sample } from '../src/interfaces/information.js';
import type { Application, FileSpec, WorkSpec } from '../src/model/application.js';
import { LastValueForecaster } from '../src/forecast/last-value.js';
import type { RunRecordEvent } from '../src/record/events.js';
import { listHeuristics } from '../src/scheduler/heuristics/registry.js';
import { DEFAULT_SCHEDULER_OPTIONS, type HostCandidates } from '../src/scheduler/options.js';
import { Scheduler } from '../src/scheduler/scheduler.js';
import { Rng } from '../src/util/rng.js';
import { median } from './support/median.js';

const WORKS = 10_000;
const CHUNK = 50;
const CLUSTERS = 10;
const HOSTS_PER_CLUSTER = 100;
const REPETITIONS = Number(process.env.REPS ?? 5);
const HOST_CANDIDATES = (process.env.HOST_CANDIDATES ?? DEFAULT_SCHEDULER_OPTIONS.hostCandidates) as HostCandidates;

function mcellApplication(rng: Rng): Application {
  const files: FileSpec[] = [];
  const addFile = (name: string, sizeBytes: number): number => {
    files.push({ id: files.length, name, sizeBytes, estSizeBytes: sizeBytes });
    return files.length - 1;
  };
  const works: WorkSpec[] = [];
  let shared = -1;
  for (let w = 0; w < WORKS; w++) {
    if (w % CHUNK === 0) shared = addFile(`chunk${w / CHUNK}`, 20_000_000 + rng.int(20_000_000));
    const inputs = [shared, addFile(`in${w}a`, 50_000 + rng.int(50_000)), addFile(`in${w}b`, 10_000 + rng.int(10_000))];
    const outputs = [addFile(`out${w}`, 100_000 + rng.int(100_000))];
    const base = 200 + rng.int(400);
    const est = [base, Math.round(base * 1.3), Math.round(base * 0.8)];
    works.push({ id: w, inputs, outputs, runTimeS: est, estRunTimeS: est });
  }
  return { version: '1', files, works };
}

function grid(rng: Rng): { hosts: HostInfo[]; bandwidthBps: Map<string, number>; latencyMs: Map<string, number>; availability: Map<string, number> } {
  const hosts: HostInfo[] = [];
  const bandwidthBps = new Map<string, number>();
  const latencyMs = new Map<string, number>();
  const availability = new Map<string, number>();
  for (let c = 0; c < CLUSTERS; c++) {
    const clusterId = `cluster${String(c).padStart(2, '0')}`;
    bandwidthBps.set(clusterId, 1_000_000 * (1 + rng.int(10)));
    latencyMs.set(clusterId, 20 + rng.int(180));
    for (let k = 0; k < HOSTS_PER_CLUSTER; k++) {
      const id = `${clusterId}.host${String(k).padStart(3, '0')}`;
      hosts.push({ id, clusterId, arch: rng.int(3) });
      availability.set(id, rng.pick([0.5, 0.75, 1]));
    }
  }
  return { hosts, bandwidthBps, latencyMs, availability };
}

class ManualClock implements Clock {
  private readonly timers = new Map<TimerId, { atS: number; fn: () => void }>();
  private nextId = 1;
  nowS(): number {
    return 0;
  }
  at(atS: number, fn: () => void): TimerId {
    this.timers.set(this.nextId, { atS, fn });
    return this.nextId++;
  }
  cancel(id: TimerId): void {
    this.timers.delete(id);
  }
  /** Runs the timers due now. */
  runDue(): void {
    for (const [id, timer] of [...this.timers]) {
      if (timer.atS > 0) continue;
      this.timers.delete(id);
      timer.fn();
    }
  }
}

function planOnce(heuristic: string, app: Application, g: ReturnType<typeof grid>): { cpuMs: number; userMs: number; planned: number } {
  const sample = (value: number): readonly Sample[] => [{ timeS: 0, value }];
  const info: InformationService = {
    topology: () => ({ clusters: [...g.bandwidthBps.keys()].map((id) => ({ id })), hosts: g.hosts }),
    storedFiles: () => new Set(),
    hostAvailability: (id) => sample(g.availability.get(id)!),
    linkBandwidthBps: (id) => sample(g.bandwidthBps.get(id)!),
    linkLatencyMs: (id) => sample(g.latencyMs.get(id)!),
  };
  const gridOS: GridOS = { store: (f, c) => `${c}/${f}`, remove: () => {}, compute: () => {}, retrieve: () => {}, cancel: () => {} };
  const clock = new ManualClock();
  const plans: RunRecordEvent[] = [];
  const scheduler = new Scheduler(app, { ...DEFAULT_SCHEDULER_OPTIONS, heuristic, hostCandidates: HOST_CANDIDATES }, {
    gridOS,
    info,
    forecaster: new LastValueForecaster(),
    clock,
    rng: new Rng(1),
    record: (e) => {
      if (e.type === 'plan') plans.push(e);
    },
  });
  const user0 = process.cpuUsage().user;
  scheduler.sched_new_work(app.works);
  scheduler.sched_new_host(g.hosts);
  clock.runDue();
  const userMs = (process.cpuUsage().user - user0) / 1000;
  const plan = plans[0];
  if (plan === undefined || plan.type !== 'plan') throw new Error('no plan ran');
  return { cpuMs: plan.cpuMs, userMs, planned: plan.plannedWorks };
}

const requested = process.argv.slice(2);
const heuristics = requested.length > 0 ? requested : listHeuristics().map((h) => h.name);
const ONE_HEURISTIC_CHILD = 'GRIDSWEEP_PLAN_BENCH_CHILD';
const isChild = process.env[ONE_HEURISTIC_CHILD] === '1';
const rng = new Rng(2024);
const app = mcellApplication(rng);
const g = grid(rng);
const cpu = cpus();
if (!isChild) console.log(`machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, load average ${loadavg()[0]!.toFixed(1)} at the start`);
if (!isChild) console.log(
  `inputs: ${WORKS} works (chunks of ${CHUNK} sharing one 20–40 MB file, 2 private inputs, 1 output), ${app.files.length} files, ` +
    `${g.hosts.length} hosts in ${CLUSTERS} clusters; planIntervalS=${DEFAULT_SCHEDULER_OPTIONS.planIntervalS}, deltaS=${DEFAULT_SCHEDULER_OPTIONS.deltaS}, hostCandidates=${HOST_CANDIDATES}; ${REPETITIONS} repetitions`,
);
const TARGET_S = 1;
if (heuristics.length > 1) {
  for (const heuristic of heuristics) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), heuristic], { stdio: 'inherit', env: { ...process.env, [ONE_HEURISTIC_CHILD]: '1' } });
    if (child.status !== 0) throw new Error(`the plan bench of ${heuristic} exited with ${child.status ?? child.signal}`);
  }
}
for (const heuristic of heuristics.length > 1 ? [] : heuristics) {
  const runs = Array.from({ length: REPETITIONS }, () => planOnce(heuristic, app, g));
  const ms = runs.map((r) => r.cpuMs);
  const medianS = median(ms) / 1000;
  const userS = median(runs.map((r) => r.userMs)) / 1000;
  const target = `; target ≤ ${TARGET_S} s, ${medianS <= TARGET_S ? 'met' : 'MISSED'}`;
  console.log(
    `${heuristic.padEnd(30)} median ${medianS.toFixed(3)} s  (min ${(Math.min(...ms) / 1000).toFixed(3)}, max ${(Math.max(...ms) / 1000).toFixed(3)}; user CPU ${userS.toFixed(3)} s), ${runs[0]!.planned} works placed${target}`,
  );
}
if (!isChild) console.log(`load average ${loadavg()[0]!.toFixed(1)} at the end`);
if (heuristics.length === 1) console.log(`  peak memory: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
