// `gridsweep experiment SPEC [--out DIR] [--jobs N] [--dashboard]`: run a matrix of simulations, cached
// and resumable, optionally watched on the live dashboard.
import { basename, dirname, join } from 'node:path';
import { isPluginRef, loadPlugin } from '../../scheduler/heuristics/plugin.js';
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { printWarnings } from '../inapplicable-options.js';
import { formatMatrixProgress, progressLine } from '../progress-line.js';
import { flagOption, numberOption, optionGiven, stringOption } from '../args.js';
import { loadExperimentSpec } from '../../experiment/spec.js';
import { isBatchExperiment, loadBatchExperiment, readJsonSpec } from '../../batch/experiment/spec.js';
import { runBatchExperiment, type BatchExperimentRow } from '../../batch/experiment/run.js';
import { isTimeshareExperiment, loadTimeshareExperiment } from '../../experiment/timeshare/spec.js';
import { runCount as timeshareRunCount, type TimeshareRow } from '../../experiment/timeshare/run.js';
import { runTimeshareExperimentParallel } from '../../experiment/timeshare/parallel.js';
import { matrixSize, runExperiment, type ExperimentProgress, type ExperimentSummary } from '../../experiment/run-experiment.js';
import { defaultWorkerCount } from '../../experiment/pool.js';
import { listHeuristics } from '../../scheduler/heuristics/registry.js';
import { ExperimentLanes, MAX_EXPERIMENT_LANES, serveUntilInterrupted, type Dashboard } from '../../dashboard/index.js';
import { DASHBOARD_HOST_OPTION, DASHBOARD_TUNNEL_HINT, dashboardAddress, startCommandDashboard } from '../start-dashboard.js';
import { expectFileKind } from '../../formats/file-kind.js';

const SPEC_HELP = [
  'The specification is JSON:',
  '  {',
  '    "name": "fig11",',
  '    "heuristics": "all",                      (or a list of names or codes, e.g. ["H0", "H4"])',
  '    "strategies": { "default": {}, "steal": { "workStealing": true } },   (optional)',
  '    "grids": { "fig11": { "file": "../griddescs/fig11/fig11.grid" } },',
  '    "applications": { "mcell": { "file": "../apps/fig11/fig11-${sharedFileSizeKB}kb.app" } },',
  '    "sweep": { "variable": "sharedFileSizeKB", "values": [100, 200, 400] },   (optional)',
  '    "seeds": { "count": 5 }                   (or a list, e.g. [1, 2, 3])',
  '  }',
  'A grid or an application is {"file": PATH} (relative to the specification) or a generator:',
  '{"generator": "fig11", "sharedFileSizeKB": N}, {"generator": "fig11-grid"}, or {"generator":',
  '"mcell" | "ins2d" | "grid", "spec": {...}, "seed": N} (see src/generators). ${VARIABLE} and ${seed}',
  'are replaced in every string of these entries. Every run is cached in DIR/runs under a hash of its',
  'inputs\' contents, options, seed and the results version (which changes only when gridsweep starts',
  'computing different results): run the same command again to resume.',
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
].join('\n');

/** Loads the heuristic plug-ins a specification lists (paths relative to it); returns their absolute paths. */
async function loadSpecPlugins(specPath: string): Promise<string[]> {
  const heuristics = (readJsonSpec(specPath).value as { heuristics?: unknown }).heuristics;
  if (!Array.isArray(heuristics)) return [];
  const refs = heuristics.filter((h): h is string => typeof h === 'string' && isPluginRef(h));
  return Promise.all(refs.map((ref) => loadPlugin(ref, dirname(specPath))));
}

