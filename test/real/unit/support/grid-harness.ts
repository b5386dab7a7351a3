// RealGridOS over fake machines (fake-endpoint.ts), with a scheduler stand-in that writes down every
// sched_* call it receives: the unit tests drive the GridOS port as the scheduler would and check what the
// grid tells the scheduler, the run record and the journal. Timers are real but short (tens of ms).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Journal, JournalInput } from '../../../../backends/real/journal.js';
import type { ProgressEvent } from '../../../../backends/transport/progress-events.js';
import { RealGridOS } from '../../../../backends/real/real-grid-os.js';
import { RetryPolicy } from '../../../../backends/real/retry-policy.js';
import { WallClock } from '../../../../backends/real/wall-clock.js';
import type { HostInfo } from '../../../../src/interfaces/information.js';
import type { SchedulerEvents } from '../../../../src/interfaces/scheduler-events.js';
import type { RunRecordEvent } from '../../../../src/record/events.js';
import { expandSweep, type ExpandedSweep } from '../../../../src/sweep/expand.js';
import { loadSweepFile } from '../../../../src/sweep/sweep-file.js';
import { FakeEndpoint, FakeStorage } from './fake-endpoint.js';

/** The scheduler's side: every call, as one line (`new_host h1 h2`, `work_done 0 h1`...). */
export class SchedulerLog implements SchedulerEvents {
  readonly calls: string[] = [];
  /** Called after each call is written down (a test may answer as a scheduler would). */
  onCall: ((call: string) => void) | undefined;
  sched_new_host(hosts: readonly HostInfo[]): void {
    this.push(`new_host ${hosts.map((h) => h.id).join(' ')}`);
  }
  sched_new_work(): void {
    this.push('new_work');
  }
  sched_work_done(works: readonly number[], hostId: string): void {
    this.push(`work_done ${works.join(' ')} ${hostId}`);
  }
  sched_host_failed(hosts: readonly string[]): void {
    this.push(`host_failed ${hosts.join(' ')}`);
  }
  sched_work_failed(works: readonly number[], failure: { reason: string; hostId: string }): void {
    this.push(`work_failed ${works.join(' ')} ${failure.hostId} ${failure.reason}`);
  }
  sched_disk_failed(clusters: readonly string[]): void {
    this.push(`disk_failed ${clusters.join(' ')}`);
  }
  sched_fileTransfer_done(t: { kind: 'input'; fileId: number; clusterId: string } | { kind: 'output'; workId: number; clusterId: string }): void {
    this.push(t.kind === 'input' ? `stored ${t.fileId} ${t.clusterId}` : `retrieved ${t.workId} ${t.clusterId}`);
  }
  sched_work_recovered(works: readonly number[], hostId: string): void {
    this.push(`recovered ${works.join(' ')} ${hostId}`);
  }
  private push(call: string): void {
    this.calls.push(call);
    this.onCall?.(call);
  }
}

/** A journal in memory; `refuse` makes every append fail with that error (an origin that is full, say). */
export class MemoryJournal {
  readonly entries: JournalInput[] = [];
  refuse: Error | undefined;
  async append(entry: JournalInput): Promise<void> {
    if (this.refuse) throw this.refuse;
    this.entries.push(entry);
  }
  /** In memory, written and durable are the same moment. */
  appendWritten(entry: JournalInput): Promise<void> {
    return this.append(entry);
  }
  lines(): string[] {
    return this.entries.map((e) => `${e.type} ${'work' in e ? e.work : ''}`.trim());
  }
}

