// One real run from a sweep file and a real grid file: expand the sweep, read the journal (--resume skips
// the tasks whose outputs are verified at the origin), connect the machines, hand the grid to the
// scheduler, wait until every task is done or has failed for good, and write the run record around it.
// A write the origin refuses (disk full...) stops the run: the result says so (originFailure).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { SchedulerEvents } from '../../src/interfaces/scheduler-events.js';
import type { Application, WorkId } from '../../src/model/application.js';
import type { PredictionComparison, RecordSink, RunRecordEvent } from '../../src/record/events.js';
import type { SchedulerDeps } from '../../src/scheduler/deps.js';
import type { SchedulerOptions } from '../../src/scheduler/options.js';
import type { GridEndpointSpec, RealClusterSpec, RealGrid } from '../../src/realgrid/real-grid-file.js';
import { realGridArchitectures } from '../../src/realgrid/real-grid-file.js';
import { watchRealGrid, type RealGridWatcher } from '../../src/realgrid/watch.js';
import { expandSweep, type ExpandedSweep } from '../../src/sweep/expand.js';
import type { LoadedSweep } from '../../src/sweep/sweep-file.js';
import { LastValueForecaster } from '../../src/forecast/last-value.js';
import { InputError } from '../../src/util/diagnostics.js';
import { Rng } from '../../src/util/rng.js';
import { GRIDSWEEP_VERSION } from '../../src/version.js';
import type { Endpoint } from '../transport/endpoint.js';
import type { HostPool } from '../transport/registry.js';
import { TRANSPORTS } from '../transports.js';
import { Journal, readJournal, unfinishedAttempts, verifiedWorks, type UnfinishedAttempt } from './journal.js';
import type { ProgressEvent } from '../transport/progress-events.js';
import { RealGridOS } from './real-grid-os.js';
import { mkdirAtOrigin, OriginWriteError } from './origin-failure.js';
import { blockedOutput } from './origin-outputs.js';
import { outputsDirOf } from './run-files.js';
import { TASK_LOG_BYTES, TaskLogs } from './task-logs.js';
import { DEFAULT_RETRY_POLICY, RetryPolicy, type RetryPolicyOptions } from './retry-policy.js';
import { WallClock } from './wall-clock.js';
import { checkReplayPlan, computeStarts, type LoadedReplayPlan } from '../../src/scheduler/replay/replay-plan.js';
import { ReplayScheduler } from '../../src/scheduler/replay/replay-scheduler.js';
import { compareTimelines } from './timeline-compare.js';
import { HostsToCome } from './hosts-to-come.js';

export interface RealRunInput {
  readonly sweepPath: string;
  readonly sweep: LoadedSweep;
  readonly gridPath: string;
  readonly grid: RealGrid;
  readonly scheduler: SchedulerOptions;
  readonly seed: number;
  readonly journalPath?: string;
  readonly resume: boolean;
  /** Keep each task's standard output and error (the end of each) in this directory: task-logs.ts. */
  readonly taskLogsDir?: string;
  /** How much of each stream a task log keeps, bytes (default TASK_LOG_BYTES). */
  readonly taskLogBytes?: number;
  readonly acceptNew: boolean;
  readonly record: RecordSink;
  readonly log: (event: RunLogEvent) => void;
  readonly samplePeriodS?: number;
  /** Kill a task still running this many seconds after it was sent; the attempt counts as failed. */
  readonly taskTimeoutS?: number;
  /** Once one machine is up, seconds the run waits for the others before it starts without them (default 2). */
  readonly startGraceS?: number;
  readonly reconnectBaseS?: number;
  readonly reconnectMaxS?: number;
  readonly retry?: RetryPolicyOptions;
  /** Leave this run's files and working directories in the clusters' storage. */
  readonly keepStorage?: boolean;
  /** Watch the real grid file and apply its edits to the run (default true). */
  readonly watchGrid?: boolean;
  /** Quiet time after an edit before the file is read again, ms (default 250). */
  readonly watchDebounceMs?: number;
  /**
   * A simulation's run record: the run's timeline is compared with it at the end and, with `replay`, the
   * run follows its schedule exactly (a ReplayScheduler instead of the scheduler `makeScheduler` builds).
   */
  readonly prediction?: { readonly plan: LoadedReplayPlan; readonly replay: boolean };
  /**
   * Handed, once the run has started, what to do before the process exits on an interrupt (SIGINT):
   * cancel the run's Slurm pilots.
   */
  readonly onInterrupt?: (cleanup: () => Promise<void>) => void;
}

