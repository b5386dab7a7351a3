// A worker thread of a time-sharing experiment: given the specification (its text and path), it runs the
// cells it is sent, one at a time, and posts each row back (or the error).
import { parentPort, workerData } from 'node:worker_threads';
import { StallError } from '../../batch/timeshare/stall-guard.js';
import { parseJsonSource } from '../../sweep/json-source.js';
import { loadTimeshareExperiment } from './spec.js';
import { runTimeshareCell, WorkloadInstances, type TimeshareCell } from './run.js';

const port = parentPort;
if (!port) throw new Error('time-sharing experiment worker: must run in a worker thread');
const { file, text } = workerData as { file: string; text: string };
const loaded = loadTimeshareExperiment(parseJsonSource(text, file));
const instances = new WorkloadInstances(loaded);

port.on('message', (m: { index: number; cell: TimeshareCell }) => {
  try {
    port.postMessage({ index: m.index, row: runTimeshareCell(loaded, m.cell, instances) });
  } catch (err) {
    // A stall is the run's (too long a phase for its slice), not a bug of the experiment: say which it was.
    port.postMessage({ index: m.index, error: err instanceof Error ? err.message : String(err), stalled: err instanceof StallError });
  }
});
