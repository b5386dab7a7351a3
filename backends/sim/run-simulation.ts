// One simulated run from inputs to result, for any scheduler that speaks the sched_* interface: writes
// the run record's header, runs the engine (in one go, or in steps that yield to the event loop), writes the run-end,
// and sums up the resources' use.
import type { BatchSiteOutcome } from './batch-site.js';
import type { SubmissionOptions } from '../../src/batch/submission.js';
import type { Application } from '../../src/model/application.js';
import type { GridDescription } from '../../src/model/grid.js';
import type { SchedulerEvents } from '../../src/interfaces/scheduler-events.js';
import { NO_RECORD, type RecordSink, type RunHeader } from '../../src/record/events.js';
import type { SchedulerDeps } from '../../src/scheduler/deps.js';
import type { SchedulerOptions } from '../../src/scheduler/options.js';
import { NwsForecaster } from '../../src/forecast/nws.js';
import { Rng } from '../../src/util/rng.js';
import { GRIDSWEEP_VERSION } from '../../src/version.js';
import { DEFAULT_SAMPLE_PERIOD_S } from '../../src/model/grid.js';
import { SimEngine } from './engine.js';

export interface SimulationInput {
  readonly app: Application;
  readonly grid: GridDescription;
  readonly scheduler: SchedulerOptions;
  readonly seed: number;
  /** Spacing of behaviour samples in seconds (default 5). */
  readonly samplePeriodS?: number;
  readonly record?: RecordSink;
  /** Names and hashes of the input files, for the record header. */
  readonly inputs?: RunHeader['inputs'];
  /** How the sweep submits jobs to batch clusters (default: DEFAULT_SUBMISSION). */
  readonly submission?: SubmissionOptions;
}

export interface ResourceStats {
  readonly id: string;
  readonly cluster: string;
  readonly busyS: number;
  /** busyS / makespanS (0 when the makespan is 0). */
  readonly utilization: number;
}

export interface LinkStats extends ResourceStats {
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly transfers: number;
}

export interface SimulationResult {
  /** When the last output reached the origin; for an unfinished run, when the run stopped. */
  readonly makespanS: number;
  /** Every Work completed (false: the grid could no longer make progress). */
  readonly finished: boolean;
  readonly worksDone: number;
  readonly worksTotal: number;
  readonly hosts: readonly ResourceStats[];
  readonly links: readonly LinkStats[];
  /** Per file id: how many times it crossed a link as an input. */
  readonly fileSends: readonly number[];
  /** Computations lost to a host or cluster failure. */
  readonly failures: number;
  /** Computations started for a Work that had been started before. */
  readonly reexecutions: number;
  readonly planCalls: number;
  readonly planCpuMs: number;
  /** Simulated events processed (completions, grid events, scheduler timers). */
  readonly events: number;
  readonly wallMs: { readonly simulate: number; readonly plan: number };
  /** Batch clusters: their job metrics (background jobs and pilots) and the pilots' figures. */
  readonly batch: readonly BatchSiteOutcome[];
}

/** A scheduler as the simulator drives it; `stats` feeds the do_plan() figures when it has them. */
export interface SimScheduler extends SchedulerEvents {
  readonly stats?: { readonly planCalls: number; readonly planCpuMs: number };
}

// A simulated record is a function of the inputs and the seed alone. The CPU time each do_plan() really took
// varies between runs, so simulated records carry 0 there; the real figure is the result's planCpuMs.
function withoutCpuTimes(sink: RecordSink): RecordSink {
  return (event) => sink(event.type === 'plan' ? { ...event, cpuMs: 0 } : event);
}

export function runSimulation(input: SimulationInput, makeScheduler: (deps: SchedulerDeps) => SimScheduler): SimulationResult {
  const run = beginSimulation(input, makeScheduler);
  run.engine.advance(Infinity);
  return endSimulation(run);
}

/** What a stepped run reports between steps. */
export interface SimulationProgress {
  readonly nowS: number;
  readonly worksDone: number;
  readonly worksTotal: number;
  readonly events: number;
}