/** What a run reports as it goes: the grid's progress events, the start, and edits of the real grid file. */
export type RunLogEvent =
  | ProgressEvent
  | {
      readonly kind: 'start';
      readonly total: number;
      readonly skipped: number;
      readonly hosts: number;
      /** The origin (absolute), and the deepest directory in it that holds every output ('' for the origin). */
      readonly originDir: string;
      readonly outputsDir: string;
    }
  /** The real grid file changed: `applied` false when the edit was rejected (message names file:line:column). */
  | { readonly kind: 'grid-edit'; readonly applied: boolean; readonly message: string };

export interface RealRunResult {
  readonly makespanS: number;
  readonly worksTotal: number;
  readonly worksDone: number;
  /** Skipped because a previous run's journal shows them verified. */
  readonly worksSkipped: number;
  readonly worksFailed: readonly WorkId[];
  /** Why each of worksFailed was given up. */
  readonly whyFailed: ReadonlyMap<WorkId, string>;
  /** The end of the standard error of the last attempt of each of worksFailed that printed some. */
  readonly stderrTails: ReadonlyMap<WorkId, string>;
  /** Where the task logs went (taskLogsDir), and why some could not be written, if so. */
  readonly taskLogs?: { readonly dir: string; readonly problem?: string };
  /** `fileId@cluster` → number of times that input was sent to that cluster. */
  readonly inputSends: ReadonlyMap<string, number>;
  readonly expanded: ExpandedSweep;
  readonly prediction?: PredictionComparison;
  /** Per Slurm cluster: pilots submitted and the queue wait of each that started, seconds. */
  readonly pilots: readonly { readonly cluster: string; readonly submitted: number; readonly queueWaitsS: readonly number[]; readonly gaveUp?: string }[];
  /**
   * The run ended before every Work was done because no host could come any more (every batch cluster
   * given up, no other machine left): why. The tasks not done are neither failed nor done.
   */
  readonly unfinished?: string;
  /**
   * The run stopped because the origin refused a write (an output, the journal, the run record, a task
   * log: disk full, over quota, read-only, I/O error). The outputs verified before are kept; the tasks
   * not done are neither failed nor run again: the next run (same journal) does them.
   */
  readonly originFailure?: OriginWriteError;
}

export type MakeRealScheduler = (app: Application, deps: SchedulerDeps) => SchedulerEvents;

