// The project's scheduler on the simulated grid: the paper's appendix B application on its appendix A grid
// under every registered heuristic, a grid that loses hosts and a cluster mid-run, and determinism.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadApplication, loadGrid } from '../../src/formats/index.js';
import type { InformationService, Sample } from '../../src/interfaces/information.js';
import type { GridDescription, GridEvent } from '../../src/model/grid.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { simulate } from '../../backends/sim/simulate.js';
import { runSimulation } from '../../backends/sim/run-simulation.js';
import { checkRunRecord } from '../support/invariants.js';

const app = loadApplication(join(PACKAGE_ROOT, 'apps/appendix-b.app'));
const { grid } = loadGrid(join(PACKAGE_ROOT, 'griddescs/appendix-a/appendix-a.grid'));
const heuristics = listHeuristics().map((h) => h.name);

function run(heuristic: string, g: GridDescription = grid, seed = 1) {
  const events: RunRecordEvent[] = [];
  const result = simulate({ app, grid: g, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic }, seed, record: (e) => events.push(e) });
  return { result, events, jsonl: events.map((e) => JSON.stringify(e)).join('\n') };
}

/** The appendix A grid, plus hosts lost mid-run and a cluster lost for good. */
function failingGrid(): GridDescription {
  const extra: GridEvent[] = [
    { kind: 'REMOVE_HOST', timeS: 150, host: 'host5.1' },
    { kind: 'REMOVE_HOST', timeS: 400, host: 'host6.2' },
    { kind: 'REMOVE_CLUSTER', timeS: 700, cluster: 'cluster5' },
    { kind: 'REMOVE_HOST', timeS: 1200, host: 'host2.1' },
  ];
  const events = [...grid.events, ...extra].map((e, i) => ({ e, i })).sort((a, b) => a.e.timeS - b.e.timeS || a.i - b.i);
  return { ...grid, events: events.map((x) => x.e) };
}

describe('appendix B on the appendix A grid', () => {
  it.each(heuristics)('%s completes every task with a clean run record', (heuristic) => {
    const { result, events } = run(heuristic);
    expect(result.finished).toBe(true);
    expect(result.worksDone).toBe(12);
    expect(checkRunRecord(events, app)).toEqual([]);
    // cluster3 is removed at 200 s while it works: a failure the scheduler has to recover from.
    expect(result.makespanS).toBeGreaterThan(200);
    expect(result.planCalls).toBeGreaterThan(0);
    expect(events[0]!.type).toBe('header');
    expect(events.at(-1)).toMatchObject({ type: 'run-end', makespanS: result.makespanS, worksDone: 12 });
  });

  it.each(heuristics)('%s survives hosts and a cluster removed mid-run: every task completes exactly once', (heuristic) => {
    const { result, events } = run(heuristic, failingGrid());
    expect(result.finished).toBe(true);
    expect(checkRunRecord(events, app)).toEqual([]);
    expect(events.filter((e) => e.type === 'work-done')).toHaveLength(12);
    expect(result.failures).toBeGreaterThan(0);
  });

  it('is deterministic: same seed ⇒ byte-identical JSON Lines', () => {
    for (const h of ['xsufferage', 'randomized-sufferage', 'workqueue']) {
      const a = run(h, failingGrid(), 7).jsonl;
      expect(a).toMatch(/"type":"plan"/);
      expect(run(h, failingGrid(), 7).jsonl, h).toBe(a);
    }
  });

  it('never shows the scheduler a measurement from the future', () => {
    let samplesSeen = 0;
    const result = runSimulation(
      { app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'xsufferage' }, seed: 1 },
      (deps) => {
        const check = (samples: readonly Sample[]) => {
          for (const s of samples) if (s.timeS > deps.clock.nowS()) throw new Error(`sample at ${s.timeS} shown at ${deps.clock.nowS()}`);
          samplesSeen += samples.length;
          return samples;
        };
        const info: InformationService = {
          topology: () => deps.info.topology(),
          storedFiles: (c) => deps.info.storedFiles(c),
          hostAvailability: (h, n) => check(deps.info.hostAvailability(h, n)),
          linkBandwidthBps: (c, n) => check(deps.info.linkBandwidthBps(c, n)),
          linkLatencyMs: (c, n) => check(deps.info.linkLatencyMs(c, n)),
        };
        return new Scheduler(app, { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'xsufferage' }, { ...deps, info });
      },
    );
    expect(result.finished).toBe(true);
    expect(samplesSeen).toBeGreaterThan(0);
  });
});
