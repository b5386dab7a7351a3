// An experiment's cells computed on a real grid (local slots, SSH hosts, Slurm pilots) as the tasks of one
// sweep, through the real runner and gridsweep's own scheduler. The origin of that sweep is a folder of
// the experiment's results folder (GRID_RUN_FOLDER) that holds what the hosts need, each an input shared
// once per cluster: the cell program bundled into one file (cell-bundle.ts), the cell table (cells.json:
// each cell's job and cache key) and the grid, application and behaviour files the cells read, with the
// heuristic plug-ins they run (files/, their relative layout kept; a plug-in travels as its one file). The
// cells are dealt into groups (TASKS_PER_SLOT per slot of the grid, more if a pilot's walltime asks for
// shorter tasks), so that node starts and its JIT warms up once per group, not per cell; each task runs `node
// gridsweep-cell.mjs cells cell-table.json GROUP cells/GROUP.json` and its one output, the group's cache
// entries, comes back verified as every output does; the entries are then copied into the result cache and
// the experiment writes its results as a local run does.
// The run's journal is the runner's (ORIGIN/.gridsweep/cells/): the same command, after the controller
// was killed, resumes that sweep and computes no verified cell again. Once every cell is in the cache,
// the staged and fetched files are removed and the journal is renamed aside. As it goes, the run's record
// (a live dashboard's chart) and its progress in cells (running, verified) are handed to the caller.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RealGrid } from '../realgrid/real-grid-file.js';
import { loadSweepFile } from '../sweep/sweep-file.js';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../scheduler/options.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { isPluginRef, PluginError } from '../scheduler/heuristics/plugin.js';
import { parseGridEventsDetailed } from '../formats/grid-events.js';
import { behaviorPath, readDescription } from '../formats/load.js';
import { writeFileAtomicSync } from '../util/atomic-write.js';
import { InputError } from '../util/diagnostics.js';
import { WORKER_YOUNG_GENERATION_MB } from '../util/young-generation.js';
import { runReal, type RunLogEvent } from '../../backends/real/runner.js';
import { runLogLine } from '../../backends/real/run-log-lines.js';
import { journalHoldsRun, moveAside, runFilesOf } from '../../backends/real/run-files.js';
import { CELL_BUNDLE_NAME, placeCellBundle } from './cell-bundle.js';
import { NO_SUITABLE_NODE_EXIT, type CellGroupResult, type CellTable, type CellTableEntry } from './cell-entry.js';
import type { RecordSink } from '../record/events.js';
import type { InputSpec } from './spec.js';
import type { ResultStore, StoredResult } from './store.js';

/** The folder of the results folder that is the cells' sweep's origin. */
export const GRID_RUN_FOLDER = 'grid-run';
const SWEEP_NAME = 'cells.json';
const TABLE_NAME = 'cell-table.json';
const FILES_FOLDER = 'files';
const OUTPUTS_FOLDER = 'cells';
/** The scheduler's estimate of one cell when the cache holds none of this experiment's cells yet, seconds. */
export const DEFAULT_CELL_ESTIMATE_S = 2;
/** Added to a cell's measured simulation time for the estimate: starting node and loading the bundle, seconds. */
export const CELL_START_ESTIMATE_S = 0.3;
/**
 * Tasks per slot of the grid (local and SSH slots, pilot cores): each task's node process warms up once
 * (about 2 s of CPU on the Figure 11 cells: 4 per slot cost 1.6× the worker threads' CPU, 1 per slot
 * 0.96×, bench/experiment-grid.bench.ts), and enough tasks balance the slots.
 */
export const TASKS_PER_SLOT = 2;
/** A task's estimated run time stays under this share of the shortest pilot walltime, so that a pilot can take it. */
const PILOT_WALLTIME_SHARE = 0.25;

/** A cell to compute on the grid. */
export interface GridCell {
  /** Distinct, made of [0-9a-z-] (a file name): a simulation's cache key. */
  readonly key: string;
  readonly entry: CellTableEntry;
  /** What it is, for messages (run-experiment.ts's description). */
  readonly name: string;
}