export interface Harness {
  readonly grid: RealGridOS;
  readonly sweep: ExpandedSweep;
  readonly originDir: string;
  readonly scheduler: SchedulerLog;
  readonly record: RunRecordEvent[];
  readonly journal: MemoryJournal;
  readonly log: ProgressEvent[];
  /** Machines by name; the storage of each cluster by id. */
  readonly machines: Map<string, FakeEndpoint>;
  readonly storages: Map<string, FakeStorage>;
  /** The run record's grid events, each as one line (`ADD_HOST h1`, `REMOVE_CLUSTER c1`...). */
  gridEvents(): string[];
  /** Connects every machine, attaches the scheduler log and offers every host, as runReal does. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** cluster id → machines, each `name: host ids`. Default: one cluster c1 with machine m1 holding h1. */
  readonly clusters?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  /** How many tasks the sweep has (default 2); task i writes out/i.txt and reads in.txt. */
  readonly tasks?: number;
  readonly maxAttempts?: number;
  readonly hostFailuresToSetAside?: number;
  readonly setAsideS?: number;
  readonly reconnectS?: number;
  readonly commandS?: number;
  /** Seconds between load probes, and between looks at an adopted attempt (default 60: none in a test). */
  readonly samplePeriodS?: number;
}

export function makeHarness(o: HarnessOptions = {}): Harness {
  const originDir = mkdtempSync(join(tmpdir(), 'gridsweep-unit-'));
  writeFileSync(join(originDir, 'in.txt'), 'input\n');
  const sweepPath = join(originDir, 'sweep.json');
  const n = o.tasks ?? 2;
  writeFileSync(
    sweepPath,
    JSON.stringify({
      sweep: 1,
      command: ['sh', '-c', 'true', '{i}'],
      parameters: { i: { from: 0, to: n - 1 } },
      inputs: { data: 'in.txt' },
      outputs: { out: 'out/{i}.txt' },
      estimates: { runTimeS: 1, outputSizeBytes: 20 },
    }),
  );
  const sweep = expandSweep(loadSweepFile(sweepPath), { originDir });
  const machines = new Map<string, FakeEndpoint>();
  const storages = new Map<string, FakeStorage>();
  const layout = o.clusters ?? { c1: { m1: ['h1'] } };
  const clusters = Object.entries(layout).map(([id, ms]) => {
    const storage = new FakeStorage();
    storages.set(id, storage);
    const endpoints = Object.entries(ms).map(([name, hosts]) => {
      const e = new FakeEndpoint(name, hosts, id, storage);
      machines.set(name, e);
      return e;
    });
    return { id, endpoints };
  });
  const record: RunRecordEvent[] = [];
  const journal = new MemoryJournal();
  const log: ProgressEvent[] = [];
  const scheduler = new SchedulerLog();
  const grid = new RealGridOS({
    sweep,
    clusters,
    clock: new WallClock(),
    record: (e) => record.push(e),
    journal: journal as unknown as Journal,
    policy: new RetryPolicy({
      maxAttempts: o.maxAttempts ?? 3,
      hostFailuresToSetAside: o.hostFailuresToSetAside ?? 3,
      setAsideBaseS: o.setAsideS ?? 0.05,
      setAsideMaxS: 1,
    }),
    deadlines: { commandS: o.commandS ?? 0.05, probeS: 1, loginS: 1, assumedBandwidthBps: 1e9 },
    works: sweep.application.works.map((w) => w.id),
    log: (e) => log.push(e),
    startGraceS: 0.01,
    samplePeriodS: o.samplePeriodS ?? 60,
    reconnectBaseS: o.reconnectS ?? 0.03,
    reconnectMaxS: 0.1,
  });
  return {
    grid,
    sweep,
    originDir,
    scheduler,
    record,
    journal,
    log,
    machines,
    storages,
    gridEvents: () =>
      record.flatMap((r) => {
        if (r.type !== 'grid') return [];
        const ev = r.event as { kind: string; host?: string; cluster?: string };
        return [`${ev.kind} ${ev.host ?? ev.cluster}`];
      }),
    async start() {
      await grid.connectAll();
      grid.attach(scheduler);
      grid.announceAll();
    },
    async close() {
      await grid.stop(false);
      rmSync(originDir, { recursive: true, force: true });
    },
  };
}

/** Lets the promise chains the grid started run (a few turns of the event loop, no timer). */
export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((r) => setImmediate(r));
}

/** Waits (polling every ms) until `ok()` holds, failing after `ms`. */
export async function until(ok: () => boolean, what: string, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
