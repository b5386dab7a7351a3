// The worker thread of `gridsweep check-heuristic`: loads the plug-in, checks each instance and posts its
// verdict, so that the command can stop a plug-in whose plan() never returns.
import { parentPort, workerData } from 'node:worker_threads';
import { checkInstance } from './check-heuristic-instance.js';
import { loadPlugin, PluginError } from '../scheduler/heuristics/plugin.js';

interface CheckRequest {
  readonly plugin: string;
  readonly seed: number;
  readonly instances: number;
}

const port = parentPort;
if (!port) throw new Error('check-heuristic worker: must run in a worker thread');
const { plugin, seed, instances } = workerData as CheckRequest;
const heuristic = await loadPlugin(plugin);
for (let k = 1; k <= instances; k++) {
  port.postMessage({ started: k });
  try {
    port.postMessage({ verdict: checkInstance(heuristic, seed, k) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    port.postMessage({ verdict: { instance: k, shape: '', violations: [err instanceof PluginError ? message : `the run failed: ${message}`] } });
  }
}
