// A worker thread of the experiment pool: loads the runner module named in workerData, then runs the jobs
// it is sent, one at a time, and posts each result (or the error) back. A job sent with `record: true`
// (a dashboard watches) also posts its run record, in batches, before its result.
import { parentPort, workerData } from 'node:worker_threads';
import { executeJob, InputCache, type JobMessage, type RunnerModule } from './job.js';
import { RecordBatcher } from './record-batcher.js';
import { isPluginRef, loadPlugin } from '../scheduler/heuristics/plugin.js';

interface JobEnvelope {
  readonly id: number;
  readonly job: JobMessage;
  readonly record: boolean;
}

const port = parentPort;
if (!port) throw new Error('experiment worker: must run in a worker thread');
const { runnerModule } = workerData as { runnerModule: string };
const runner = (await import(runnerModule)) as Partial<RunnerModule>;
if (typeof runner.runOne !== 'function') throw new Error(`experiment worker: ${runnerModule} does not export runOne()`);
const runOne = runner.runOne;
const cache = new InputCache();

port.on('message', (m: JobEnvelope) => {
  const batcher = m.record ? new RecordBatcher((records) => port.postMessage({ id: m.id, records })) : undefined;
  const heuristic = m.job.request.options.heuristic;
  (isPluginRef(heuristic) ? loadPlugin(heuristic) : Promise.resolve(''))
    .then(() => executeJob(m.job, runOne, cache, batcher?.sink))
    .then(
    (result) => {
      batcher?.flush();
      port.postMessage({ id: m.id, ok: true, result });
    },
    (err: unknown) => {
      batcher?.flush();
      port.postMessage({ id: m.id, ok: false, message: err instanceof Error ? err.message : String(err) });
    },
  );
});
port.postMessage({ ready: true });
