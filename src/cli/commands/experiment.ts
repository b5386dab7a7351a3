// `gridsweep experiment SPEC [--out DIR] [--jobs N] [--dashboard]`: run a matrix of simulations, cached
// and resumable, optionally watched on the live dashboard.
import { basename, dirname, join } from 'node:path';
import { isPluginRef, loadPlugin } from '../../scheduler/heuristics/plugin.js';
import type { Command, CommandArgs } from '../command.js';
import { UsageError } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { printWarnings } from '../inapplicable-options.js';
import { formatMatrixProgress, progressLine } from '../progress-line.js';
import { flagOption, numberOption, optionGiven, stringOption } from '../args.js';
import { loadExperimentSpec } from '../../experiment/spec.js';
import { isBatchExperiment, loadBatchExperiment, readJsonSpec } from '../../experiment/batch/spec.js';
import { runBatchExperiment, type BatchExperimentRow } from '../../experiment/batch/run.js';
import { isTimeshareExperiment, loadTimeshareExperiment } from '../../experiment/timeshare/spec.js';
import { runCount as timeshareRunCount, type TimeshareRow } from '../../experiment/timeshare/run.js';
import { runTimeshareExperimentParallel } from '../../experiment/timeshare/parallel.js';
import { matrixSize, runExperiment, type ExperimentProgress, type ExperimentSummary } from '../../experiment/run-experiment.js';
import { defaultWorkerCount } from '../../experiment/pool.js';
import { listHeuristics } from '../../scheduler/heuristics/registry.js';
import { ExperimentLanes, LiveRecordSource, MAX_EXPERIMENT_LANES, serveUntilInterrupted, type Dashboard } from '../../dashboard/index.js';
import { DASHBOARD_HOST_OPTION, DASHBOARD_TUNNEL_HINT, dashboardAddress, startCommandDashboard } from '../start-dashboard.js';
import { expectFileKind } from '../../formats/file-kind.js';
import { loadRealGrid } from '../../realgrid/real-grid-file.js';
import { computeCellsOnGrid, estimateCellTimeS, GRID_RUN_FOLDER, type GridCell, type GridCellsOptions, type GridCellsResult } from '../../experiment/grid-cells.js';
import { runBatchExperimentOnGrid } from '../../experiment/grid-batch.js';
import { lockResultsFolder, RESULTS_FOLDER_LOCK, type JournalLock } from '../../../backends/real/journal-lock.js';
import type { ResultStore } from '../../experiment/store.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