export interface GridCellsOptions {
  readonly gridPath: string;
  readonly grid: RealGrid;
  /** The real run's scheduler (default: the work queue). */
  readonly heuristic?: string;
  readonly acceptNew?: boolean;
  /** Tasks per slot of the grid (default TASKS_PER_SLOT). */
  readonly tasksPerSlot?: number;
  /** The scheduler's estimate of one cell's run time, seconds (default: estimateCellTimeS of the cache). */
  readonly cellEstimateS?: number;
  /** One line per event worth telling (failures, machines, pilots, refused hosts). */
  readonly say: (line: string) => void;
  /**
   * The cells' progress as the grid run goes: `done`, cells verified at the origin (collected ones
   * included); `running`, cells of the tasks a host has started computing and that are neither verified
   * nor failed yet (a task's cells count from its computation's start, as read in the run record).
   */
  readonly cellProgress?: (p: { readonly done: number; readonly running: number }) => void;
  /**
   * The grid run's record as it is written (a live dashboard's chart, as for `gridsweep run --dashboard`):
   * one row per slot of the real grid, a task's transfers and computation as its bars.
   */
  readonly record?: RecordSink;
  /** Handed what to do on an interrupt (cancel the Slurm pilots). */
  readonly onInterrupt?: (cleanup: () => Promise<void>) => void;
  /**
   * Takes a cell's fetched (verified) result file: true when it is good and kept (default: a simulation
   * cell's cache entry, checked and copied into the store).
   */
  readonly take?: (key: string, text: string) => boolean;
}

export interface GridCellsResult {
  /** Cells computed on the grid by this command (collected ones included) and now in the cache. */
  readonly computed: number;
  /** Tasks (groups of cells) this command found verified by the run it resumed. */
  readonly resumed: number;
  /** Tasks of the grid run (groups of cells). */
  readonly tasks: number;
  /** CPU time of the tasks' node processes that came back, seconds. */
  readonly tasksCpuS: number;
  readonly failures: ReadonlyArray<{ readonly key: string; readonly message: string }>;
  readonly makespanS: number;
  readonly inputTransfers: number;
  readonly pilots: readonly { readonly cluster: string; readonly submitted: number }[];
  /** Hosts refused for lacking a suitable node, with what the host said. */
  readonly refusedHosts: ReadonlyMap<string, string>;
}

/**
 * The scheduler's estimate of one cell: CELL_START_ESTIMATE_S plus the median simulation time of up to
 * 64 of `cachedKeys` (cells of this experiment computed before), or DEFAULT_CELL_ESTIMATE_S without any.
 */
export function estimateCellTimeS(store: ResultStore, cachedKeys: readonly string[]): number {
  const wallsMs = cachedKeys
    .slice(0, 64)
    .map((k) => store.read(k)?.wallMs)
    .filter((x): x is number => x !== undefined)
    .sort((a, b) => a - b);
  if (wallsMs.length === 0) return DEFAULT_CELL_ESTIMATE_S;
  return CELL_START_ESTIMATE_S + wallsMs[Math.floor(wallsMs.length / 2)]! / 1000;
}

/** The heuristic plug-in a simulation cell runs (absolute), if any. */
function pluginOf(entry: CellTableEntry): string | undefined {
  if ('trace' in entry) return undefined;
  const heuristic = entry.job.request.options.heuristic;
  return isPluginRef(heuristic) ? resolve(heuristic) : undefined;
}

/** Every file a cell reads (absolute): its inputs, and the module of its heuristic when that is a plug-in. */
function filesOfCell(entry: CellTableEntry): string[] {
  if ('trace' in entry) return [resolve(entry.trace.workloadPath)];
  const plugin = pluginOf(entry);
  return [...filesOfInput('grid', entry.job.grid), ...filesOfInput('application', entry.job.application), ...(plugin === undefined ? [] : [plugin])];
}

/**
 * The cell with every file it reads named by `staged` (its path relative to the task's working directory).
 * Its job keeps naming a plug-in by the original's path (the run and its cache key are a local run's); the
 * copy to load is named apart.
 */
