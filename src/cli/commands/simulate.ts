// `gridsweep simulate --app A --grid G [...]`: run the scheduler on the simulated grid and report.
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { closeSync, openSync, readSync } from 'node:fs';
import type { Command, CommandArgs } from '../command.js';
import { UsageError } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { printWarnings, schedulerOptionWarnings, submissionWarnings } from '../inapplicable-options.js';
import { flagOption, numberOption, requiredString, stringOption } from '../args.js';
import { behaviorPath, checkCompatibility, loadApplication, loadGrid } from '../../formats/index.js';
import { getHeuristic } from '../../scheduler/heuristics/registry.js';
import type { SchedulerOptions } from '../../scheduler/options.js';
import type { Dashboard, RecordedSource } from '../../dashboard/index.js';
import type { SubmissionOptions } from '../../batch/submission.js';
import { submissionFlags, submissionFromArgs } from '../submission-flags.js';
import { DASHBOARD_HOST_OPTION, DASHBOARD_TUNNEL_HINT } from '../start-dashboard.js';
import { formatBatchSites } from '../../trace/format-trace.js';
import { loadHeuristicPlugins, strategyChoicesHelp, schedulerFlags, schedulerOptionsFromArgs } from '../scheduler-flags.js';
import type { Application } from '../../model/application.js';
import type { GridDescription } from '../../model/grid.js';
import { DEFAULT_SAMPLE_PERIOD_S } from '../../model/grid.js';
import type { RunHeader, RunRecordEvent } from '../../record/events.js';
import { JsonlRecordFile, writeRecordFile } from '../../record/record-file.js';
import { formatDiagnostic, InputError } from '../../util/diagnostics.js';
import { simulate, simulateStepped, type SimulationProgress, type SimulationResult } from '../../../backends/sim/simulate.js';
import { expectFileKind } from '../../formats/file-kind.js';
import { formatSimulationProgress, progressLine } from '../progress-line.js';
import { MAX_SEED } from '../../util/rng.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

/**
 * A large sweep's Works and scheduler state stay live to the end, and state that outlives the young
 * generation keeps dying in the old one. Left to itself, V8 lets the old generation grow up to 4× what the
 * last full collection kept before collecting again, so a million-Work simulation's peak is mostly garbage.
 * From LARGE_APP_WORKS Works on, the growth is held to LARGE_APP_HEAP_GROWING_PERCENT: more full
 * collections, for a peak near what is live. Smaller sweeps keep V8's own rule, where the extra collections
 * cost more time than the memory they save (bench/million.bench.ts measures both).
 */
const LARGE_APP_WORKS = 250_000;
const LARGE_APP_HEAP_GROWING_PERCENT = 25;

/** The progress line is redrawn at most this often (a step takes a few tens of ms). */
const PROGRESS_REDRAW_MS = 250;

/** Bytes hashed at a time: a large application file is never read whole. */
const HASH_PIECE_BYTES = 1 << 20;