const SPEC_HELP = [
  'The specification is JSON:',
  '  {',
  '    "name": "fig11",',
  '    "heuristics": "all",                      (or a list of names or codes, e.g. ["H0", "H4"])',
  '    "strategies": { "default": {}, "steal": { "workStealing": true } },   (optional)',
  '    "grids": { "fig11": { "file": "../griddescs/fig11/fig11.grid" } },',
  '    "applications": { "mcell": { "file": "../apps/fig11/fig11-${sharedFileSizeKB}kb.app" } },',
  '    "sweep": { "variable": "sharedFileSizeKB", "values": [100, 200, 400] },   (optional)',
  '    "seeds": { "count": 5, "first": 1 }       (or a list, e.g. [1, 2, 3]; seeds run from 0 to 4294967295)',
  '  }',
  'A grid or an application is {"file": PATH} (relative to the specification) or a generator:',
  '{"generator": "fig11", "sharedFileSizeKB": N}, {"generator": "fig11-grid"}, or {"generator":',
  '"mcell" | "ins2d" | "grid", "spec": {...}, "seed": N} (see src/generators). ${VARIABLE} and ${seed}',
  'are replaced in every string of these entries. Every run is cached in DIR/runs under a hash of its',
  'inputs\' contents, options, seed and the results version (which changes only when gridsweep starts',
  'computing different results): run the same command again to resume. One experiment at a time per DIR:',
  `a second on it is refused while the first runs (DIR/${RESULTS_FOLDER_LOCK} names the first's process;`,
  'with --dashboard, until the results are written).',
  'DIR/results.csv and DIR/results.json hold one row per run, DIR/summary.txt the table printed at the end',
  '(median makespan, then mean ± sd over seeds). When it ends, the experiment draws DIR/makespan-line.svg',
  '(median against the swept variable, with the lower bound), DIR/makespan-box.svg (spread over seeds per',
  'swept value) and DIR/makespan-by-DIMENSION.svg for each of strategy, grid, application that varies;',
  '`gridsweep plot` draws them again with other options.',
  'Exit status: 1 if a run failed, else 3 if a run did not finish (its "finished" column is false), else 0.',
  '',
  '--dashboard serves a live view on 127.0.0.1 (the URL, with its access token, is printed first as',
  '`dashboard: URL`): the progress over the matrix (done, running, cached, failed) and the Gantt charts',
  `of up to ${MAX_EXPERIMENT_LANES} runs as they are simulated; a finished run stays on screen a moment before the`,
  'next one takes its chart. Cached runs have no record: they are counted, not drawn. The results are',
  'the same with or without it. Once the experiment is over, the page stays served until Ctrl-C.',
  'With --grid, the page shows instead one chart, the grid run\'s, as `gridsweep run --dashboard` does: a',
  'row per slot of the real grid (local and SSH slots, pilot cores), and on it each task (a group of runs)',
  'as its transfers and its computation; the matrix counts a task\'s runs as running from the start of its',
  'computation and as done once its output is verified at the origin.',
  DASHBOARD_TUNNEL_HINT,
  '',
  'A batch experiment (trace mode, every combination of workload, machine, batch policy and allocator) is',
  'JSON with "batch": 1:',
  '  {',
  '    "batch": 1,',
  '    "workloads": { "seth": { "file": "seth.swf" }, "synthetic": { "generator": { "jobs": 5000,',
  '                   "nodes": 16, "coresPerNode": 4 }, "seed": 1 } },',
  '    "policies": "all",                        (or a list, e.g. ["fcfs", "easy"])',
  '    "allocators": "all",                      (optional, default all)',
  '    "nodes": 16, "coresPerNode": 4,           (optional: default each workload\'s header)',
  '    "boundedSlowdownThresholdS": 10           (optional)',
  '  }',
  'It writes DIR/results.json, DIR/results.csv and the box plots DIR/slowdown.svg,',
  'DIR/bounded-slowdown.svg and DIR/queue-size.svg (one box per dispatcher, policy/allocator), and with a',
  'mesh or torus DIR/pairwise-hops.svg and DIR/pieces.svg (allocation quality). Combinations that cannot',
  'run (a contiguous allocator under conservative, a bag allocator on a mesh) are skipped and listed.',
  '',
  'A time-sharing experiment (gang scheduling and dynamic coscheduling of parallel jobs with a structure:',
  'every workload × load × seed × strategy configuration × MPL × slice) is JSON with "timeshare": 1:',
  '  {',
  '    "timeshare": 1,',
  '    "nodes": 32,',
  '    "strategies": { "gang": { "strategy": "gang", "slice": 0.2, "context-switch": 0.002 },',
  '                    "sb": { "strategy": "spin-block", "spin": 0.0002 } },',
  '    "workloads": { "comm": { "generator": { "jobs": 100, "mix": { "comm": 1 } } },',
  '                   "seth": { "file": "seth.swf" },      (SWF jobs run as rigid jobs)',
  '                   "batch": { "rigid": { "jobs": 2000, "nodes": 16, "coresPerNode": 4 } } },',
  '    "load": [0.5, 0.7, 0.9], "mpl": [2, 4], "slice": [0.1],  (optional dimensions)',
  '    "seeds": [1, 2, 3]                        (optional, default [1]; generated workloads only)',
  '  }',
  'It writes DIR/results.json and DIR/results.csv (one row per run: response, execution and wait times,',
  'the execution profile, loss of CPU, skewness), DIR/summary.md (means over seeds), and per workload',
  'DIR/response-W.svg (mean response time against load, MPL or slice — "x" picks — one line per',
  'configuration) and DIR/profile-W.svg (the execution profile as stacked bars); --jobs N runs N at a',
  'time on worker threads (the same results). See docs/timesharing.md.',
  '',
  `--grid REALGRID.json computes the runs the cache does not hold on a real grid (the file \`gridsweep run\``,
  'takes: local slots, SSH hosts, Slurm pilots, any mix) instead of in worker threads, as the tasks of one',
  'sweep scheduled by gridsweep itself (--heuristic, default workqueue). The runs are dealt into 2 tasks per',
  'slot of the grid (local and SSH slots, pilot cores; more when a task would be estimated to take more than',
  'a quarter of the shortest pilot walltime), so that node starts and warms up once per task, not per run.',
  'The hosts need Node.js >= 20 and',
  'nothing else: gridsweep is sent to them as one bundled file (gridsweep-cell.mjs), with the cell table',
  'and the grid, application and behaviour files the runs read, each an input sent once per cluster. A',
  'host without a suitable node is refused (its runs go to the other hosts). The scheduler\'s estimate of',
  'a task is its number of runs times the median time of this experiment\'s runs already in the cache plus',
  '0.3 s, or times 2 s when there are none. Each run\'s result comes back verified and goes into the cache, and',
  'results.csv, results.json, the summary and the charts are those a local run writes (byte for byte but',
  `the timing columns). The grid run works in DIR/${GRID_RUN_FOLDER}/ (its journal in .gridsweep/cells/): when the`,
  'controller is killed, the same command resumes it, and no verified run is computed again.',
  'A time-sharing experiment is computed in worker threads only (no --grid yet).',
].join('\n');