function cellOnHost(entry: CellTableEntry, staged: (absolute: string) => string): CellTableEntry {
  if ('trace' in entry) return { trace: { ...entry.trace, workloadPath: staged(resolve(entry.trace.workloadPath)) } };
  const onHost = (input: InputSpec): InputSpec => ('file' in input ? { file: staged(resolve(input.file)) } : input);
  const plugin = pluginOf(entry);
  return { ...entry, job: { ...entry.job, grid: onHost(entry.job.grid), application: onHost(entry.job.application) }, ...(plugin === undefined ? {} : { plugin: staged(plugin) }) };
}

/** Every file a job's input reads: a file entry, and for a grid file the behaviour files it names. */
function filesOfInput(kind: 'grid' | 'application', input: InputSpec): string[] {
  if (!('file' in input)) return [];
  const files = [resolve(input.file)];
  if (kind === 'grid') {
    const parsed = parseGridEventsDetailed(readDescription(input.file, 'grid description'), input.file);
    for (const ref of parsed.behaviorRefs) {
      if (isAbsolute(ref.name)) {
        throw new InputError([{ severity: 'error', pos: ref.pos, message: 'a behaviour file named by an absolute path, which a host of the real grid cannot read', found: ref.name, hint: 'name it relative to the grid file' }]);
      }
      files.push(resolve(behaviorPath(input.file, ref.name)));
    }
  }
  return files;
}

function commonFolder(paths: readonly string[]): string {
  let common = dirname(paths[0]!);
  for (const p of paths) while (common !== dirname(common) && !(p + sep).startsWith(common.endsWith(sep) ? common : common + sep)) common = dirname(common);
  return common;
}

/** Slots of a real grid: local and SSH slots, and the cores of the pilots a Slurm cluster keeps (1 per per-work job). */
export function gridSlots(grid: RealGrid): number {
  return grid.clusters.reduce((n, c) => n + c.endpoints.reduce((m, e) => m + e.hostIds.length, 0) + (c.slurm ? (c.slurm.submission === 'pilots' ? c.slurm.pilots * c.slurm.pilotCores : c.slurm.pilots) : 0), 0);
}

/**
 * How many tasks `cells` cells of `cellEstimateS` each make: `tasksPerSlot` per slot, and more when a task
 * would otherwise be estimated to take more than PILOT_WALLTIME_SHARE of the shortest pilot walltime.
 */
export function taskCount(cells: number, grid: RealGrid, tasksPerSlot: number, cellEstimateS: number): number {
  const walltimesS = grid.clusters.flatMap((c) => (c.slurm ? [c.slurm.pilotWalltimeS] : []));
  const longestTaskS = walltimesS.length > 0 ? Math.min(...walltimesS) * PILOT_WALLTIME_SHARE : Infinity;
  const forWalltime = Math.ceil((cells * cellEstimateS) / longestTaskS);
  return Math.min(cells, Math.max(1, Math.round(tasksPerSlot * gridSlots(grid)), forWalltime));
}

/** The cells dealt, in order, into `count` groups of sizes differing by at most one; each named by its keys' hash. */
function groupsOf(keys: readonly string[], count: number): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  let at = 0;
  for (let g = 0; g < count; g++) {
    const size = Math.floor(keys.length / count) + (g < keys.length % count ? 1 : 0);
    const members = keys.slice(at, at + size);
    at += size;
    groups[createHash('sha256').update(members.join(',')).digest('hex').slice(0, 24)] = members;
  }
  return groups;
}

/**
 * The cells' sweep: one task per group, every file an input of every task (shared once per cluster). Its
 * node gets the young generation of an experiment's worker thread (young-generation.ts): the same
 * simulations, as fast.
 */
