// A simulation driven in steps (simulateStepped, what `gridsweep simulate` uses to show progress and stop
// on Ctrl-C) is the same run as in one go: the same record event for event, the same figures, whatever
// the step size, on a run that finishes and on one that stalls (the idle-timer limit across steps).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadApplication, loadGrid } from '../../src/formats/index.js';
import { simulate, simulateStepped, type SimulationInput } from '../../backends/sim/simulate.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import type { Application } from '../../src/model/application.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

function inputs(app: Application, gridFile: string, extra: Partial<SimulationInput> = {}): () => { input: SimulationInput; events: RunRecordEvent[] } {
  return () => {
    const events: RunRecordEvent[] = [];
    const input: SimulationInput = { app, grid: loadGrid(gridFile).grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'xsufferage' }, seed: 3, record: (e) => events.push(e), ...extra };
    return { input, events };
  };
}

const figures = (r: { wallMs: unknown; planCpuMs: number }) => ({ ...r, wallMs: 0, planCpuMs: 0 });

describe('simulateStepped', () => {
  const fig11 = inputs(loadApplication(join(PACKAGE_ROOT, 'apps/fig11/fig11-1200kb.app')), join(PACKAGE_ROOT, 'griddescs/fig11/fig11.grid'));

  it('gives the run of simulate(), for steps of 1, 7 and 1,000 events', async () => {
    const whole = fig11();
    const expected = simulate(whole.input);
    expect(expected.finished).toBe(true);
    for (const stepEvents of [1, 7, 1000]) {
      const stepped = fig11();
      const steps: number[] = [];
      const r = await simulateStepped(stepped.input, { stepEvents, onStep: (p) => steps.push(p.events) });
      expect(figures(r!), `step ${stepEvents}`).toEqual(figures(expected));
      expect(stepped.events, `step ${stepEvents}`).toEqual(whole.events);
      // each step counts at least its size (the grid additions of one instant are taken together: the
      // Figure 11 grid's 25 at t = 0 make the first step of 1 count 25), the last one ends the run
      expect(steps.at(-1)).toBe(expected.events);
      expect(steps[0]).toBeGreaterThanOrEqual(stepEvents);
      if (stepEvents === 1) expect(steps[0]).toBe(25);
    }
  });

  it('a run that stalls (Works longer than the pilots) ends unfinished at the same point in steps of 1', async () => {
    // As test/batch/sweep-on-batch.test.ts: two Works of 100 s, pilots of 40 s.
    const app = {
      files: [0, 1].map((i) => ({ id: i, name: `out${i}`, sizeBytes: 0, estSizeBytes: 0 })),
      works: [0, 1].map((i) => ({ id: i, inputs: [], outputs: [i], runTimeS: [100], estRunTimeS: [100] })),
    } as unknown as Application;
    const idle = inputs(app, join(PACKAGE_ROOT, 'test/fixtures/batch-grid/idle.grid'), { submission: { strategy: 'pilots', pilots: 1, pilotWalltimeS: 40 } });
    const whole = idle();
    const expected = simulate(whole.input);
    expect(expected.finished).toBe(false);
    const stepped = idle();
    const r = await simulateStepped(stepped.input, { stepEvents: 1 });
    expect(figures(r!)).toEqual(figures(expected));
    expect(stepped.events).toEqual(whole.events);
  });

  it('stops between steps when asked: no result, no run-end in the record', async () => {
    const run = fig11();
    let steps = 0;
    const r = await simulateStepped(run.input, { stepEvents: 10, onStep: () => steps++, shouldStop: () => steps >= 3 });
    expect(r).toBeUndefined();
    expect(steps).toBe(3);
    expect(run.events.some((e) => e.type === 'run-end')).toBe(false);
  });
});
