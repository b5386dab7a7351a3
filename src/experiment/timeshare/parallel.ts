// Runs a time-sharing experiment's cells on worker threads (each runs one cell at a time; a worker is
// handed the next cell as it finishes one). Rows are collected by cell index and reported in that order,
// so the results — and what is printed — are the same bytes whatever the number of workers.
import { Worker } from 'node:worker_threads';
import { workerUrl } from '../pool.js';
import { StallError } from '../../batch/timeshare/stall-guard.js';
import { WORKER_YOUNG_GENERATION_MB } from '../../util/young-generation.js';
import { runTimeshareExperiment, timeshareCells, writeTimeshareResults, type TimeshareExperimentResult } from './run.js';
import type { TimeshareRow } from './rows.js';
import type { LoadedTimeshareExperiment } from './spec.js';

export async function runTimeshareExperimentParallel(
  loaded: LoadedTimeshareExperiment,
  outDir: string,
  workers: number,
  onRun: (row: TimeshareRow) => void = () => undefined,
): Promise<TimeshareExperimentResult> {
  const cells = timeshareCells(loaded);
  const count = Math.min(workers, cells.length);
  if (count <= 1) return runTimeshareExperiment(loaded, outDir, onRun);
  const rows: (TimeshareRow | undefined)[] = new Array(cells.length).fill(undefined);
  let next = 0;
  let reported = 0;
  // Checked here already: the worker parses the same document (positions no longer matter).
  const text = JSON.stringify(loaded.spec);
  const pool = Array.from({ length: count }, () => new Worker(workerUrl('timeshare/worker'), { workerData: { file: loaded.file, text }, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } }));
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const give = (w: Worker) => {
        if (next < cells.length) {
          w.postMessage({ index: next, cell: cells[next] });
          next++;
        }
      };
      for (const w of pool) {
        w.on('message', (m: { index: number; row?: TimeshareRow; error?: string; stalled?: boolean }) => {
          if (failed) return;
          if (m.error !== undefined || m.row === undefined) {
            failed = true;
            const failure = `time-sharing run ${m.index + 1} of ${cells.length} failed: ${m.error ?? 'no result'}`;
            reject(m.stalled === true ? new StallError(failure) : new Error(failure));
            return;
          }
          rows[m.index] = m.row;
          while (reported < rows.length && rows[reported] !== undefined) onRun(rows[reported++]!);
          if (reported === rows.length) resolve();
          else give(w);
        });
        w.on('error', (err) => {
          if (failed) return;
          failed = true;
          reject(new Error(`time-sharing experiment worker failed: ${err.message}`));
        });
        give(w);
      }
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  const done = rows as TimeshareRow[];
  return { rows: done, written: writeTimeshareResults(done, loaded, outDir) };
}
