// The program a host runs for a group of cells of an experiment on a real grid: `node gridsweep-cell.mjs
// cells CELL-TABLE.json GROUP OUT.json` (bundled into one file, cell-bundle.ts). A task computes several
// cells so that node starts, and its JIT warms up, once per group rather than once per cell. CELLS.json is the experiment's cell
// table (grid-cells.ts): per key, the job (its grid and application, files relative to the task's working
// directory, or generators) and the cache key's parts; or, for a batch experiment, one trace run. A
// simulation cell is computed exactly as a worker thread computes it (job.ts with the simulator) and
// written in the result cache's own format (store.ts), so that the file fetched back is the cache entry,
// what a local run stores but for wallMs; a trace run is computed as `runBatchExperiment` does. A cell whose
// heuristic is a plug-in loads the copy shipped with the task under the original's path, which its job
// names: the run is the one a worker thread at the origin computes.
import { readFileSync } from 'node:fs';
import { executeJob, InputCache, type JobMessage } from './job.js';
import type { RunKeyParts, StoredResult } from './store.js';
import { runOne } from './simulate-runner.js';
import { runTrace, type TraceRunOptions } from '../trace/run-trace.js';
import { loadPlugin } from '../scheduler/heuristics/plugin.js';
import { writeFileAtomicSync } from '../util/atomic-write.js';

/** Node.js this program needs; an older one exits with NODE_TOO_OLD_EXIT and says so (the bundle's banner). */
export const CELL_NODE_MAJOR = 20;
/** Exit status of a cell on a host that lacks a suitable `node` (none on PATH, or older than CELL_NODE_MAJOR). */
export const NO_SUITABLE_NODE_EXIT = 86;

/** A cell of a simulation experiment: the job a worker thread would run, and its cache key's parts. */
export interface SimulationCell {
  readonly job: JobMessage;
  readonly parts: RunKeyParts;
  /** The copy of the heuristic plug-in the job names (by its original's path), relative to the task. */
  readonly plugin?: string;
}

/** A cell of a batch experiment: one trace run (src/trace/run-trace.ts), its workload relative to the task. */
export interface TraceCell {
  readonly trace: TraceRunOptions;
}

export type CellTableEntry = SimulationCell | TraceCell;

/** The cell table: every cell one grid run computes, by key, and the groups of cells its tasks compute. */
export interface CellTable {
  readonly gridsweepCells: 1;
  readonly cells: Readonly<Record<string, CellTableEntry>>;
  /** Per task (group id), the keys of the cells it computes, in order. */
  readonly groups: Readonly<Record<string, readonly string[]>>;
}

/** What a task writes: each of its cells' result file, by key; and the CPU time the task used. */
export interface CellGroupResult {
  readonly gridsweepCellGroup: 1;
  readonly results: Readonly<Record<string, string>>;
  readonly cpuMs: number;
}

/**
 * The result of the cell `key` of `table`, as the text of its file: a simulation's cache entry (store.ts's
 * format), or a trace run as JSON.
 */
export async function computeCell(table: CellTable, key: string, cache: InputCache = new InputCache()): Promise<string> {
  const entry = table.cells[key];
  if (!entry) throw new Error(`no cell ${key} in the cell table`);
  if ('trace' in entry) return `${JSON.stringify(runTrace(entry.trace))}\n`;
  if (entry.plugin !== undefined) await loadPlugin(entry.plugin, process.cwd(), entry.job.request.options.heuristic);
  const result = await executeJob(entry.job, runOne, cache);
  const stored: StoredResult = { key, parts: entry.parts, ...result };
  return `${JSON.stringify(stored)}\n`;
}

/**
 * The cells of group `group`, one after another in this process (its JIT warm and its inputs loaded once,
 * as in a worker thread), written together to `outPath` (CellGroupResult).
 */
export async function computeGroup(table: CellTable, group: string): Promise<CellGroupResult> {
  const keys = table.groups[group];
  if (!keys) throw new Error(`no group ${group} in the cell table`);
  const cache = new InputCache();
  const results: Record<string, string> = {};
  for (const key of keys) results[key] = await computeCell(table, key, cache);
  const cpu = process.cpuUsage();
  return { gridsweepCellGroup: 1, results, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, tablePath, group, outPath] = argv;
  if (command !== 'cells' || tablePath === undefined || group === undefined || outPath === undefined) {
    process.stderr.write('usage: node gridsweep-cell.mjs cells CELL-TABLE.json GROUP OUT.json\n');
    return 2;
  }
  const table = JSON.parse(readFileSync(tablePath, 'utf8')) as CellTable;
  if (table.gridsweepCells !== 1) throw new Error(`${tablePath}: not a gridsweep cell table`);
  writeFileAtomicSync(outPath, `${JSON.stringify(await computeGroup(table, group))}\n`);
  return 0;
}

// Run only as the bundle's entry (the bundler defines GRIDSWEEP_CELL_BUNDLE), never when imported.
declare const GRIDSWEEP_CELL_BUNDLE: boolean | undefined;
if (typeof GRIDSWEEP_CELL_BUNDLE !== 'undefined' && GRIDSWEEP_CELL_BUNDLE) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`gridsweep cell: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
