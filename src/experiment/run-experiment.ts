// Runs an experiment: the cross product grids × applications × swept values × strategies × heuristics ×
// seeds. Every distinct input is loaded once here to fingerprint it (errors surface before any run);
// runs whose result is already stored are skipped; the others go to the executor (worker threads by
// default) and are stored as they finish. Then results.csv and results.json are written by streaming over
// the stored results in matrix order. Nothing per-run is kept in memory but the makespans of the summary.
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../scheduler/options.js';
import { InputError } from '../util/diagnostics.js';
import { GRIDSWEEP_VERSION } from '../version.js';
import { absolutize, hashApplication, hashGrid, inputKey, loadApplicationInput, loadGridInput, sha256Of, type InputKind } from './inputs.js';
import type { JobMessage, RunOneFn } from './job.js';
import { defaultWorkerCount, InlineExecutor, siblingModule, WorkerPool, type Executor, type JobObserver } from './pool.js';
import { RESULTS_VERSION } from './results-version.js';
import { ResultsWriter, SummaryTable, type ResultRow, type ResultsHeader } from './results.js';
import { substituteVariables, type InputSpec, type LoadedExperimentSpec, type SweepValue } from './spec.js';
import { ResultStore, runKey } from './store.js';
import { writeExperimentPlots } from './plots.js';
import { writeFileAtomicSync } from '../util/atomic-write.js';
import type { GridCell } from './grid-cells.js';

export type RunnerRef = { readonly module: string } | { readonly inline: RunOneFn };

export interface ExperimentRunOptions {
  readonly outDir: string;
  /** Worker threads (default: os.availableParallelism()); an inline runner always runs in this thread. */
  readonly jobs?: number;
  /** Default: the simulator (src/experiment/simulate-runner.ts). */
  readonly runner?: RunnerRef;
  readonly onProgress?: (p: ExperimentProgress) => void;
  /** Given: the simulated runs are recorded and shown to it (e.g. a live dashboard); results are the same. */
  readonly watcher?: ExperimentWatcher;
  /** Write summary.txt and the charts (plots.ts) when done (default true; the demo draws its own). */
  readonly charts?: boolean;
  /**
   * Given: the runs the cache does not hold are not run here but handed over together (computed on a real
   * grid, grid-cells.ts), which puts each it computes into the store and names those it could not.
   */
  readonly elsewhere?: (runs: readonly GridCell[], store: ResultStore, cachedKeys: readonly string[]) => Promise<{ readonly computed: number; readonly failures: ReadonlyArray<{ readonly key: string; readonly message: string }> }>;
}

export interface ExperimentProgress {
  /** Runs finished, cached and failed ones included. */
  readonly done: number;
  /** Runs on a worker now. */
  readonly running: number;
  readonly total: number;
  readonly cached: number;
  readonly failed: number;
}

/** One run of the matrix being simulated. */
export interface WatchedRun {
  /** Distinct within one experiment. */
  readonly id: number;
  /** What it is, e.g. `xsufferage/default on fig11 × mcell [400] seed 2`. */
  readonly name: string;
}

/** Follows the runs that are simulated; cached runs have no record and are only counted in the progress. */
export interface ExperimentWatcher {
  /** A batch of the run's record events, as a JSON array; the first holds its header. */
  runRecords(run: WatchedRun, batchJson: string): void;
  /** After its last batch; `failure` says why a run failed. */
  runEnded(run: WatchedRun, failure?: string): void;
}

export interface ExperimentSummary {
  readonly total: number;
  readonly simulated: number;
  readonly cached: number;
  readonly failures: ReadonlyArray<{ readonly run: string; readonly message: string }>;
  /** Runs that ended before every Work was done (NOT FINISHED), cached ones included. */
  readonly unfinished: number;
  readonly table: SummaryTable;
  readonly csvPath: string;
  readonly jsonPath: string;
  /** The summary table as text, and the charts (plots.ts); none when options.charts is false. */
  readonly summaryPath: string | undefined;
  readonly plots: readonly string[];
  readonly runsDir: string;
  readonly elapsedMs: number;
}

