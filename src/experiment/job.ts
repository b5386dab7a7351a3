// One run of an experiment, as it crosses to a worker thread: where its inputs come from and how to run
// it; and what comes back. The function that actually runs it (`RunOneFn`) is injected: the experiment
// tool uses the simulator (simulate-runner.ts); tests may pass a cheap deterministic stand-in.
import { performance } from 'node:perf_hooks';
import type { Application } from '../model/application.js';
import type { GridDescription } from '../model/grid.js';
import type { RecordSink } from '../record/events.js';
import type { SchedulerOptions } from '../scheduler/options.js';
import { inputKey, loadApplicationInput, loadGridInput } from './inputs.js';
import { makespanLowerBound, type MakespanBound } from './lower-bound.js';
import type { InputSpec } from './spec.js';

export interface RunRequest {
  readonly options: SchedulerOptions;
  readonly seed: number;
  readonly samplePeriodS?: number;
}

export interface RunInputs {
  readonly app: Application;
  readonly grid: GridDescription;
}

/** What a run measured. Times in seconds of simulated time, except planCpuMs (real CPU of do_plan()). */
export interface RunOutcome {
  readonly makespanS: number;
  readonly finished: boolean;
  readonly worksDone: number;
  readonly worksTotal: number;
  /** Bytes carried over the links (inputs and outputs, re-sends included). */
  readonly bytesMoved: number;
  /** Busy host-seconds of computation / (hosts × makespan), 0–1. */
  readonly utilization: number;
  readonly planCalls: number;
  readonly planCpuMs: number;
  readonly failures: number;
  readonly reexecutions: number;
}

/** `record`, when given, receives the run's record events (only while a dashboard watches the experiment). */
export type RunOneFn = (inputs: RunInputs, request: RunRequest, record?: RecordSink) => RunOutcome | Promise<RunOutcome>;

/** A module a worker can load: it must export `runOne: RunOneFn`. */
export interface RunnerModule {
  readonly runOne: RunOneFn;
}

export interface JobMessage {
  readonly application: InputSpec;
  readonly grid: InputSpec;
  readonly request: RunRequest;
}

export interface JobResult {
  readonly outcome: RunOutcome;
  readonly bound: MakespanBound;
  /** Wall-clock time of the run itself (inputs already loaded). */
  readonly wallMs: number;
}

/** Keeps the few most recently used loaded inputs (a worker sees the same grid and applications again and again). */
export class InputCache {
  private readonly entries = new Map<string, unknown>();
  constructor(private readonly capacity = 8) {}

  get<T>(key: string, load: () => T): T {
    if (this.entries.has(key)) {
      const v = this.entries.get(key) as T;
      this.entries.delete(key);
      this.entries.set(key, v);
      return v;
    }
    const v = load();
    this.entries.set(key, v);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return v;
  }
}

export async function executeJob(job: JobMessage, runOne: RunOneFn, cache: InputCache, record?: RecordSink): Promise<JobResult> {
  const app = cache.get(inputKey('application', job.application), () => loadApplicationInput(job.application));
  const grid = cache.get(inputKey('grid', job.grid), () => loadGridInput(job.grid).grid);
  const bound = cache.get(`bound:${inputKey('application', job.application)}|${inputKey('grid', job.grid)}`, () => makespanLowerBound(app, grid));
  const start = performance.now();
  const outcome = await runOne({ app, grid }, job.request, record);
  return { outcome, bound, wallMs: performance.now() - start };
}
