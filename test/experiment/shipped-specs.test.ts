// Every example experiment in experiments/ is valid and every input it names can be built.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExperimentSpec, substituteVariables } from '../../src/experiment/spec.js';
import { absolutize, loadApplicationInput, loadGridInput } from '../../src/experiment/inputs.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { parseJsonSource } from '../../src/sweep/json-source.js';
import { isTimeshareExperiment, loadTimeshareExperiment } from '../../src/experiment/timeshare/spec.js';

const dir = join(PACKAGE_ROOT, 'experiments');
const specs = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('shipped experiment specifications', () => {
  it('there are some', () => expect(specs.length).toBeGreaterThanOrEqual(2));
  for (const file of specs) {
    it(file, () => {
      const path = join(dir, file);
      const source = parseJsonSource(readFileSync(path, 'utf8'), path);
      if (isTimeshareExperiment(source)) {
        // A time-sharing experiment: checked, every strategy configuration fits every MPL and slice.
        const t = loadTimeshareExperiment(source);
        expect(t.strategies.length).toBeGreaterThan(0);
        return;
      }
      const l = parseExperimentSpec(readFileSync(path, 'utf8'), path, listHeuristics());
      expect(l.heuristics.length).toBeGreaterThan(0);
      for (const sweep of l.sweepValues) {
        const vars = { seed: l.seeds[0]!, ...(l.spec.sweep && sweep !== null ? { [l.spec.sweep.variable]: sweep } : {}) };
        for (const g of Object.values(l.spec.grids)) expect(loadGridInput(absolutize(substituteVariables(g, vars), l.baseDir)).grid.events.length).toBeGreaterThan(0);
        for (const a of Object.values(l.spec.applications)) expect(loadApplicationInput(absolutize(substituteVariables(a, vars), l.baseDir)).works.length).toBeGreaterThan(0);
      }
    });
  }
});
