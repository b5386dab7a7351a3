// §7.4's task selection: a plan places worksPerHost × the available hosts Works, with no time horizon.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../backends/sim/simulate.js';
import { loadApplication, loadGrid } from '../../src/formats/index.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { checkRunRecord } from '../support/invariants.js';

const app = loadApplication(join(PACKAGE_ROOT, 'apps/fig11/fig11-1200kb.app'));
const { grid } = loadGrid(join(PACKAGE_ROOT, 'griddescs/fig11/fig11.grid'));

function plans(heuristic: string, options: object): { planned: number[]; makespanS: number } {
  const events: RunRecordEvent[] = [];
  const r = simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic, ...options }, seed: 1, record: (e) => events.push(e) });
  expect(r.finished).toBe(true);
  expect(checkRunRecord(events, app)).toEqual([]);
  return { planned: events.flatMap((e) => (e.type === 'plan' ? [e.plannedWorks] : [])), makespanS: r.makespanS };
}

describe("plan fill 'per-host' (Berman et al. 1999, §7.4)", () => {
  it('the first plan places worksPerHost × 22 hosts Works, rounded up; no plan places more', () => {
    for (const worksPerHost of [1, 2.5]) {
      const { planned } = plans('minmin', { planFill: 'per-host', worksPerHost });
      expect(planned[0]).toBe(Math.ceil(worksPerHost * 22));
      expect(Math.max(...planned)).toBeLessThanOrEqual(Math.ceil(worksPerHost * 22));
    }
  });

  it('differs from the horizon rule, which fills the first plan up to t(i+1) + Δ', () => {
    const horizon = plans('minmin', {});
    expect(horizon.planned[0]).not.toBe(44);
    expect(plans('minmin', { planFill: 'per-host', worksPerHost: 2 }).planned[0]).toBe(44);
  });

  it('every heuristic finishes the sweep under it', () => {
    for (const h of listHeuristics()) expect(plans(h.name, { planFill: 'per-host', worksPerHost: 2 }).makespanS, h.name).toBeGreaterThan(0);
  });
});
