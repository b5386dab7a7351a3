// Wires a Scheduler to the fake grid and clock, and completes operations on request.
import { LastValueForecaster } from '../../../src/forecast/last-value.js';
import type { HostInfo } from '../../../src/interfaces/information.js';
import type { Application, FileSpec, WorkSpec } from '../../../src/model/application.js';
import type { RunRecordEvent } from '../../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../../../src/scheduler/options.js';
import { Scheduler } from '../../../src/scheduler/scheduler.js';
import { Rng } from '../../../src/util/rng.js';
import { FakeClock, FakeGrid, type Op } from './fake-grid.js';

export function file(id: number, sizeBytes: number): FileSpec {
  return { id, name: `f${id}`, sizeBytes, estSizeBytes: sizeBytes };
}

export function work(id: number, inputs: number[], outputs: number[], estRunTimeS: number[]): WorkSpec {
  return { id, inputs, outputs, runTimeS: estRunTimeS, estRunTimeS };
}

export class Harness {
  readonly clock = new FakeClock();
  readonly grid = new FakeGrid();
  readonly records: RunRecordEvent[] = [];
  readonly scheduler: Scheduler;

  constructor(
    readonly app: Application,
    options: Partial<SchedulerOptions> = {},
  ) {
    this.scheduler = new Scheduler(app, { ...DEFAULT_SCHEDULER_OPTIONS, ...options }, {
      gridOS: this.grid,
      info: this.grid,
      forecaster: new LastValueForecaster(),
      clock: this.clock,
      rng: new Rng(7),
      record: (e) => this.records.push(e),
    });
  }

  start(hosts: HostInfo[]): void {
    this.scheduler.sched_new_work(this.app.works);
    for (const h of hosts) this.grid.addHost(h);
    this.scheduler.sched_new_host(hosts);
    this.clock.advanceTo(this.clock.nowS());
  }

  /** Reports `op` finished at time `tS`. */
  complete(op: Op, tS = this.clock.nowS()): void {
    this.clock.advanceTo(tS);
    this.grid.finish(op);
    if (op.kind === 'store') this.scheduler.sched_fileTransfer_done({ kind: 'input', fileId: op.fileId, clusterId: op.clusterId });
    else if (op.kind === 'retrieve') this.scheduler.sched_fileTransfer_done({ kind: 'output', workId: op.workId, clusterId: op.clusterId });
    else this.scheduler.sched_work_done([op.workId], op.hostId);
    this.clock.advanceTo(this.clock.nowS());
  }

  find(pred: (op: Op) => boolean): Op {
    const op = this.grid.active.find(pred);
    if (op === undefined) throw new Error(`no such active operation; active: ${JSON.stringify(this.grid.active)}`);
    return op;
  }

  /** Completes the oldest active operation, one simulated second later, until an operation matching `pred` is active. */
  runUntil(pred: (op: Op) => boolean, maxSteps = 10_000): void {
    for (let step = 0; !this.grid.active.some(pred); step++) {
      const op = this.grid.active[0];
      if (op === undefined || step >= maxSteps) throw new Error(`no such operation came; active: ${JSON.stringify(this.grid.active)}`);
      this.complete(op, this.clock.nowS() + 1);
    }
  }

  /** Completes the oldest active operation, one simulated second later, until the run ends (or `maxSteps`). */
  runToEnd(maxSteps = 10_000): void {
    for (let step = 0; step < maxSteps && !this.scheduler.isFinished(); step++) {
      const op = this.grid.active[0];
      if (op === undefined) {
        const next = this.clock.pendingTimes()[0];
        if (next === undefined) throw new Error('stuck: nothing active and no timer');
        this.clock.advanceTo(next);
        continue;
      }
      this.complete(op, this.clock.nowS() + 1);
    }
    if (!this.scheduler.isFinished()) throw new Error('did not finish');
  }

  ofType<T extends RunRecordEvent['type']>(type: T): Extract<RunRecordEvent, { type: T }>[] {
    return this.records.filter((r): r is Extract<RunRecordEvent, { type: T }> => r.type === type);
  }
}