/** Loads the heuristic plug-ins a specification lists (paths relative to it); returns their absolute paths. */
async function loadSpecPlugins(specPath: string): Promise<string[]> {
  const heuristics = (readJsonSpec(specPath).value as { heuristics?: unknown }).heuristics;
  if (!Array.isArray(heuristics)) return [];
  const refs = heuristics.filter((h): h is string => typeof h === 'string' && isPluginRef(h));
  return Promise.all(refs.map((ref) => loadPlugin(ref, dirname(specPath))));
}

const BATCH_TABLE_HEADER = `${'workload'.padEnd(14)} ${'dispatcher'.padEnd(24)} ${'jobs'.padStart(9)} ${'mean wait s'.padStart(12)} ${'mean bsld'.padStart(11)} ${'util %'.padStart(7)} ${'mean queue'.padStart(9)}`;

/** One line of the batch experiment's table; the machine in front of the dispatcher when there are several. */
function batchRowLine(r: BatchExperimentRow, severalMachines: boolean): string {
  const m = r.run.metrics;
  return `${r.workload.padEnd(14)} ${`${severalMachines ? `${r.machine} ` : ''}${r.policy}/${r.allocator}`.padEnd(24)} ${String(m.jobs).padStart(9)} ${m.waitS.mean.toFixed(0).padStart(12)} ${m.boundedSlowdown.mean.toFixed(2).padStart(11)} ${(m.utilization * 100).toFixed(1).padStart(7)} ${m.queueLength.timeMean.toFixed(1).padStart(9)}`;
}

function printBatchRows(rows: readonly BatchExperimentRow[]): void {
  const several = new Set(rows.map((r) => r.machine)).size > 1;
  console.log(BATCH_TABLE_HEADER);
  for (const r of rows) {
    console.log(batchRowLine(r, several));
    for (const w of r.run.warnings) console.error(`warning: ${w}`);
  }
}

function runBatchSpec(specPath: string, outDir: string): number {
  const loaded = loadBatchExperiment(readJsonSpec(specPath));
  const total = Object.keys(loaded.spec.workloads).length * loaded.cells.length;
  console.error(`${specPath}: ${total} trace runs → ${outDir}`);
  if (loaded.skipped.length > 0) console.error(`skipped ${loaded.skipped.length} combination${loaded.skipped.length === 1 ? '' : 's'} that cannot run (listed in results.json), e.g. ${loaded.skipped[0]!.machine} ${loaded.skipped[0]!.policy}/${loaded.skipped[0]!.allocator}: ${loaded.skipped[0]!.reason}`);
  const several = new Set(loaded.cells.map((c) => c.machine)).size > 1;
  console.log(BATCH_TABLE_HEADER);
  const result = runBatchExperiment(loaded, outDir, (r) => {
    console.log(batchRowLine(r, several));
    for (const w of r.run.warnings) console.error(`warning: ${w}`);
  });
  console.log(`wrote ${result.written.join(', ')}`);
  return 0;
}

async function runTimeshareSpec(specPath: string, outDir: string, jobs: number): Promise<number> {
  const loaded = loadTimeshareExperiment(readJsonSpec(specPath));
  console.error(`${specPath}: ${timeshareRunCount(loaded)} time-sharing runs on ${loaded.spec.nodes} nodes, ${jobs} worker thread(s) → ${outDir}`);
  console.log(`${'workload'.padEnd(14)} ${'load'.padStart(5)} ${'seed'.padStart(5)} ${'configuration'.padEnd(16)} ${'MPL'.padStart(4)} ${'slice s'.padStart(8)} ${'mean response s'.padStart(16)} ${'spin %'.padStart(7)} ${'idle %'.padStart(7)}`);
  const line = (r: TimeshareRow): string =>
    `${r.workload.padEnd(14)} ${String(r.load ?? '—').padStart(5)} ${String(r.seed ?? '—').padStart(5)} ${r.config.padEnd(16)} ${String(r.mpl).padStart(4)} ${String(r.sliceS).padStart(8)} ${r.meanResponseS.toFixed(3).padStart(16)} ${(100 * r.profile.spin).toFixed(1).padStart(7)} ${(100 * r.profile.idle).toFixed(1).padStart(7)}`;
  const result = await runTimeshareExperimentParallel(loaded, outDir, jobs, (r) => console.log(line(r)));
  console.log(`wrote ${result.written.join(', ')}`);
  return 0;
}

