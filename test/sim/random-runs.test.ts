// Many random runs on failing, fluctuating grids with an independent randomized scheduler: every run must
// finish with a clean record, and a run must be a pure function of its inputs and seed.
import { describe, expect, it } from 'vitest';
import type { Application } from '../../src/model/application.js';
import type { GridDescription } from '../../src/model/grid.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { Rng } from '../../src/util/rng.js';
import { runSimulation } from '../../backends/sim/run-simulation.js';
import { checkRunRecord } from '../support/invariants.js';
import { addCluster, addHost, changeCluster, changeHost, makeApp, makeGrid, removeCluster, removeHost, randomClusters } from './support/build.js';
import { RandomScheduler } from './support/random-scheduler.js';

function randomCase(seed: number): { app: Application; grid: GridDescription } {
  const rng = new Rng(seed);
  // 6 chunks of 8 works sharing a chunk file, each with a private input and an output.
  const sizes: number[] = [];
  const works: { inputs: number[]; outputs: number[]; runTimeS: number[] }[] = [];
  const chunkFiles = Array.from({ length: 6 }, () => sizes.push(Math.round(rng.uniform(1e4, 1e5))) - 1);
  for (let w = 0; w < 48; w++) {
    const priv = sizes.push(Math.round(rng.uniform(100, 5000))) - 1;
    const out = sizes.push(Math.round(rng.uniform(100, 5000))) - 1;
    works.push({ inputs: [chunkFiles[w % 6]!, priv], outputs: [out], runTimeS: [rng.uniform(20, 80), rng.uniform(20, 80)] });
  }
  const { events, hosts } = randomClusters(rng, 2, 3, 10);
  // Cluster c2 goes away and comes back; hosts of c1 fail; behaviours change. c0 stays up throughout.
  const down = rng.uniform(20, 200);
  events.push(removeCluster(down, 'c2'));
  events.push(addCluster(down + rng.uniform(10, 300), 'c2', 'link0'));
  const back = events[events.length - 1]!.timeS;
  for (const id of hosts[2]!) events.push(addHost(back, 'c2', id, 'cpu0'));
  for (const id of hosts[1]!) if (rng.next() < 0.5) events.push(removeHost(rng.uniform(10, 400), id));
  events.push(changeHost(rng.uniform(0, 300), hosts[0]![0]!, 'cpu2', 3));
  events.push(changeCluster(rng.uniform(0, 300), 'c0', 'link2', 1));
  events.sort((a, b) => a.timeS - b.timeS);
  const series = <T,>(n: number, f: () => T): T[] => Array.from({ length: n }, f);
  return {
    app: makeApp(sizes, works),
    grid: makeGrid(
      events,
      Object.fromEntries(
        [0, 1, 2].map((i) => [`link${i}`, series(1 + rng.int(6), () => ({ latencyMs: rng.uniform(0, 200), bandwidthBps: rng.uniform(2e3, 5e4) }))]),
      ),
      Object.fromEntries([0, 1, 2].map((i) => [`cpu${i}`, [100, ...series(rng.int(8), () => (rng.next() < 0.2 ? 0 : rng.uniform(5, 100)))]])),
    ),
  };
}

function run(seed: number, schedulerSeed: number) {
  const { app, grid } = randomCase(seed);
  const events: RunRecordEvent[] = [];
  const result = runSimulation(
    { app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'random-test' }, seed: schedulerSeed, record: (e) => events.push(e) },
    (deps) => new RandomScheduler(deps),
  );
  return { app, result, events, jsonl: events.map((e) => JSON.stringify(e)).join('\n') };
}

describe('random runs on failing grids', () => {
  it('finish every work exactly once with a clean record', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { app, result, events } = run(seed, seed);
      expect(result.finished, `seed ${seed}`).toBe(true);
      expect(checkRunRecord(events, app), `seed ${seed}`).toEqual([]);
      expect(result.worksDone).toBe(48);
    }
  });

  it('exercise failures: some runs lose computations and redo them', () => {
    let failures = 0;
    let reexecutions = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const { result } = run(seed, seed);
      failures += result.failures;
      reexecutions += result.reexecutions;
    }
    expect(failures).toBeGreaterThan(0);
    expect(reexecutions).toBeGreaterThan(0);
  });

  it('are deterministic: same inputs and seed give byte-identical JSON Lines; another seed differs', () => {
    const a = run(5, 11);
    const b = run(5, 11);
    expect(b.jsonl).toBe(a.jsonl);
    expect(run(5, 12).jsonl).not.toBe(a.jsonl);
  });
});
