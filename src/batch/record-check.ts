// The batch schedule checker (schedule-checker.ts) over a run record: replays each batch cluster's job
// events (submit, reserve, start, end) into a checker made for that cluster's shape and policy, so that any
// recorded sweep on batch clusters can be audited after the fact, as checkRunRecord audits the rest.
// Gang-scheduled clusters (gang:MPL) are left out: their jobs share cores, which this checker forbids.
import type { RunRecordEvent } from '../record/events.js';
import type { BatchJob, StartedJob } from './job.js';
import { ScheduleChecker } from './schedule-checker.js';

export function checkBatchRecord(events: readonly RunRecordEvent[]): string[] {
  const checkers = new Map<string, ScheduleChecker>();
  const gang = new Set<string>();
  const jobs = new Map<string, BatchJob>();
  const running = new Map<string, StartedJob>();
  const out: string[] = [];
  const key = (cluster: string, job: number): string => `${cluster}\u0000${job}`;
  for (const e of events) {
    if (e.type === 'grid' && e.event.kind === 'ADD_BATCH_CLUSTER') {
      // A gang-scheduled cluster runs up to MPL jobs per core: the space-sharing checker does not apply.
      if (e.event.gangMpl !== undefined) {
        gang.add(e.event.cluster);
        continue;
      }
      checkers.set(e.event.cluster, new ScheduleChecker({ nodes: e.event.nodes, coresPerNode: e.event.coresPerNode }, e.event.policy));
      continue;
    }
    if (e.type !== 'job' || gang.has(e.cluster)) continue;
    const checker = checkers.get(e.cluster);
    if (checker === undefined) {
      out.push(`t=${e.t}: job ${e.job} of '${e.cluster}', which is not a batch cluster of the record`);
      continue;
    }
    const k = key(e.cluster, e.job);
    if (e.event === 'submit') {
      const job: BatchJob = { id: e.job, submitS: e.t, runS: NaN, cores: e.cores ?? NaN, requestedS: e.requestedS ?? NaN, userId: -1 };
      jobs.set(k, job);
      checker.submitted(job);
      continue;
    }
    const job = jobs.get(k);
    if (job === undefined) {
      out.push(`t=${e.t}: job ${e.job} of '${e.cluster}' has a '${e.event}' event but was never submitted`);
      continue;
    }
    if (e.event === 'reserve') checker.reserved(job, e.reservedS ?? NaN);
    else if (e.event === 'start') {
      const s: StartedJob = { job, startS: e.t, endS: NaN, expectedEndS: e.t + job.requestedS, allocation: e.allocation ?? [], killed: false };
      running.set(k, s);
      checker.started(s);
    } else {
      const s = running.get(k);
      if (s === undefined) out.push(`t=${e.t}: job ${e.job} of '${e.cluster}' ends but never started`);
      else checker.ended({ ...s, endS: e.t, killed: e.killed === true });
      running.delete(k);
      jobs.delete(k);
    }
  }
  for (const [cluster, checker] of checkers) for (const v of checker.violations()) out.push(`${cluster}: ${v}`);
  return out;
}