/**
 * The dashboard of an experiment: matrix progress above, the runs being simulated below (worker threads:
 * up to MAX_EXPERIMENT_LANES charts; on a real grid the chart of the grid run, added when it starts).
 */
async function startExperimentDashboard(title: string, jobs: number | 'grid', address: { port: number; host: string }): Promise<{ dashboard: Dashboard; lanes?: ExperimentLanes }> {
  const dashboard = await startCommandDashboard({ sources: [], title, ...address });
  return { dashboard, ...(jobs !== 'grid' ? { lanes: new ExperimentLanes(dashboard, { lanes: Math.min(jobs, MAX_EXPERIMENT_LANES) }) } : {}) };
}

function printSummary(summary: ExperimentSummary): void {
  console.log(summary.table.format());
  console.log('');
  console.log(`${summary.total} runs: ${summary.simulated} simulated, ${summary.cached} from the cache, ${summary.failures.length} failed, in ${(summary.elapsedMs / 1000).toFixed(1)} s`);
  if (summary.unfinished > 0) console.log(`${summary.unfinished} run(s) NOT FINISHED: the grid could make no more progress before every Work was done (the "finished" column of results.csv)`);
  console.log(`wrote ${[summary.csvPath, summary.jsonPath, summary.summaryPath].filter((p) => p !== undefined).join(', ')}`);
  if (summary.plots.length > 0) console.log(`drew ${summary.plots.join(', ')}`);
  for (const f of summary.failures.slice(0, 10)) console.error(`failed: ${f.run}: ${f.message}`);
  if (summary.failures.length > 10) console.error(`... and ${summary.failures.length - 10} more failures`);
}

/** What a grid run did, in one line (and the hosts refused). */
function printGridSummary(r: GridCellsResult): void {
  console.error(
    `real grid: ${r.computed} run(s) computed in ${r.tasks} task(s)${r.resumed > 0 ? ` (${r.resumed} verified before: resumed)` : ''}, ${r.failures.length} failed, in ${r.makespanS.toFixed(1)} s; ${r.inputTransfers} input transfer(s)` +
      r.pilots.map((p) => `; ${p.submitted} pilot(s) on ${p.cluster}`).join(''),
  );
  for (const [host, said] of r.refusedHosts) console.error(`refused host ${host}: ${said}`);
}

/** A batch experiment whose trace runs are computed on a real grid (grid-batch.ts). */
async function runBatchSpecOnGrid(specPath: string, outDir: string, grid: GridCellsOptions): Promise<number> {
  const loaded = loadBatchExperiment(readJsonSpec(specPath));
  const total = Object.keys(loaded.spec.workloads).length * loaded.cells.length;
  console.error(`${specPath}: ${total} trace runs on the real grid ${grid.gridPath} → ${outDir}`);
  if (loaded.skipped.length > 0) console.error(`skipped ${loaded.skipped.length} combination${loaded.skipped.length === 1 ? '' : 's'} that cannot run (listed in results.json)`);
  const { grid: r, result } = await runBatchExperimentOnGrid(loaded, outDir, grid);
  printGridSummary(r);
  if (!result) {
    for (const f of r.failures.slice(0, 10)) console.error(`failed: ${f.key}: ${f.message}`);
    console.error('no results written: run the same command again to compute the trace runs that failed (the others are not run again)');
    return EXIT.failure;
  }
  printBatchRows(result.rows);
  console.log(`wrote ${result.written.join(', ')}`);
  return EXIT.ok;
}