function sha256File(path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(HASH_PIECE_BYTES);
    for (let n = readSync(fd, buffer, 0, HASH_PIECE_BYTES, null); n > 0; n = readSync(fd, buffer, 0, HASH_PIECE_BYTES, null)) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

function inputHashes(appPath: string, gridPath: string, grid: GridDescription): RunHeader['inputs'] {
  const inputs: Record<string, { path: string; sha256: string }> = {
    application: { path: appPath, sha256: sha256File(appPath) },
    grid: { path: gridPath, sha256: sha256File(gridPath) },
  };
  for (const name of [...grid.linkBehaviors.keys(), ...grid.hostBehaviors.keys()]) {
    const path = behaviorPath(gridPath, name);
    inputs[`behavior:${name}`] = { path, sha256: sha256File(path) };
  }
  return inputs;
}

/** How often the application's input files crossed a link. */
export function sendSummary(app: Application, fileSends: readonly number[]): { inputFiles: number; maxSends: number; sentMoreThanOnce: number } {
  const inputs = new Set<number>();
  for (const w of app.works) for (const f of w.inputs) inputs.add(f);
  let maxSends = 0;
  let sentMoreThanOnce = 0;
  for (const f of inputs) {
    const n = fileSends[f] ?? 0;
    maxSends = Math.max(maxSends, n);
    if (n > 1) sentMoreThanOnce++;
  }
  return { inputFiles: inputs.size, maxSends, sentMoreThanOnce };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const secs = (x: number) => `${x.toFixed(3)} s`;

export function formatReport(app: Application, heuristic: string, r: SimulationResult): string {
  const lines = [
    `heuristic: ${heuristic}`,
    `makespan: ${secs(r.makespanS)}${r.finished ? '' : ' (NOT FINISHED: the grid could make no more progress)'}`,
    `works done: ${r.worksDone}/${r.worksTotal}`,
    '',
    'hosts:',
  ];
  const hostWidth = Math.max(4, ...r.hosts.map((h) => `${h.id} (${h.cluster})`.length));
  for (const h of r.hosts) lines.push(`  ${`${h.id} (${h.cluster})`.padEnd(hostWidth)}  busy ${secs(h.busyS).padStart(14)}  utilization ${pct(h.utilization).padStart(7)}`);
  lines.push('', 'links:');
  const linkWidth = Math.max(4, ...r.links.map((l) => l.id.length));
  for (const l of r.links)
    lines.push(
      `  ${l.id.padEnd(linkWidth)}  busy ${secs(l.busyS).padStart(14)}  utilization ${pct(l.utilization).padStart(7)}  ` +
        `in ${l.bytesIn} B  out ${l.bytesOut} B  transfers ${l.transfers}`,
    );
  const s = sendSummary(app, r.fileSends);
  lines.push(
    '',
    `input files sent: ${s.inputFiles} files, at most ${s.maxSends} time(s) each, ${s.sentMoreThanOnce} sent more than once`,
    `failures: ${r.failures}  re-executions: ${r.reexecutions}`,
    `do_plan(): ${r.planCalls} call(s), ${r.planCpuMs.toFixed(1)} ms CPU`,
    `simulated events: ${r.events} in ${r.wallMs.simulate.toFixed(1)} ms`,
    ...formatBatchSites(r.batch),
  );
  return lines.join('\n');
}

interface LoadedInputs {
  readonly app: Application;
  readonly grid: GridDescription;
  readonly inputs: RunHeader['inputs'];
  readonly parseMs: number;
}

/** Parses and checks the application and the grid; warnings go to stderr, errors throw InputError. */
function loadInputs(appPath: string, gridPath: string, args: CommandArgs): LoadedInputs {
  const parseStart = performance.now();
  const app = loadApplication(appPath);
  const { grid, warnings } = loadGrid(gridPath);
  const problems = checkCompatibility(app, grid, appPath, gridPath);
  if (problems.some((p) => p.severity === 'error')) throw new InputError(problems);
  for (const w of [...warnings, ...problems]) console.error(formatDiagnostic(w));
  printWarnings('simulate', submissionWarnings(args, grid));
  const inputs = inputHashes(appPath, gridPath, grid);
  return { app, grid, inputs, parseMs: performance.now() - parseStart };
}

/**
 * The heuristics shown on the dashboard: --heuristic's run (given or the default), then --compare's; a
 * heuristic --compare lists already keeps its place in that list.
 */
function dashboardHeuristics(args: CommandArgs, options: SchedulerOptions): string[] {
  const list = stringOption(args, 'compare');
  if (list === undefined) return [options.heuristic];
  const names = list.split(',').map((n) => n.trim()).filter((n) => n !== '');
  if (names.length === 0) throw new UsageError('--compare needs a comma-separated list of heuristics, e.g. --compare minmin,xsufferage');
  const canonical = names.map((n) => {
    try {
      return getHeuristic(n).name;
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  });
  const twice = canonical.find((n, i) => canonical.indexOf(n) !== i);
  if (twice !== undefined) throw new UsageError(`--compare names ${twice} twice`);
  return canonical.includes(options.heuristic) ? canonical : [options.heuristic, ...canonical];
}

interface SimulationRequest {
  readonly scheduler: SchedulerOptions;
  readonly seed: number;
  readonly samplePeriodS: number;
  readonly submission: SubmissionOptions;
}

/** One simulation per heuristic on the same grid and application, each kept as a named record. */
function simulateEach(loaded: LoadedInputs, heuristics: readonly string[], req: SimulationRequest): { source: RecordedSource; result: SimulationResult }[] {
  return heuristics.map((heuristic) => {
    const events: RunRecordEvent[] = [];
    const result = simulate({
      app: loaded.app,
      grid: loaded.grid,
      scheduler: { ...req.scheduler, heuristic },
      seed: req.seed,
      samplePeriodS: req.samplePeriodS,
      submission: req.submission,
      inputs: loaded.inputs,
      record: (e) => events.push(e),
    });
    return { source: { name: heuristic, events }, result };
  });
}

function watchedPaths(appPath: string, gridPath: string, grid: GridDescription | undefined): string[] {
  const behaviors = grid ? [...grid.linkBehaviors.keys(), ...grid.hostBehaviors.keys()].map((name) => behaviorPath(gridPath, name)) : [];
  return [appPath, gridPath, ...behaviors];
}

function summaryLine(heuristic: string, r: SimulationResult): string {
  return `${heuristic}: makespan ${secs(r.makespanS)}${r.finished ? '' : ' (NOT FINISHED)'}, works done ${r.worksDone}/${r.worksTotal}`;
}

/** --dashboard / --watch: simulate each heuristic, serve the runs side by side until interrupted. */
async function serveDashboard(args: CommandArgs, appPath: string, gridPath: string, req: SimulationRequest): Promise<number> {
  // Loaded only here: the web server and the file watcher add about 50 ms to every simulation's start.
  const { runWatchLoop, serveUntilInterrupted } = await import('../../dashboard/index.js');
  const { dashboardAddress, startCommandDashboard } = await import('../start-dashboard.js');
  if (stringOption(args, 'record') !== undefined && stringOption(args, 'compare') !== undefined) {
    throw new UsageError('--record writes one run; give it without --compare');
  }
  const heuristics = dashboardHeuristics(args, req.scheduler);
  const address = dashboardAddress(args);
  const watchMode = flagOption(args, 'watch');
  const title = `gridsweep simulate ${appPath} on ${gridPath}`;
  const recordPath = stringOption(args, 'record');

  const runAll = (): RecordedSource[] => {
    const loaded = loadInputs(appPath, gridPath, args);
    const runs = simulateEach(loaded, heuristics, req);
    for (const { source, result } of runs) console.log(summaryLine(source.name, result));
    if (recordPath !== undefined) writeRecordFile(recordPath, runs[0]!.source.events);
    return runs.map((r) => r.source);
  };

  if (!watchMode) {
    const dashboard = await startCommandDashboard({ sources: runAll(), title, ...address });
    await serveUntilInterrupted(dashboard);
    return 0;
  }

  // Under --watch, inputs that do not parse at start are shown on the page like any later bad save.
  let firstError: string | undefined;
  let sources: RecordedSource[] = [];
  let grid: GridDescription | undefined;
  try {
    grid = loadGrid(gridPath).grid;
    sources = runAll();
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    firstError = err.message;
    console.error(err.message);
  }
  const dashboard: Dashboard = await startCommandDashboard({ sources, title, ...address });
  if (firstError !== undefined) dashboard.showError(firstError);
  const loop = runWatchLoop({
    paths: watchedPaths(appPath, gridPath, grid),
    rerun: async () => runAll(),
    dashboard,
    onOutcome: (o) => console.error(o.ok ? 'inputs changed: re-ran the simulation' : `inputs changed but do not parse:\n${o.message}`),
  });
  await loop.ready;
  console.log(`watching ${appPath}, ${gridPath} and its behaviour files`);
  await serveUntilInterrupted(dashboard);
  await loop.close();
  return 0;
}

const command: Command = {
  name: 'simulate',
  summary: COMMAND_SUMMARIES.simulate,
  usage:
    'gridsweep simulate --app APP --grid GRID [--heuristic H] [--seed S] [--record run.jsonl] [--json] [--sample-period S] [--dashboard [--port N] [--host ADDR] [--compare H1,H2,...] | --watch]',
  details: [
    'The run record (--record) is JSON Lines, one event per line, written under a temporary name and',
    'renamed when the run is over. The same inputs and seed give the same record, byte for byte.',
    'A simulation that stops before every Work is done (NOT FINISHED: the grid could make no more',
    'progress) exits with status 3.',
    'On a terminal, a progress line on stderr shows the simulated time, the Works done, their rate and an',
    'ETA (nothing when stderr is a pipe or a file). Ctrl-C stops the simulation between two steps, writes no',
    'run record (nor leaves a temporary one), says how far it got, and exits with status 130.',
    '--dashboard simulates, then serves the runs on a web page on 127.0.0.1 (the URL, with its access',
    'token, is printed as `dashboard: URL`) until Ctrl-C. --compare H1,H2,... simulates the same grid',
    'and application under each listed heuristic too, beside the --heuristic run (default xsufferage),',
    'and shows them side by side on one simulated clock.',
    '--watch (implies --dashboard) re-runs whenever the application, the grid or its behaviour files are',
    'saved; a save that does not parse shows its error (file:line:column) in the page, and the next good',
    'save brings the charts back. Behaviour files are those the grid names when the watch starts.',
    DASHBOARD_TUNNEL_HINT,
    '',
    strategyChoicesHelp(),
  ].join('\n'),
  options: {
    app: { type: 'string', description: 'application description (WorkDescription)', valueName: 'APP' },
    grid: { type: 'string', description: 'grid description (GridDescription; behaviour files beside it)', valueName: 'GRID' },
    seed: { type: 'string', description: 'seed of the random generator (default 1)', valueName: 'S' },
    record: { type: 'string', description: 'write the run record (JSON Lines) to this file', valueName: 'FILE' },
    json: { type: 'boolean', description: 'print one JSON object instead of the report' },
    'sample-period': { type: 'string', description: `seconds between behaviour samples (default ${DEFAULT_SAMPLE_PERIOD_S})`, valueName: 'S' },
    dashboard: { type: 'boolean', description: 'serve the run(s) on a live dashboard on 127.0.0.1 until Ctrl-C' },
    port: { type: 'string', description: 'dashboard port (default: a random free port)', valueName: 'N' },
    host: DASHBOARD_HOST_OPTION,
    compare: { type: 'string', description: 'dashboard: also simulate these heuristics, beside the --heuristic run', valueName: 'H1,H2,...' },
    watch: { type: 'boolean', description: 're-run and refresh the dashboard when an input file is saved (implies --dashboard)' },
    ...schedulerFlags(),
    ...submissionFlags(),
  },
  positionals: { min: 0, max: 0 },
  async run(args) {
    const appPath = requiredString(args, 'app');
    const gridPath = requiredString(args, 'grid');
    expectFileKind(appPath, ['application'], 'simulate --app', 'an application description (.app)');
    expectFileKind(gridPath, ['grid'], 'simulate --grid', 'a grid description (.grid)');
    await loadHeuristicPlugins([stringOption(args, 'heuristic'), ...(stringOption(args, 'compare')?.split(',').map((n) => n.trim()) ?? [])]);
    const options = schedulerOptionsFromArgs(args);
    printWarnings('simulate', schedulerOptionWarnings(args, options));
    const seed = numberOption(args, 'seed', 1, { min: 0, max: MAX_SEED, integer: true });
    const samplePeriodS = numberOption(args, 'sample-period', DEFAULT_SAMPLE_PERIOD_S, { min: Number.MIN_VALUE });
    const asJson = flagOption(args, 'json');
    if (flagOption(args, 'dashboard') || flagOption(args, 'watch')) {
      if (asJson) throw new UsageError('--json prints a report; it does not go with --dashboard or --watch');
      return serveDashboard(args, appPath, gridPath, { scheduler: options, seed, samplePeriodS, submission: submissionFromArgs(args) });
    }
    for (const flag of ['port', 'host', 'compare'])
      if (stringOption(args, flag) !== undefined) throw new UsageError(`--${flag} goes with --dashboard`);

    const { app, grid, inputs, parseMs } = loadInputs(appPath, gridPath, args);
    if (app.works.length >= LARGE_APP_WORKS) setFlagsFromString(`--heap-growing-percent=${LARGE_APP_HEAP_GROWING_PERCENT}`);

    const recordPath = stringOption(args, 'record');
    // Listening before the temporary record exists: a Ctrl-C from then on is ours, never node's default exit.
    let interrupted = false;
    const onInterrupt = (): void => {
      interrupted = true;
    };
    process.on('SIGINT', onInterrupt);
    let file: JsonlRecordFile | undefined;
    try {
      file = recordPath !== undefined ? new JsonlRecordFile(recordPath) : undefined;
    } catch (err) {
      process.removeListener('SIGINT', onInterrupt);
      throw err;
    }
    // In steps, so that a terminal shows progress and Ctrl-C stops between two steps: no partial record.
    const line = progressLine(process.stderr);
    const startMs = performance.now();
    let drawnMs = -Infinity;
    let reached: SimulationProgress = { nowS: 0, worksDone: 0, worksTotal: app.works.length, events: 0 };
    let result: SimulationResult | undefined;
    try {
      result = await simulateStepped(
        { app, grid, scheduler: options, seed, samplePeriodS, inputs, submission: submissionFromArgs(args), ...(file ? { record: file.sink } : {}) },
        {
          onStep: (p) => {
            reached = p;
            if (!line.active) return;
            const nowMs = performance.now();
            if (nowMs - drawnMs < PROGRESS_REDRAW_MS) return;
            drawnMs = nowMs;
            line.update(formatSimulationProgress(p, nowMs - startMs));
          },
          shouldStop: () => interrupted,
        },
      );
      line.done();
      if (result === undefined) file?.discard();
      else file?.commit();
    } catch (err) {
      line.done();
      file?.discard();
      throw err;
    } finally {
      process.removeListener('SIGINT', onInterrupt);
    }
    if (result === undefined) {
      const n = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
      console.error(
        `gridsweep simulate: interrupted after ${((performance.now() - startMs) / 1000).toFixed(1)} s, at simulated time ${n(reached.nowS)} s: ` +
          `${n(reached.worksDone)} of ${n(reached.worksTotal)} Works done, ${n(reached.events)} events${recordPath !== undefined ? `; no run record written` : ''}`,
      );
      return EXIT.interrupted;
    }
    if (asJson) {
      const { batch, ...rest } = result;
      console.log(JSON.stringify({ ...rest, ...(batch.length > 0 ? { batch } : {}), wallMs: { parse: parseMs, simulate: result.wallMs.simulate, plan: result.wallMs.plan } }));
    } else {
      console.log(formatReport(app, options.heuristic, result));
      console.log(`parsing: ${parseMs.toFixed(1)} ms`);
      if (recordPath !== undefined) console.log(`run record: ${recordPath}`);
    }
    if (!result.finished) {
      console.error(`gridsweep simulate: not finished: ${result.worksDone} of ${result.worksTotal} Works done when the grid could make no more progress (exit status ${EXIT.unfinished})`);
      return EXIT.unfinished;
    }
    return EXIT.ok;
  },
};

export default command;