function sha256Of(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The origin of a real run: from the grid file, by default the sweep's directory. */
export function originDirOf(sweepPath: string, grid: RealGrid): string {
  return grid.originDir ?? dirname(resolve(sweepPath));
}

/** The expanded sweep as a real run sees it: origin from the grid file (default: the sweep's directory). */
export function expandForGrid(sweepPath: string, sweep: LoadedSweep, grid: RealGrid): ExpandedSweep {
  const originDir = originDirOf(sweepPath, grid);
  return expandSweep(sweep, { originDir, architectures: realGridArchitectures(grid) });
}


/**
 * A resumed run, once what the killed run's pilots finished is collected: those pilots are cancelled
 * (not adopted: their agents lost their channel with that run).
 */
async function cancelLeftoverPilots(pool: HostPool, log: (event: RunLogEvent) => void): Promise<void> {
  try {
    const cancelled = await pool.cancelLeftovers();
    if (cancelled > 0) log({ kind: 'pilot', cluster: pool.clusterId, job: '-', message: `cancelled ${cancelled} pilot(s) left by the run this one resumes` });
  } catch (err) {
    log({ kind: 'pilot', cluster: pool.clusterId, job: '-', message: `could not look for pilots left by the run this one resumes: ${(err as Error).message}` });
  }
}

export async function runReal(runInput: RealRunInput, makeScheduler: MakeRealScheduler): Promise<RealRunResult> {
  // The run record, when the origin refuses it (it throws an OriginWriteError), stops the run as any
  // origin write does; nothing more is written to it.
  let recordFailure: ((err: OriginWriteError) => void) | undefined;
  let recordBroken = false;
  const guardedRecord: RecordSink = (e) => {
    if (recordBroken) return;
    try {
      runInput.record(e);
    } catch (err) {
      if (!(err instanceof OriginWriteError)) throw err;
      recordBroken = true;
      recordFailure?.(err);
    }
  };
  const input: RealRunInput = { ...runInput, record: guardedRecord };
  const expanded = expandForGrid(input.sweepPath, input.sweep, input.grid);
  const app = expanded.application;
  if (input.prediction?.replay) checkReplayPlan(input.prediction.plan, input.grid, app);

  let skip = new Set<WorkId>();
  let unfinished: UnfinishedAttempt[] = [];
  if (input.resume) {
    if (!input.journalPath) throw new InputError([{ severity: 'error', pos: { file: input.sweepPath, line: 1, column: 1 }, message: '--resume needs --journal FILE', hint: 'name the journal of the run to resume' }]);
    const entries = readJournal(input.journalPath);
    skip = await verifiedWorks(entries, expanded.tasks, expanded.originDir);
    unfinished = unfinishedAttempts(entries, skip);
  } else if (input.journalPath && existsSync(input.journalPath) && statSync(input.journalPath).size > 0) {
    throw new InputError([
      {
        severity: 'error',
        pos: { file: input.journalPath, line: 1, column: 1 },
        message: 'the journal already holds a run',
        hint: 'add --resume to continue that run, --fresh to move it aside and start over, or name another journal file',
      },
    ]);
  }
  const works = app.works.filter((w) => !skip.has(w.id));
  const blocked = blockedOutput(expanded.originDir, works.flatMap((w) => expanded.tasks[w.id]!.outputs.map((o) => o.path)));
  if (blocked !== undefined) throw new InputError([{ severity: 'error', pos: { file: input.sweepPath, line: 1, column: 1 }, message: blocked, hint: 'move it out of the way, or change the sweep\'s "outputs"' }]);
  const runId = `run-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const journalDir = input.journalPath !== undefined ? dirname(input.journalPath) : undefined;
  if (journalDir !== undefined) mkdirAtOrigin('the journal', journalDir);
  const journal = input.journalPath ? Journal.open(input.journalPath) : undefined;
  const taskLogs = input.taskLogsDir !== undefined ? TaskLogs.open(input.taskLogsDir) : undefined;
  await journal?.append({ type: 'run', sweep: resolve(input.sweepPath), tasks: app.works.length, runId });

  const hostsToCome = new HostsToCome();
  const makeEndpoint = (c: RealClusterSpec, e: GridEndpointSpec): Endpoint => hostsToCome.machine(TRANSPORTS.endpoint(c, e, { runId, acceptNew: input.acceptNew }));
  const clusters = input.grid.clusters.map((c) => ({ id: c.id, endpoints: c.endpoints.map((e) => makeEndpoint(c, e)) }));
  const clock = new WallClock();
  const samplePeriodS = input.samplePeriodS ?? 5;
  // Every pilot of this run (and of the runs that resume it) carries the same job name.
  const jobName = `gridsweep-${createHash('sha256').update(input.journalPath ? resolve(input.journalPath) : runId).digest('hex').slice(0, 10)}`;
  // The compute sub-tasks of this run, kept to compare with the prediction at the end.
  const computeEvents: RunRecordEvent[] = [];
  const record: RecordSink = input.prediction
    ? (e) => {
        if (e.type === 'start' ? e.kind === 'compute' : e.type === 'end') computeEvents.push(e);
        input.record(e);
      }
    : input.record;
  const grid = new RealGridOS({
    sweep: expanded,
    clusters,
    clock,
    record,
    ...(journal ? { journal } : {}),
    ...(taskLogs ? { taskLogs: { logs: taskLogs, keepBytes: input.taskLogBytes ?? TASK_LOG_BYTES } } : {}),
    policy: new RetryPolicy({ ...(input.retry ?? DEFAULT_RETRY_POLICY), maxAttempts: input.scheduler.maxExitFailures ?? DEFAULT_RETRY_POLICY.maxAttempts }),
    samplePeriodS,
    deadlines: input.grid.deadlines,
    startGraceS: input.startGraceS ?? 2,
    reconnectBaseS: input.reconnectBaseS ?? 2,
    reconnectMaxS: input.reconnectMaxS ?? 120,
    works: works.map((w) => w.id),
    log: input.log,
    ...(input.taskTimeoutS !== undefined ? { taskTimeoutS: input.taskTimeoutS } : {}),
  });
  recordFailure = (err) => grid.originFailed(err);

  input.record({
    type: 'header',
    t: 0,
    gridsweepVersion: GRIDSWEEP_VERSION,
    mode: 'real',
    heuristic: input.prediction?.replay ? `replay of ${input.prediction.plan.header.heuristic}` : input.scheduler.heuristic,
    seed: input.seed,
    inputs: {
      sweep: { path: input.sweepPath, sha256: sha256Of(input.sweepPath) },
      grid: { path: input.gridPath, sha256: sha256Of(input.gridPath) },
      ...(input.prediction ? { prediction: { path: input.prediction.plan.recordPath, sha256: sha256Of(input.prediction.plan.recordPath) } } : {}),
    },
    options: {
      ...input.scheduler,
      ...(input.prediction?.replay ? { heuristic: 'replay' } : {}),
      samplePeriodS,
      resume: input.resume,
      skipped: skip.size,
      runId,
      ...(input.prediction ? { replay: input.prediction.replay } : {}),
    },
    taskCount: app.works.length,
  });

  // The clusters whose hosts come as batch jobs (Slurm's pilots), each with the pool its transport builds.
  const exhausted = (clusterId: string, why: string): void => hostsToCome.poolExhausted(clusterId, why, pools, (h) => grid.hostRemoved(h));
  const pools: HostPool[] = input.grid.clusters.flatMap((c) => {
    const storage = clusters.find((x) => x.id === c.id)!.endpoints[0];
    if (!storage) return [];
    const pool = TRANSPORTS.hostPool(c, storage, { runDir: join(c.storageDir, 'gridsweep', runId), jobName, grid, clock, record, log: input.log, deadlines: input.grid.deadlines, exhausted });
    return pool ? [pool] : [];
  });

  let failedToStart: Error | undefined;
  let originFailure: OriginWriteError | undefined;
  let watcher: RealGridWatcher | undefined;
  try {
    await grid.connectAll();
    if (works.length > 0 && [...clusters].every((c) => c.endpoints.every((e) => !e.isUp()))) {
      throw new Error('no host of the real grid could be reached; see the messages above');
    }
    // The scheduler decides when a Work is given up; the grid stops waiting for it then.
    const schedulerRecord: RecordSink = (e) => {
      input.record(e);
      if (e.type === 'work-failed' && e.final) grid.workGivenUp(e.work, e.host, e.reason);
    };
    // What finished while no controller was running is collected, not run again.
    const collected = new Set(await grid.collectFinished(unfinished));
    if (input.resume) await Promise.all(pools.map((pool) => cancelLeftoverPilots(pool, input.log)));
    const toSchedule = works.filter((w) => !collected.has(w.id));
    const deps = { gridOS: grid, info: grid, forecaster: new LastValueForecaster(), clock, rng: new Rng(input.seed), record: schedulerRecord };
    const scheduler = input.prediction?.replay
      ? new ReplayScheduler(app, input.prediction.plan, deps, input.scheduler.maxExitFailures ?? DEFAULT_RETRY_POLICY.maxAttempts)
      : makeScheduler(app, deps);
    grid.attach(scheduler);
    const outputsDir = outputsDirOf(expanded.tasks.flatMap((t) => t.outputs.map((o) => o.path)));
    input.log({ kind: 'start', total: works.length, skipped: skip.size, hosts: grid.upHostCount(), originDir: expanded.originDir, outputsDir });
    if (toSchedule.length > 0) {
      scheduler.sched_new_work(toSchedule);
      grid.announceAll();
      input.onInterrupt?.(() => Promise.all(pools.map((p) => p.stop())).then(() => undefined));
      await Promise.all(pools.map((p) => p.start()));
    }
    if (input.watchGrid !== false && works.length > 0) {
      watcher = watchRealGrid(
        input.gridPath,
        input.grid,
        (event) => {
          if (event.kind !== 'change') {
            input.log({ kind: 'grid-edit', applied: false, message: `${event.message}\n(the run goes on with the last good grid)` });
            return;
          }
          const { removed, added, notApplied } = event.change;
          const summary = [
            ...removed.map((r) => `- ${r.endpoint.name} (${r.cluster.id})`),
            ...added.map((r) => `+ ${r.endpoint.name} (${r.cluster.id})`),
            ...notApplied.map((n) => `not applied: ${n}`),
          ];
          input.log({ kind: 'grid-edit', applied: true, message: `${input.gridPath} changed: ${summary.join(', ')}` });
          for (const r of removed) grid.retire(r.cluster.id, r.endpoint.name);
          for (const r of added) grid.join(r.cluster.id, makeEndpoint(r.cluster, r.endpoint));
        },
        input.watchDebounceMs !== undefined ? { debounceMs: input.watchDebounceMs } : {},
      );
      await watcher.ready;
    }
    await Promise.race([grid.finishedPromise, hostsToCome.noneLeft]);
  } catch (err) {
    if (err instanceof OriginWriteError) originFailure = err;
    else failedToStart = err as Error;
  }
  await watcher?.close();
  const makespanS = clock.nowS();
  const whyFailed = new Map(grid.worksFailedForGood());
  const failed = [...whyFailed.keys()];
  const done = grid.worksDone().size;
  const plan = input.prediction?.plan;
  const prediction = plan
    ? compareTimelines({ record: plan.recordPath, makespanS: plan.makespanS, starts: plan.computeStart }, { makespanS, starts: computeStarts(computeEvents) })
    : undefined;
  clock.cancelAll();
  // The pilots still queued or running are cancelled, and end in the record, when the run ends.
  // After an origin failure the storage stays: the tasks computed there are collected by the next run.
  await grid.stop(!input.keepStorage && failedToStart === undefined && originFailure === undefined && failed.length === 0, () => Promise.all(pools.map((p) => p.stop(makespanS))).then(() => undefined));
  input.record({ type: 'run-end', t: makespanS, makespanS, worksDone: done + skip.size, worksFailed: app.works.length - done - skip.size, ...(prediction ? { prediction } : {}) });
  await journal?.close();
  await taskLogs?.close();
  if (failedToStart) throw failedToStart;
  const stderrTails = new Map(failed.flatMap((w) => {
    const tail = grid.stderrTailOf(w);
    return tail !== undefined && tail.trim() !== '' ? [[w, tail] as const] : [];
  }));
  const pilots = pools.map((p) => ({ cluster: p.clusterId, submitted: p.submitted, queueWaitsS: p.queueWaitsS, ...(p.gaveUp !== undefined ? { gaveUp: p.gaveUp } : {}) }));
  const logs = taskLogs ? { taskLogs: { dir: taskLogs.dir, ...(taskLogs.problem !== undefined ? { problem: taskLogs.problem } : {}) } } : {};
  return { makespanS, worksTotal: app.works.length, worksDone: done, worksSkipped: skip.size, worksFailed: failed, whyFailed, stderrTails, ...logs, inputSends: grid.inputSends, expanded, pilots, ...(prediction ? { prediction } : {}), ...(originFailure ? { originFailure } : {}), ...(hostsToCome.why !== undefined ? { unfinished: hostsToCome.why } : {}) };
}
