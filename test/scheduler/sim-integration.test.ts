// The scheduler against the real simulator (backends/sim): the paper's appendix B application on its
// appendix A grid (transient clusters, a cluster removed at t = 200 and t = 1500), with every heuristic.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../backends/sim/simulate.js';
import { loadApplication, loadGrid } from '../../src/formats/load.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';

const root = join(import.meta.dirname, '..', '..');
const app = loadApplication(join(root, 'apps', 'appendix-b.app'));
const { grid } = loadGrid(join(root, 'griddescs', 'appendix-a', 'appendix-a.grid'));

describe('appendix B on the appendix A grid, simulated', () => {
  for (const { name } of listHeuristics()) {
    it(`${name} runs every Work to completion`, () => {
      const records: RunRecordEvent[] = [];
      const result = simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: name }, seed: 1, record: (e) => records.push(e) });
      expect(result.finished).toBe(true);
      expect(result.worksDone).toBe(app.works.length);
      const done = records.filter((r) => r.type === 'work-done').map((r) => (r.type === 'work-done' ? r.work : -1));
      expect(done.sort((a, b) => a - b)).toEqual(app.works.map((w) => w.id));
      expect(result.planCalls).toBeGreaterThan(0);
      expect(result.makespanS).toBeGreaterThan(0);
    });
  }
});
