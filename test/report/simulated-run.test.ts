// End to end with the real simulator: the report's reducer, SVG and trace agree with what the
// simulator itself measured, on the paper's appendix B application and appendix A grid.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../backends/sim/simulate.js';
import { loadApplication, loadGrid } from '../../src/formats/index.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { formatRunRecord, parseRunRecordText } from '../../src/record/record-reader.js';
import { RunState } from '../../src/report/run-state.js';
import { renderGanttSvg } from '../../src/report/gantt-svg.js';
import { buildChromeTrace } from '../../src/report/chrome-trace.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { countSubtasks } from '../fixtures/records/synthetic-run.js';

const app = loadApplication(join(PACKAGE_ROOT, 'apps', 'appendix-b.app'));
const { grid } = loadGrid(join(PACKAGE_ROOT, 'griddescs', 'appendix-a', 'appendix-a.grid'));

describe.each(['xsufferage', 'minmin'])('a simulated run (%s) seen through the report', (heuristic) => {
  const events: RunRecordEvent[] = [];
  const result = simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic }, seed: 1, record: (e) => events.push(e) });
  const state = RunState.from(events);

  it('reads back as a well-formed record', () => {
    expect(parseRunRecordText(formatRunRecord(events), 'sim.jsonl')).toEqual(events);
  });

  it('agrees with the simulator on makespan, works, failures and re-executions', () => {
    const s = state.summary();
    expect(state.end?.makespanS).toBe(result.makespanS);
    expect(s.done).toBe(result.worksDone);
    expect(s.failures).toBe(result.failures);
    expect(s.reexecutions).toBe(result.reexecutions);
    expect(state.planCalls.length).toBe(result.planCalls);
  });

  it('agrees with the simulator on busy time per host and bytes and busy time per link', () => {
    for (const h of result.hosts) {
      const row = state.resources.find((r) => r.host === h.id)!;
      expect(state.busyS(row, result.makespanS)).toBeCloseTo(h.busyS, 6);
    }
    for (const l of result.links) {
      const row = state.resources.find((r) => r.type === 'link' && r.cluster === l.cluster)!;
      expect(row.bytesMoved).toBe(l.bytesIn + l.bytesOut);
      expect(state.busyS(row, result.makespanS)).toBeCloseTo(l.busyS, 6);
    }
  });

  it('draws and traces one bar per sub-task; the failed cluster\'s hosts are marked down', () => {
    const n = countSubtasks(events).all;
    expect((renderGanttSvg(state).match(/<rect class="bar /g) ?? []).length).toBe(n);
    expect(buildChromeTrace(state, events).traceEvents.filter((e) => e.ph === 'X')).toHaveLength(n);
    expect(state.hostState('host3.1')).toBe('failed');
  });
});
