// A batch experiment (every workload × machine × policy × allocator in trace mode) computed on a real
// grid: each trace run is a cell of grid-cells.ts, its workload file an input shared once per cluster,
// its result (the TraceRun, as JSON) fetched back verified; then the results and box plots are written as
// `runBatchExperiment` writes them. A cell's key is the SHA-256 of its trace options and of its workload's
// content, so that a grid run killed and started again resumes (a batch experiment has no cache).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { batchRunRequests, writeBatchResults, type BatchExperimentResult, type BatchExperimentRow } from './batch/run.js';
import type { LoadedBatchExperiment } from './batch/spec.js';
import type { TraceRun } from '../trace/run-trace.js';
import { computeCellsOnGrid, type GridCell, type GridCellsOptions, type GridCellsResult } from './grid-cells.js';

export interface BatchOnGridResult {
  readonly grid: GridCellsResult;
  /** Undefined when a trace run failed (grid.failures says which): nothing is written then. */
  readonly result?: BatchExperimentResult;
}

export async function runBatchExperimentOnGrid(loaded: LoadedBatchExperiment, outDir: string, o: Omit<GridCellsOptions, 'take'>): Promise<BatchOnGridResult> {
  const requests = batchRunRequests(loaded, outDir);
  const workloadSha = new Map<string, string>();
  const shaOf = (path: string): string => {
    let sha = workloadSha.get(path);
    if (sha === undefined) workloadSha.set(path, (sha = createHash('sha256').update(readFileSync(path)).digest('hex')));
    return sha;
  };
  const keys = requests.map((r) => createHash('sha256').update(JSON.stringify({ trace: { ...r.trace, workloadPath: shaOf(r.trace.workloadPath) } })).digest('hex'));
  const cells = new Map<string, GridCell>();
  requests.forEach((r, i) => cells.set(keys[i]!, { key: keys[i]!, entry: { trace: r.trace }, name: `${r.workload} ${r.trace.machine} ${r.trace.policy}/${r.trace.allocator}` }));
  const runs = new Map<string, TraceRun>();
  const take = (key: string, text: string): boolean => {
    try {
      runs.set(key, JSON.parse(text) as TraceRun);
      return true;
    } catch {
      return false;
    }
  };
  const grid = await computeCellsOnGrid([...cells.values()], undefined, outDir, { ...o, take });
  if (grid.failures.length > 0) return { grid };
  const rows: BatchExperimentRow[] = requests.map((r, i) => ({ workload: r.workload, machine: r.trace.machine, policy: r.trace.policy, allocator: r.trace.allocator, run: runs.get(keys[i]!)! }));
  return { grid, result: { rows, written: writeBatchResults(rows, loaded, outDir) } };
}
