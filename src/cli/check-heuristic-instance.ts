// `gridsweep check-heuristic`: a plug-in heuristic on seeded random instances (grids of 1–3 clusters with
// failures and late joins, MCell-style sweeps), each simulated under the run-record checker
// (src/record/invariants.ts) — the proof the built-in heuristics get, offered to users. This file checks
// one instance; check-heuristic-worker.ts runs them in a worker thread the command can stop at a time limit.
import { simulate } from '../../backends/sim/simulate.js';
import { generateMcellApplication } from '../generators/application.js';
import { generateGrid } from '../generators/grid.js';
import { checkRunRecord } from '../record/invariants.js';
import type { RunRecordEvent } from '../record/events.js';
import { Rng } from '../util/rng.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../scheduler/options.js';

export interface InstanceVerdict {
  readonly instance: number;
  /** What the instance was, for the report: "2 clusters, 7 hosts, 24 Works, failures". */
  readonly shape: string;
  readonly violations: readonly string[];
}

/** Instance `k` (from 1) of the series drawn from `seed`: the same pair on every machine. */
export function checkInstance(heuristic: string, seed: number, k: number): InstanceVerdict {
  const rng = new Rng((seed * 1_000_003 + k) >>> 0);
  const clusters = 1 + rng.int(3);
  const withFailures = rng.next() < 0.5;
  const grid = generateGrid(
    {
      clusters: Array.from({ length: clusters }, () => ({
        hosts: [{ count: 1 + rng.int(4), availabilityPct: { distribution: { kind: 'uniform', min: 20, max: 100 }, samples: 4 } }],
        bandwidthBps: 2000 * (1 + rng.int(50)),
        latencyMs: rng.int(40),
      })),
      ...(withFailures ? { transient: { horizonS: 3000, hostUpS: { kind: 'uniform', min: 300, max: 1500 }, hostDownS: { kind: 'uniform', min: 50, max: 400 }, lateJoinFraction: 0.2 } } : {}),
    },
    rng.fork(),
  );
  const app = generateMcellApplication(
    {
      chunks: 1 + rng.int(4),
      tasksPerChunk: 2 + rng.int(8),
      sharedFileSizeBytes: { kind: 'uniform', min: 1e3, max: 3e5 },
      unsharedInputsPerTask: rng.int(3),
      unsharedInputSizeBytes: { kind: 'uniform', min: 100, max: 2e4 },
      outputSizeBytes: { kind: 'uniform', min: 100, max: 2e4 },
      runTimeS: { kind: 'uniform', min: 5, max: 200 },
    },
    rng.fork(),
  );
  const events: RunRecordEvent[] = [];
  const hosts = new Set(grid.events.flatMap((e) => (e.kind === 'ADD_HOST' ? [e.host] : []))).size;
  const shape = `${clusters} cluster${clusters === 1 ? '' : 's'}, ${hosts} host${hosts === 1 ? '' : 's'}, ${app.works.length} Works${withFailures ? ', hosts failing and joining' : ''}`;
  const result = simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic }, seed: k, record: (e) => events.push(e) });
  const violations = checkRunRecord(events, app);
  if (!result.finished) violations.push(`the sweep did not finish: ${result.worksDone} of ${result.worksTotal} Works done when the simulation could make no more progress`);
  return { instance: k, shape, violations };
}