function cellsSweep(keys: readonly string[], inputPaths: readonly string[], estimateS: number): object {
  const guard = `if ! command -v node >/dev/null 2>&1; then echo "gridsweep: this host has no node on its PATH; gridsweep experiment cells need Node.js >= 20" >&2; exit ${NO_SUITABLE_NODE_EXIT}; fi; exec node --max-semi-space-size=${WORKER_YOUNG_GENERATION_MB / 3} "$@"`;
  return {
    sweep: 1,
    command: ['/bin/sh', '-c', guard, 'gridsweep-cell', CELL_BUNDLE_NAME, 'cells', TABLE_NAME, '{group}', `${OUTPUTS_FOLDER}/{group}.json`],
    parameters: { group: keys },
    inputs: Object.fromEntries([['bundle', CELL_BUNDLE_NAME], ['table', TABLE_NAME], ...inputPaths.map((p, i) => [`file${i}`, p])]),
    outputs: { result: `${OUTPUTS_FOLDER}/{group}.json` },
    estimates: { runTimeS: estimateS, outputSizeBytes: 2000 },
  };
}

/** Writes the cell program, the cell table, the files and the sweep into `originDir`. */
async function stage(originDir: string, cells: readonly GridCell[], groupCount: number, estimateS: number): Promise<void> {
  for (const plugin of new Set(cells.flatMap((c) => pluginOf(c.entry) ?? []))) await checkPluginAlone(plugin);
  const absolute = new Set<string>();
  for (const c of cells) for (const f of filesOfCell(c.entry)) absolute.add(f);
  const sorted = [...absolute].sort();
  const root = sorted.length > 0 ? commonFolder(sorted) : originDir;
  const staged = (file: string): string => [FILES_FOLDER, ...relative(root, file).split(sep)].join('/');
  for (const old of [FILES_FOLDER, OUTPUTS_FOLDER]) rmSync(join(originDir, old), { recursive: true, force: true });
  for (const f of sorted) {
    const dest = join(originDir, staged(f));
    mkdirSync(dirname(dest), { recursive: true });
    copyFileSync(f, dest);
  }
  const groups = groupsOf(cells.map((c) => c.key), groupCount);
  const table: CellTable = { gridsweepCells: 1, cells: Object.fromEntries(cells.map((c): [string, CellTableEntry] => [c.key, cellOnHost(c.entry, staged)])), groups };
  await placeCellBundle(join(originDir, CELL_BUNDLE_NAME));
  writeFileAtomicSync(join(originDir, TABLE_NAME), `${JSON.stringify(table)}\n`);
  const largest = Math.max(...Object.values(groups).map((g) => g.length));
  writeFileAtomicSync(join(originDir, SWEEP_NAME), `${JSON.stringify(cellsSweep(Object.keys(groups), sorted.map(staged), estimateS * largest), null, 1)}\n`);
}

/**
 * A plug-in travels as its one file: one that does not load alone, copied into an empty folder (it imports
 * a file beside it, or a package), stops the run before anything is staged or sent.
 */
async function checkPluginAlone(plugin: string): Promise<void> {
  const alone = mkdtempSync(join(tmpdir(), 'gridsweep-plugin-'));
  try {
    const copy = join(alone, basename(plugin));
    copyFileSync(plugin, copy);
    await import(pathToFileURL(copy).href);
  } catch (err) {
    throw new PluginError(`heuristic plug-in ${plugin}: with --grid it travels to the hosts as its one file, and that file alone does not load (${(err as Error).message}); make it one file that imports only Node's built-in modules`);
  } finally {
    rmSync(alone, { recursive: true, force: true });
  }
}

function readTable(originDir: string): CellTable | undefined {
  try {
    const table = JSON.parse(readFileSync(join(originDir, TABLE_NAME), 'utf8')) as CellTable;
    return table.gridsweepCells === 1 && table.groups ? table : undefined;
  } catch {
    return undefined;
  }
}

/** A fetched group's result file: each of its cells handed to `take`; the keys taken, and the task's CPU. */
function ingest(originDir: string, group: string, keys: readonly string[], take: (key: string, text: string) => boolean): { taken: string[]; cpuMs: number } {
  const path = join(originDir, OUTPUTS_FOLDER, `${group}.json`);
  if (!existsSync(path)) return { taken: [], cpuMs: 0 };
  let r: CellGroupResult;
  try {
    r = JSON.parse(readFileSync(path, 'utf8')) as CellGroupResult;
  } catch {
    return { taken: [], cpuMs: 0 };
  }
  if (r.gridsweepCellGroup !== 1) return { taken: [], cpuMs: 0 };
  return { taken: keys.filter((k) => r.results[k] !== undefined && take(k, r.results[k])), cpuMs: r.cpuMs };
}

