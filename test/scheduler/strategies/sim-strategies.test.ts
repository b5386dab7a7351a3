// Every strategy value drives the appendix B application on the appendix A grid (transient clusters) to
// completion in the real simulator, and the defaults reproduce the run with no strategy options at all.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../../backends/sim/simulate.js';
import { loadApplication, loadGrid } from '../../../src/formats/load.js';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../../../src/scheduler/options.js';
import { listStrategyFamilies } from '../../../src/scheduler/strategies/registry.js';

const root = join(import.meta.dirname, '..', '..', '..');
const app = loadApplication(join(root, 'apps', 'appendix-b.app'));
const { grid } = loadGrid(join(root, 'griddescs', 'appendix-a', 'appendix-a.grid'));
const run = (options: Partial<SchedulerOptions>) => simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, ...options }, seed: 3 });

describe('strategies on the simulated appendix A grid', () => {
  for (const family of listStrategyFamilies()) {
    for (const choice of family.choices) {
      it(`${family.option} = ${choice.name}`, () => {
        const result = run({ [family.option]: choice.name, taskSpaceSize: 5, planIntervalS: 120 });
        expect(result.finished).toBe(true);
        expect(result.worksDone).toBe(app.works.length);
      });
    }
  }

  it('the defaults are the behaviour of an option set that names no strategy', () => {
    const { heuristic, planIntervalS, deltaS, planDurationS, keepWorksPerHost, workStealing, linkOrder, replanOn, randomTolerance } = DEFAULT_SCHEDULER_OPTIONS;
    const bare: SchedulerOptions = { heuristic, planIntervalS, deltaS, planDurationS, keepWorksPerHost, workStealing, linkOrder, replanOn, randomTolerance };
    const a = simulate({ app, grid, scheduler: bare, seed: 3 });
    const b = run({});
    expect(b.makespanS).toBe(a.makespanS);
    expect(b.planCalls).toBe(a.planCalls);
  });
});