const command: Command = {
  name: 'experiment',
  summary: COMMAND_SUMMARIES.experiment,
  usage: 'gridsweep experiment SPEC.json [--out DIR] [--jobs N | --grid REALGRID.json [--heuristic H] [--accept-new]] [--dashboard [--port N] [--host ADDR]]',
  details: SPEC_HELP,
  options: {
    out: { type: 'string', short: 'o', description: 'results folder (default results/<spec name>)', valueName: 'DIR' },
    jobs: { type: 'string', short: 'j', description: `worker threads (default ${defaultWorkerCount()}, the available CPUs)`, valueName: 'N' },
    quiet: { type: 'boolean', short: 'q', description: 'no progress line' },
    dashboard: { type: 'boolean', description: 'watch the experiment on a live dashboard on 127.0.0.1, served until Ctrl-C' },
    port: { type: 'string', description: 'dashboard port (default: a random free port)', valueName: 'N' },
    host: DASHBOARD_HOST_OPTION,
    grid: { type: 'string', description: 'compute the runs on this real grid (local slots, SSH hosts, Slurm pilots), as in `gridsweep run`', valueName: 'REALGRID.json' },
    heuristic: { type: 'string', description: 'with --grid: the scheduler of the runs on the real grid (default workqueue)', valueName: 'H' },
    'accept-new': { type: 'boolean', description: 'with --grid: trust and remember the host key of an SSH host seen for the first time' },
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const specPath = args.positionals[0]!;
    const outDir = stringOption(args, 'out') ?? join('results', basename(specPath).replace(/\.json$/i, ''));
    expectFileKind(specPath, ['experiment-spec', 'batch-experiment-spec', 'timeshare-experiment-spec'], 'experiment', 'an experiment specification');
    const gridPath = stringOption(args, 'grid');
    if (gridPath === undefined) for (const flag of ['heuristic', 'accept-new']) if (optionGiven(args, flag)) throw new UsageError(`--${flag} goes with --grid`);
    const withDashboard = flagOption(args, 'dashboard');
    for (const flag of ['port', 'host']) if (!withDashboard && optionGiven(args, flag)) throw new UsageError(`--${flag} goes with --dashboard`);
    // One experiment per results folder: a second (the command started twice) is refused before it
    // computes or writes anything. The lock goes with the command, and its folder if the lock made it.
    const lock = lockResultsFolder(outDir);
    try {
      return await runIn(args, specPath, outDir, gridPath, withDashboard, lock);
    } finally {
      lock.release();
    }
  },
};