/** The default `take`: a simulation cell's cache entry, checked (it parses, it is the cell asked for) and copied into the cache as is. */
export function intoStore(store: ResultStore): (key: string, text: string) => boolean {
  return (key, text) => {
  let r: StoredResult;
  try {
    r = JSON.parse(text) as StoredResult;
  } catch {
    return false;
  }
  if (r.key !== key || !r.outcome || !r.bound) return false;
  mkdirSync(dirname(store.pathOf(key)), { recursive: true });
  writeFileAtomicSync(store.pathOf(key), text);
  return true;
  };
}

/** The run's events an experiment echoes (a task's own progress is the matrix's progress line). */
const ECHOED = new Set<RunLogEvent['kind']>(['failed', 'down', 'up', 'unusable', 'collected', 'recovered', 'adopted', 'pilot', 'grid-edit']);

function describeEvent(e: RunLogEvent, name: (work: number) => string): string | undefined {
  return e.kind !== 'start' && ECHOED.has(e.kind) ? runLogLine(e, (work) => `cell ${name(work)}`) : undefined;
}

/**
 * Computes `cells` on the real grid and puts each verified one into `store`. `outDir` is the experiment's
 * results folder (the sweep's origin is GRID_RUN_FOLDER in it). A run of the same folder killed before
 * is resumed when it was computing these cells (or more); otherwise its journal is moved aside.
 */