function runBatchSpec(specPath: string, outDir: string): number {
  const loaded = loadBatchExperiment(readJsonSpec(specPath));
  const total = Object.keys(loaded.spec.workloads).length * loaded.cells.length;
  console.error(`${specPath}: ${total} trace runs → ${outDir}`);
  if (loaded.skipped.length > 0) console.error(`skipped ${loaded.skipped.length} combination${loaded.skipped.length === 1 ? '' : 's'} that cannot run (listed in results.json), e.g. ${loaded.skipped[0]!.machine} ${loaded.skipped[0]!.policy}/${loaded.skipped[0]!.allocator}: ${loaded.skipped[0]!.reason}`);
  const several = new Set(loaded.cells.map((c) => c.machine)).size > 1;
  const line = (r: BatchExperimentRow): string => {
    const m = r.run.metrics;
    return `${r.workload.padEnd(14)} ${`${several ? `${r.machine} ` : ''}${r.policy}/${r.allocator}`.padEnd(24)} ${String(m.jobs).padStart(9)} ${m.waitS.mean.toFixed(0).padStart(12)} ${m.boundedSlowdown.mean.toFixed(2).padStart(11)} ${(m.utilization * 100).toFixed(1).padStart(7)} ${m.queueLength.timeMean.toFixed(1).padStart(9)}`;
  };
  console.log(`${'workload'.padEnd(14)} ${'dispatcher'.padEnd(24)} ${'jobs'.padStart(9)} ${'mean wait s'.padStart(12)} ${'mean bsld'.padStart(11)} ${'util %'.padStart(7)} ${'mean queue'.padStart(9)}`);
  const result = runBatchExperiment(loaded, outDir, (r) => {
    console.log(line(r));
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

/** The dashboard of an experiment: matrix progress above, the runs being simulated below. */
async function startExperimentDashboard(title: string, jobs: number, address: { port: number; host: string }): Promise<{ dashboard: Dashboard; lanes: ExperimentLanes }> {
  const dashboard = await startCommandDashboard({ sources: [], title, ...address });
  return { dashboard, lanes: new ExperimentLanes(dashboard, { lanes: Math.min(jobs, MAX_EXPERIMENT_LANES) }) };
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

const command: Command = {
  name: 'experiment',
  summary: 'run a matrix of simulations (heuristics × strategies × grids × applications × seeds), cached; or of batch policies on SWF workloads; or of time-sharing strategies',
  usage: 'gridsweep experiment SPEC.json [--out DIR] [--jobs N] [--dashboard [--port N] [--host ADDR]]',
  details: SPEC_HELP,
  options: {
    out: { type: 'string', short: 'o', description: 'results folder (default results/<spec name>)', valueName: 'DIR' },
    jobs: { type: 'string', short: 'j', description: `worker threads (default ${defaultWorkerCount()}, the available CPUs)`, valueName: 'N' },
    quiet: { type: 'boolean', short: 'q', description: 'no progress line' },
    dashboard: { type: 'boolean', description: 'watch the experiment on a live dashboard on 127.0.0.1, served until Ctrl-C' },
    port: { type: 'string', description: 'dashboard port (default: a random free port)', valueName: 'N' },
    host: DASHBOARD_HOST_OPTION,
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const specPath = args.positionals[0]!;
    const outDir = stringOption(args, 'out') ?? join('results', basename(specPath).replace(/\.json$/i, ''));
    expectFileKind(specPath, ['experiment-spec', 'batch-experiment-spec', 'timeshare-experiment-spec'], 'experiment', 'an experiment specification');
    if (isTimeshareExperiment(readJsonSpec(specPath))) {
      if (flagOption(args, 'dashboard')) throw new UsageError('a time-sharing experiment has no dashboard yet');
      return runTimeshareSpec(specPath, outDir, numberOption(args, 'jobs', defaultWorkerCount(), { min: 1, max: 256, integer: true }));
    }
    if (isBatchExperiment(readJsonSpec(specPath))) {
      if (flagOption(args, 'dashboard')) throw new UsageError('a batch experiment has no dashboard yet');
      if (optionGiven(args, 'jobs')) printWarnings('experiment', ['--jobs has no effect on a batch experiment (its trace runs go one after another); it is ignored']);
      return runBatchSpec(specPath, outDir);
    }
    const jobs = numberOption(args, 'jobs', defaultWorkerCount(), { min: 1, max: 256, integer: true });
    const plugins = await loadSpecPlugins(specPath);
    const loaded = loadExperimentSpec(specPath, [...listHeuristics(), ...plugins.map((name) => ({ name }))]);
    const showProgress = args.values['quiet'] !== true && process.stderr.isTTY === true;
    const line = progressLine(process.stderr, showProgress);
    const withDashboard = flagOption(args, 'dashboard');
    for (const flag of ['port', 'host']) if (!withDashboard && stringOption(args, flag) !== undefined) throw new UsageError(`--${flag} goes with --dashboard`);
    const address = dashboardAddress(args);
    console.error(`${specPath}: ${matrixSize(loaded)} runs on ${jobs} worker thread(s) → ${outDir}`);
    const board = withDashboard ? await startExperimentDashboard(`gridsweep experiment ${specPath}`, jobs, address) : undefined;
    if (board) console.log(`dashboard: ${board.dashboard.url}`);
    const onProgress = (p: ExperimentProgress): void => {
      line.update(formatMatrixProgress(p));
      board?.dashboard.showMatrix({ ...p, finished: false });
    };
    let summary: ExperimentSummary;
    try {
      summary = await runExperiment(loaded, { outDir, jobs, ...(showProgress || board ? { onProgress } : {}), ...(board ? { watcher: board.lanes } : {}) });
    } catch (err) {
      await board?.dashboard.close();
      throw err;
    }
    line.done();
    printSummary(summary);
    if (board) {
      const { total, cached } = summary;
      board.dashboard.showMatrix({ total, done: total, running: 0, cached, failed: summary.failures.length, finished: true });
      await serveUntilInterrupted(board.dashboard);
    }
    return summary.failures.length > 0 ? EXIT.failure : summary.unfinished > 0 ? EXIT.unfinished : EXIT.ok;
  },
};

export default command;