/** The experiment, its results folder locked (released once the results are written, if the dashboard stays served). */
async function runIn(args: CommandArgs, specPath: string, outDir: string, gridPath: string | undefined, withDashboard: boolean, lock: JournalLock): Promise<number> {
  if (isTimeshareExperiment(readJsonSpec(specPath))) {
    if (gridPath !== undefined) throw new UsageError('a time-sharing experiment runs in worker threads only: leave out --grid');
    if (flagOption(args, 'dashboard')) throw new UsageError('a time-sharing experiment has no dashboard yet');
    return runTimeshareSpec(specPath, outDir, numberOption(args, 'jobs', defaultWorkerCount(), { min: 1, max: 256, integer: true }));
  }
  if (gridPath !== undefined) {
    if (optionGiven(args, 'jobs')) printWarnings('experiment', ['--jobs has no effect with --grid (the real grid\'s hosts and slots run the cells); it is ignored']);
    expectFileKind(gridPath, ['real-grid'], 'experiment --grid', 'a real grid file');
  }
  const heuristic = stringOption(args, 'heuristic');
  if (heuristic !== undefined && !listHeuristics().some((h) => h.name === heuristic)) throw new UsageError(`--heuristic: no heuristic "${heuristic}"; one of ${listHeuristics().map((h) => h.name).join(', ')}`);
  // On a real grid: what to do on Ctrl-C (cancel the Slurm pilots), and the options of the grid run.
  let cleanup: (() => Promise<void>) | undefined;
  let beforeExit: (() => void) | undefined;
  const grid: Omit<GridCellsOptions, 'say'> | undefined =
    gridPath !== undefined
      ? { gridPath, grid: loadRealGrid(gridPath), ...(heuristic !== undefined ? { heuristic } : {}), acceptNew: flagOption(args, 'accept-new'), onInterrupt: (fn) => (cleanup = fn) }
      : undefined;
  const stopOnSignal = (): void => {
    beforeExit?.();
    console.error(`gridsweep experiment: interrupted${cleanup ? '; cancelling the Slurm pilots' : ''}; run the same command again to continue`);
    const limit = new Promise((resolve) => setTimeout(resolve, 30_000).unref());
    void Promise.race([cleanup?.().catch(() => undefined), limit]).then(() => process.exit(EXIT.interrupted));
  };
  if (grid) process.once('SIGINT', stopOnSignal);
  try {
    if (isBatchExperiment(readJsonSpec(specPath))) {
      if (flagOption(args, 'dashboard')) throw new UsageError('a batch experiment has no dashboard yet');
      if (!grid && optionGiven(args, 'jobs')) printWarnings('experiment', ['--jobs has no effect on a batch experiment (its trace runs go one after another); it is ignored']);
      return grid ? await runBatchSpecOnGrid(specPath, outDir, { ...grid, say: (text) => console.error(text) }) : runBatchSpec(specPath, outDir);
    }
    const jobs = numberOption(args, 'jobs', defaultWorkerCount(), { min: 1, max: 256, integer: true });
    const plugins = await loadSpecPlugins(specPath);
    const loaded = loadExperimentSpec(specPath, [...listHeuristics(), ...plugins.map((name) => ({ name }))]);
    const showProgress = args.values['quiet'] !== true && process.stderr.isTTY === true;
    const line = progressLine(process.stderr, showProgress);
    beforeExit = () => line.done();
    const address = dashboardAddress(args);
    console.error(`${specPath}: ${matrixSize(loaded)} runs ${gridPath !== undefined ? `on the real grid ${gridPath}` : `on ${jobs} worker thread(s)`} → ${outDir}`);
    const board = withDashboard ? await startExperimentDashboard(`gridsweep experiment ${specPath}`, grid ? 'grid' : jobs, address) : undefined;
    if (board) console.log(`dashboard: ${board.dashboard.url}`);
    let latest: ExperimentProgress | undefined;
    const onProgress = (p: ExperimentProgress): void => {
      latest = p;
      line.update(formatMatrixProgress(p));
      board?.dashboard.showMatrix({ ...p, finished: false });
    };
    const elsewhere = grid
      ? {
          elsewhere: async (runs: readonly GridCell[], store: ResultStore, cachedKeys: readonly string[]) => {
            console.error(`${runs.length} run(s) to compute on the real grid (${matrixSize(loaded) - runs.length} from the cache)`);
            // On the dashboard: the grid run's own chart (a row per slot, a bar per task of several runs).
            const live = board ? new LiveRecordSource(`${runs.length} run(s) on the real grid ${basename(grid.gridPath)}: a row per slot, a bar per task`) : undefined;
            if (live) board?.dashboard.setSource(0, live);
            // Where the matrix stood when the grid run began (nothing reported yet when nothing was cached).
            const before: ExperimentProgress = latest ?? { done: 0, running: 0, total: matrixSize(loaded), cached: 0, failed: 0 };
            board?.dashboard.showMatrix({ ...before, finished: false });
            let r: GridCellsResult;
            try {
              r = await computeCellsOnGrid(runs, store, outDir, {
                ...grid,
                cellEstimateS: estimateCellTimeS(store, cachedKeys),
                say: (text) => {
                  line.done();
                  console.error(text);
                },
                cellProgress: ({ done, running }) => {
                  const p = { ...before, done: before.done + done, running };
                  line.update(formatMatrixProgress(p));
                  board?.dashboard.showMatrix({ ...p, finished: false });
                },
                ...(live ? { record: live.sink } : {}),
              });
            } finally {
              live?.end();
            }
            line.done();
            printGridSummary(r);
            return r;
          },
        }
      : {};
    let summary: ExperimentSummary;
    try {
      summary = await runExperiment(loaded, { outDir, jobs, ...(showProgress || board ? { onProgress } : {}), ...(board?.lanes ? { watcher: board.lanes } : {}), ...elsewhere });
    } catch (err) {
      await board?.dashboard.close();
      throw err;
    }
    line.done();
    printSummary(summary);
    if (board) {
      const { total, cached } = summary;
      board.dashboard.showMatrix({ total, done: total, running: 0, cached, failed: summary.failures.length, finished: true });
      // The grid run is over: Ctrl-C now only stops serving the page (exit 0).
      process.removeListener('SIGINT', stopOnSignal);
      // The results are written: another experiment may use the folder while the page stays served.
      lock.release();
      await serveUntilInterrupted(board.dashboard);
    }
    return summary.failures.length > 0 ? EXIT.failure : summary.unfinished > 0 ? EXIT.unfinished : EXIT.ok;
  } finally {
    process.removeListener('SIGINT', stopOnSignal);
  }
}

export default command;
