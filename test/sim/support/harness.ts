// Runs the simulator with the scripted scheduler and reads the run record back as sub-task spans.
import type { Application } from '../../../src/model/application.js';
import type { GridDescription } from '../../../src/model/grid.js';
import type { RunRecordEvent, SubtaskKind } from '../../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../../src/scheduler/options.js';
import { runSimulation, type SimulationResult } from '../../../backends/sim/run-simulation.js';
import { ScriptedScheduler, type ScriptHooks, type Step } from './scripted-scheduler.js';

export interface Span {
  readonly kind: SubtaskKind;
  /** 'link:<cluster>' or 'host:<host>'. */
  readonly resource: string;
  /** File id (input) or work id (compute, output). */
  readonly subject: number;
  readonly startS: number;
  readonly endS: number;
  readonly ok: boolean;
}

export interface ScriptedRun {
  readonly result: SimulationResult;
  readonly events: RunRecordEvent[];
  readonly scheduler: ScriptedScheduler;
  readonly spans: Span[];
}

export function runScripted(
  app: Application,
  grid: GridDescription,
  steps: readonly Step[],
  hooks: ScriptHooks = {},
  samplePeriodS?: number,
): ScriptedRun {
  const events: RunRecordEvent[] = [];
  let scheduler: ScriptedScheduler | undefined;
  const result = runSimulation(
    {
      app,
      grid,
      scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'scripted' },
      seed: 1,
      record: (e) => events.push(e),
      ...(samplePeriodS !== undefined ? { samplePeriodS } : {}),
    },
    (deps) => (scheduler = new ScriptedScheduler(deps, steps, hooks)),
  );
  return { result, events, scheduler: scheduler!, spans: spansOf(events) };
}

export function spansOf(events: readonly RunRecordEvent[]): Span[] {
  const started = new Map<number, Extract<RunRecordEvent, { type: 'start' }>>();
  const spans: Span[] = [];
  for (const e of events) {
    if (e.type === 'start') started.set(e.id, e);
    else if (e.type === 'end') {
      const s = started.get(e.id)!;
      spans.push({
        kind: s.kind,
        resource: s.resource.type === 'link' ? `link:${s.resource.cluster}` : `host:${s.resource.host}`,
        subject: s.kind === 'input' ? s.file! : s.work!,
        startS: s.t,
        endS: e.t,
        ok: e.ok,
      });
    }
  }
  return spans.sort((a, b) => a.startS - b.startS || a.endS - b.endS);
}
