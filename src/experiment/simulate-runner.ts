// The experiment tool's default runner: one simulation with backends/sim, reduced to the figures a
// results row needs. Loaded by each worker thread (it must export `runOne`).
import { simulate } from '../../backends/sim/simulate.js';
import type { RecordSink } from '../record/events.js';
import type { RunInputs, RunOneFn, RunOutcome, RunRequest } from './job.js';

export const runOne: RunOneFn = (inputs: RunInputs, request: RunRequest, record?: RecordSink): RunOutcome => {
  const r = simulate({
    app: inputs.app,
    grid: inputs.grid,
    scheduler: request.options,
    seed: request.seed,
    ...(request.samplePeriodS === undefined ? {} : { samplePeriodS: request.samplePeriodS }),
    ...(record ? { record } : {}),
  });
  const busyS = r.hosts.reduce((s, h) => s + h.busyS, 0);
  const hostSpanS = r.hosts.length * r.makespanS;
  return {
    makespanS: r.makespanS,
    finished: r.finished,
    worksDone: r.worksDone,
    worksTotal: r.worksTotal,
    bytesMoved: r.links.reduce((s, l) => s + l.bytesIn + l.bytesOut, 0),
    utilization: hostSpanS > 0 ? busyS / hostSpanS : 0,
    planCalls: r.planCalls,
    planCpuMs: r.planCpuMs,
    failures: r.failures,
    reexecutions: r.reexecutions,
  };
};