export interface SteppedSimulationOptions {
  /** Events per step (default 1,000: a millisecond or so of most runs; a scheduling round is never cut). */
  readonly stepEvents?: number;
  /** Called after each step; the simulation pauses here so that signals and timers get their turn. */
  readonly onStep?: (p: SimulationProgress) => void;
  /** Asked after each step; true stops the run there (e.g. Ctrl-C), and the result is undefined. */
  readonly shouldStop?: () => boolean;
}

/**
 * runSimulation in steps, yielding to the event loop between them, so that a long run can show progress
 * and be interrupted. The same input gives the same result as runSimulation, event for event.
 */
export async function runSimulationStepped(
  input: SimulationInput,
  makeScheduler: (deps: SchedulerDeps) => SimScheduler,
  options: SteppedSimulationOptions,
): Promise<SimulationResult | undefined> {
  const run = beginSimulation(input, makeScheduler);
  const stepEvents = options.stepEvents ?? 1_000;
  for (;;) {
    const more = run.engine.advance(stepEvents);
    options.onStep?.(run.engine.progress());
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (options.shouldStop?.()) return undefined;
    if (!more) return endSimulation(run);
  }
}

interface StartedSimulation {
  readonly input: SimulationInput;
  readonly engine: SimEngine;
  readonly scheduler: SimScheduler;
  readonly started: number;
}

function beginSimulation(input: SimulationInput, makeScheduler: (deps: SchedulerDeps) => SimScheduler): StartedSimulation {
  const started = performance.now();
  const samplePeriodS = input.samplePeriodS ?? DEFAULT_SAMPLE_PERIOD_S;
  const record = input.record;
  // Built before the header is written: a grid the engine refuses leaves no record behind.
  const engine = new SimEngine({ app: input.app, grid: input.grid, samplePeriodS, ...(record ? { record } : {}), ...(input.submission ? { submission: input.submission } : {}) });
  record?.({
    type: 'header',
    t: 0,
    gridsweepVersion: GRIDSWEEP_VERSION,
    mode: 'sim',
    heuristic: input.scheduler.heuristic,
    seed: input.seed,
    inputs: input.inputs ?? {},
    options: { ...input.scheduler, samplePeriodS },
    taskCount: input.app.works.length,
  });
  const scheduler = makeScheduler({
    gridOS: engine.gridOS,
    info: engine.info,
    forecaster: new NwsForecaster(),
    clock: engine.clock,
    rng: new Rng(input.seed),
    record: record ? withoutCpuTimes(record) : NO_RECORD,
  });
  engine.begin(scheduler);
  return { input, engine, scheduler, started };
}

function endSimulation({ input, engine, scheduler, started }: StartedSimulation): SimulationResult {
  const record = input.record;
  const outcome = engine.finish();
  const makespanS = outcome.endS;
  record?.({
    type: 'run-end',
    t: makespanS,
    makespanS,
    worksDone: outcome.worksDone,
    worksFailed: outcome.worksTotal - outcome.worksDone,
  });
  const utilization = (busyS: number) => (makespanS > 0 ? busyS / makespanS : 0);
  const planCpuMs = scheduler.stats?.planCpuMs ?? 0;
  return {
    makespanS,
    finished: outcome.finished,
    worksDone: outcome.worksDone,
    worksTotal: outcome.worksTotal,
    hosts: outcome.hosts.map((h) => ({ ...h, utilization: utilization(h.busyS) })),
    links: outcome.links.map((l) => ({ ...l, utilization: utilization(l.busyS) })),
    fileSends: outcome.fileSends,
    failures: outcome.failures,
    reexecutions: outcome.reexecutions,
    planCalls: scheduler.stats?.planCalls ?? 0,
    planCpuMs,
    events: outcome.events,
    wallMs: { simulate: performance.now() - started, plan: planCpuMs },
    batch: outcome.batch,
  };
}