export async function computeCellsOnGrid(cells: readonly GridCell[], store: ResultStore | undefined, outDir: string, o: GridCellsOptions): Promise<GridCellsResult> {
  const take = o.take ?? (store ? intoStore(store) : () => false);
  const originDir = resolve(outDir, GRID_RUN_FOLDER);
  const sweepPath = join(originDir, SWEEP_NAME);
  const files = runFilesOf(originDir, sweepPath);
  const wanted = new Set(cells.map((c) => c.key));
  const previous = journalHoldsRun(files.journal) && existsSync(sweepPath) ? readTable(originDir) : undefined;
  const resume = previous !== undefined && [...wanted].every((k) => previous.cells[k] !== undefined);
  if (!resume) {
    moveAside([files.journal, files.logsDir]);
    mkdirSync(originDir, { recursive: true });
    const estimateS = o.cellEstimateS ?? DEFAULT_CELL_ESTIMATE_S;
    await stage(originDir, cells, taskCount(cells.length, o.grid, o.tasksPerSlot ?? TASKS_PER_SLOT, estimateS), estimateS);
  } else o.say(`resuming the grid run in ${originDir} (its journal ${relative(originDir, files.journal)})`);
  const table = resume ? previous : readTable(originDir)!;
  const groupIds = Object.keys(table.groups);
  const names = new Map(cells.map((c) => [c.key, c.name]));
  const name = (work: number): string => {
    const keys = table.groups[groupIds[work] ?? ''] ?? [];
    const first = names.get(keys[0] ?? '') ?? keys[0] ?? `#${work}`;
    return keys.length > 1 ? `task ${work} (${keys.length} cells: ${first}, ...)` : first;
  };

  // A host's slots are hosts to the scheduler (NAME.1, NAME.2...): a refusal names the machine.
  const machineOf = new Map(o.grid.clusters.flatMap((c) => c.endpoints.flatMap((e) => e.hostIds.map((h) => [h, e.name] as const))));
  const refusedHosts = new Map<string, string>();
  // Progress in cells: a task counts as running from its computation's start (the record) until it is
  // verified or fails (the log); its cells are then done, or no longer running.
  const sizeOf = (work: number): number => table.groups[groupIds[work] ?? '']?.length ?? 0;
  const running = new Set<number>();
  let done = 0;
  const tell = (): void => o.cellProgress?.({ done, running: [...running].reduce((n, w) => n + sizeOf(w), 0) });
  const record: RecordSink = (e) => {
    o.record?.(e);
    if (e.type === 'start' && e.kind === 'compute' && e.work !== undefined && !running.has(e.work)) {
      running.add(e.work);
      tell();
    }
  };
  const log = (e: RunLogEvent): void => {
    if (e.kind === 'done' || e.kind === 'collected' || e.kind === 'recovered') {
      running.delete(e.work);
      done += sizeOf(e.work);
      tell();
    } else if (e.kind === 'failed' && running.delete(e.work)) tell();
    if (e.kind === 'failed' && e.reason.includes(`exit code ${NO_SUITABLE_NODE_EXIT}`)) {
      const machine = machineOf.get(e.host) ?? e.host;
      if (!refusedHosts.has(machine)) {
        const said = e.reason.split(' — ').slice(1).join(' — ') || 'no suitable node';
        refusedHosts.set(machine, said);
        o.say(`REFUSED host ${machine}: ${said.replace(/^gridsweep: this host /, 'it ')}; its cells go to the other hosts (install Node.js >= 20 there, or remove it from ${o.gridPath})`);
      }
      return;
    }
    const line = describeEvent(e, name);
    if (line !== undefined) o.say(line);
  };
  const options: SchedulerOptions = { ...DEFAULT_SCHEDULER_OPTIONS, planIntervalS: 60, heuristic: o.heuristic ?? 'workqueue' };
  const result = await runReal(
    {
      sweepPath,
      sweep: loadSweepFile(sweepPath),
      gridPath: o.gridPath,
      grid: { ...o.grid, originDir },
      scheduler: options,
      seed: 1,
      journalPath: files.journal,
      resume,
      taskLogsDir: files.logsDir,
      acceptNew: o.acceptNew ?? false,
      // The grid run's origin is its own folder, not the file's: the file is read once, at the start.
      watchGrid: false,
      record,
      log,
      ...(o.onInterrupt ? { onInterrupt: o.onInterrupt } : {}),
    },
    (app, deps) => new Scheduler(app, options, deps),
  );
  const failures: { key: string; message: string }[] = [];
  let computed = 0;
  let cpuMs = 0;
  for (const [i, group] of groupIds.entries()) {
    const keys = table.groups[group]!.filter((k) => wanted.has(k) || !store?.has(k));
    const { taken, cpuMs: groupCpuMs } = ingest(originDir, group, keys, take);
    computed += taken.length;
    cpuMs += groupCpuMs;
    if (taken.length === keys.length) continue;
    const why = result.whyFailed.get(i);
    const tail = result.stderrTails.get(i);
    const message = result.originFailure
      ? `not computed: the origin could not be written (${result.originFailure.message}); run the same command again`
      : `not computed on the grid${why ? `: ${why}` : ''}${tail ? ` — ${tail.trim().split('\n').pop()}` : ''}`;
    for (const key of keys) if (!taken.includes(key)) failures.push({ key, message });
  }
  // Everything is in the cache: what was staged and fetched goes; the journal and the task logs stay,
  // renamed aside (journal.TIME.jsonl), so that the next grid run of this folder starts afresh.
  if (failures.length === 0 && result.originFailure === undefined) {
    for (const name of [FILES_FOLDER, OUTPUTS_FOLDER, CELL_BUNDLE_NAME, TABLE_NAME, SWEEP_NAME]) rmSync(join(originDir, name), { recursive: true, force: true });
    moveAside([files.journal, files.logsDir]);
  }
  return {
    computed,
    resumed: result.worksSkipped,
    tasks: groupIds.length,
    tasksCpuS: cpuMs / 1000,
    failures,
    makespanS: result.makespanS,
    inputTransfers: [...result.inputSends.values()].reduce((a, b) => a + b, 0),
    pilots: result.pilots.map((p) => ({ cluster: p.cluster, submitted: p.submitted })),
    refusedHosts,
  };
}