interface Cell {
  readonly grid: string;
  readonly application: string;
  readonly sweep: SweepValue | null;
  readonly strategy: { readonly name: string; readonly options: Partial<SchedulerOptions> };
  readonly heuristic: string;
  readonly seed: number;
}

function* cells(l: LoadedExperimentSpec): Generator<Cell> {
  for (const grid of Object.keys(l.spec.grids))
    for (const application of Object.keys(l.spec.applications))
      for (const sweep of l.sweepValues)
        for (const strategy of l.strategies) for (const heuristic of l.heuristics) for (const seed of l.seeds) yield { grid, application, sweep, strategy, heuristic, seed };
}

export function matrixSize(l: LoadedExperimentSpec): number {
  return Object.keys(l.spec.grids).length * Object.keys(l.spec.applications).length * l.sweepValues.length * l.strategies.length * l.heuristics.length * l.seeds.length;
}

/** Fingerprints of the inputs, keyed by their substituted entry; loaded once each, then dropped. */
class InputHashes {
  private readonly byKey = new Map<string, { sha256: string; kind: InputKind; name: string; sweep: SweepValue | null; seed: number | null }>();

  constructor(private readonly l: LoadedExperimentSpec) {}

  private vars(cell: Pick<Cell, 'sweep' | 'seed'>): Record<string, SweepValue> {
    const v: Record<string, SweepValue> = { seed: cell.seed };
    if (this.l.spec.sweep && cell.sweep !== null) v[this.l.spec.sweep.variable] = cell.sweep;
    return v;
  }

  input(kind: InputKind, name: string, cell: Pick<Cell, 'sweep' | 'seed'>): InputSpec {
    const raw = kind === 'grid' ? this.l.spec.grids[name]! : this.l.spec.applications[name]!;
    return absolutize(substituteVariables(raw, this.vars(cell)), this.l.baseDir);
  }

  hash(kind: InputKind, name: string, cell: Pick<Cell, 'sweep' | 'seed'>): string {
    const input = this.input(kind, name, cell);
    const key = inputKey(kind, input);
    const known = this.byKey.get(key);
    if (known) return known.sha256;
    let sha256: string;
    try {
      sha256 = kind === 'grid' ? hashGrid(loadGridInput(input).grid) : hashApplication(loadApplicationInput(input));
    } catch (err) {
      if (err instanceof InputError) throw err;
      const pointer = `/${kind === 'grid' ? 'grids' : 'applications'}/${name}`;
      throw new InputError([
        {
          severity: 'error',
          pos: this.l.source.positionOf(pointer),
          message: `${pointer}: cannot build this ${kind}${cell.sweep === null ? '' : ` for ${this.l.spec.sweep!.variable} = ${cell.sweep}`}: ${(err as Error).message}`,
          hint: 'correct the generator parameters',
        },
      ]);
    }
    const rawText = JSON.stringify(kind === 'grid' ? this.l.spec.grids[name] : this.l.spec.applications[name]);
    const usesSweep = this.l.spec.sweep !== undefined && rawText.includes(`\${${this.l.spec.sweep.variable}}`);
    this.byKey.set(key, { sha256, kind, name, sweep: usesSweep ? cell.sweep : null, seed: rawText.includes('${seed}') ? cell.seed : null });
    return sha256;
  }

  list(): ResultsHeader['inputs'] {
    return [...this.byKey.values()].map(({ kind, name, sweep, seed, sha256 }) => ({ kind, name, sweep, seed, sha256 }));
  }
}

function optionsOf(cell: Cell): SchedulerOptions {
  return { ...DEFAULT_SCHEDULER_OPTIONS, ...cell.strategy.options, heuristic: cell.heuristic };
}

function describe(cell: Cell): string {
  return `${cell.heuristic}/${cell.strategy.name} on ${cell.grid} × ${cell.application}${cell.sweep === null ? '' : ` [${cell.sweep}]`} seed ${cell.seed}`;
}

export async function runExperiment(l: LoadedExperimentSpec, opts: ExperimentRunOptions): Promise<ExperimentSummary> {
  const started = Date.now();
  const inputs = new InputHashes(l);
  const samplePeriodS = l.spec.samplePeriodS ?? null;
  const keyOf = (cell: Cell): { key: string; applicationSha256: string; gridSha256: string } => {
    const gridSha256 = inputs.hash('grid', cell.grid, cell);
    const applicationSha256 = inputs.hash('application', cell.application, cell);
    const key = runKey({ resultsVersion: RESULTS_VERSION, applicationSha256, gridSha256, options: optionsOf(cell), seed: cell.seed, samplePeriodS });
    return { key, applicationSha256, gridSha256 };
  };

  // Fingerprint every input first, so that a bad one stops the experiment before any run.
  for (const cell of cells(l)) keyOf(cell);

  mkdirSync(opts.outDir, { recursive: true });
  const runsDir = join(opts.outDir, 'runs');
  const store = new ResultStore(runsDir);
  const total = matrixSize(l);
  let done = 0;
  let cached = 0;
  let simulated = 0;
  const failures: { run: string; message: string }[] = [];
  const failedKeys = new Set<string>();
  const watcher = opts.watcher;
  let nextRunId = 0;
  const observe = (run: WatchedRun): JobObserver => ({
    started: () => progress(),
    ...(watcher ? { records: (json: string) => watcher.runRecords(run, json) } : {}),
  });

  const runner = opts.runner ?? { module: siblingModule('simulate-runner') };
  // Started on the first run that is not cached: a fully cached experiment starts no worker.
  let executor: Executor | undefined;
  const progress = (): void => opts.onProgress?.({ done, running: executor?.busy ?? 0, total, cached, failed: failures.length });
  const executorNow = (): Executor => (executor ??= 'inline' in runner ? new InlineExecutor(runner.inline) : new WorkerPool(runner.module, opts.jobs ?? defaultWorkerCount()));
  const inFlight = new Map<string, Promise<void>>();
  const limit = 'inline' in runner ? 1 : 2 * (opts.jobs ?? defaultWorkerCount());
  const elsewhere = new Map<string, GridCell>();
  const cachedKeys: string[] = [];
  try {
    for (const cell of cells(l)) {
      const { key, applicationSha256, gridSha256 } = keyOf(cell);
      if (opts.elsewhere) {
        if (!elsewhere.has(key) && store.has(key)) {
          cached++;
          cachedKeys.push(key);
        } else if (!elsewhere.has(key)) {
          const job: JobMessage = {
            application: inputs.input('application', cell.application, cell),
            grid: inputs.input('grid', cell.grid, cell),
            request: { options: optionsOf(cell), seed: cell.seed, ...(samplePeriodS === null ? {} : { samplePeriodS }) },
          };
          elsewhere.set(key, { key, entry: { job, parts: { resultsVersion: RESULTS_VERSION, applicationSha256, gridSha256, options: job.request.options, seed: cell.seed, samplePeriodS } }, name: describe(cell) });
          continue;
        }
        done++;
        progress();
        continue;
      }
      const running = inFlight.get(key);
      if (running) {
        // The same run twice in the matrix (e.g. equal strategies): wait for the first.
        await running;
        done++;
        progress();
        continue;
      }
      if (store.has(key)) {
        cached++;
        done++;
        progress();
        continue;
      }
      const job: JobMessage = {
        application: inputs.input('application', cell.application, cell),
        grid: inputs.input('grid', cell.grid, cell),
        request: { options: optionsOf(cell), seed: cell.seed, ...(samplePeriodS === null ? {} : { samplePeriodS }) },
      };
      const parts = { resultsVersion: RESULTS_VERSION, applicationSha256, gridSha256, options: job.request.options, seed: cell.seed, samplePeriodS };
      const run: WatchedRun = { id: nextRunId++, name: describe(cell) };
      const task = executorNow().run(job, observe(run)).then(
        (result) => {
          store.write({ key, parts, ...result });
          simulated++;
          watcher?.runEnded(run);
        },
        (err: unknown) => {
          const message = err instanceof Error ? err.message : String(err);
          failedKeys.add(key);
          failures.push({ run: run.name, message });
          watcher?.runEnded(run, message);
        },
      );
      const tracked = task.finally(() => {
        inFlight.delete(key);
        done++;
        progress();
      });
      inFlight.set(key, tracked);
      if (inFlight.size >= limit) await Promise.race(inFlight.values());
    }
    await Promise.all(inFlight.values());
    if (opts.elsewhere && elsewhere.size > 0) {
      const away = await opts.elsewhere([...elsewhere.values()], store, cachedKeys);
      simulated += away.computed;
      done += elsewhere.size;
      for (const f of away.failures) {
        failedKeys.add(f.key);
        failures.push({ run: elsewhere.get(f.key)?.name ?? f.key, message: f.message });
      }
    }
  } finally {
    await executor?.close();
  }

  // Stream the rows out in matrix order.
  const several = (n: number): boolean => n > 1;
  const seriesOf = (cell: Cell): string =>
    [
      cell.heuristic,
      several(l.strategies.length) ? `/${cell.strategy.name}` : '',
      several(Object.keys(l.spec.grids).length) ? ` @${cell.grid}` : '',
      several(Object.keys(l.spec.applications).length) ? ` ${cell.application}` : '',
    ].join('');
  const header: ResultsHeader = {
    gridsweepVersion: GRIDSWEEP_VERSION,
    resultsVersion: RESULTS_VERSION,
    experiment: l.spec.name ?? 'experiment',
    spec: { path: relative(opts.outDir, l.file) || l.file, sha256: sha256Of(JSON.stringify(l.spec)) },
    sweepVariable: l.spec.sweep?.variable ?? null,
    seeds: l.seeds,
    heuristics: l.heuristics,
    strategies: Object.fromEntries(l.strategies.map((s) => [s.name, s.options])),
    inputs: inputs.list(),
  };
  const csvPath = join(opts.outDir, 'results.csv');
  const jsonPath = join(opts.outDir, 'results.json');
  const writer = await ResultsWriter.open(csvPath, jsonPath, header);
  const table = new SummaryTable(header.sweepVariable);
  const rows: ResultRow[] = [];
  for (const cell of cells(l)) {
    const { key, applicationSha256, gridSha256 } = keyOf(cell);
    if (failedKeys.has(key)) continue;
    const r = store.read(key);
    if (!r) {
      failures.push({ run: describe(cell), message: `result file ${store.pathOf(key)} is missing or unreadable` });
      continue;
    }
    const o = r.outcome;
    const row: ResultRow = {
      application: cell.application,
      applicationSha256,
      grid: cell.grid,
      gridSha256,
      heuristic: cell.heuristic,
      strategy: cell.strategy.name,
      sweep: cell.sweep,
      seed: cell.seed,
      makespanS: o.makespanS,
      lowerBoundS: r.bound.lowerBoundS,
      workBoundS: Math.max(r.bound.cpuBoundS, r.bound.taskBoundS),
      lowerBoundBinding: r.bound.binding,
      utilization: o.utilization,
      bytesMoved: o.bytesMoved,
      planCalls: o.planCalls,
      planCpuMs: o.planCpuMs,
      wallMs: r.wallMs,
      finished: o.finished,
      worksDone: o.worksDone,
      worksTotal: o.worksTotal,
      failures: o.failures,
      reexecutions: o.reexecutions,
      key,
    };
    await writer.add(row);
    rows.push(row);
    table.add(seriesOf(cell), cell.sweep, o.makespanS, r.bound.lowerBoundS);
  }
  await writer.close();
  const charts = opts.charts ?? true;
  const summaryPath = charts ? join(opts.outDir, 'summary.txt') : undefined;
  if (summaryPath !== undefined) writeFileAtomicSync(summaryPath, table.format() + '\n');
  const plots = charts ? writeExperimentPlots({ header, rows }, opts.outDir) : [];
  return { total, simulated, cached, failures, unfinished: rows.filter((r) => !r.finished).length, table, csvPath, jsonPath, summaryPath, plots, runsDir, elapsedMs: Date.now() - started };
}
