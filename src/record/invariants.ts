// Checks a run record against the rules of the model (Berman et al. 1999, §4, §5.4): returns every violation found,
// one sentence each, so that any simulated or real run can be audited after the fact.
//
//  - the record starts with a header and ends with a run-end; times never go back;
//  - sub-task ids are unique, every end pairs with an open start, every start ends;
//  - no two sub-tasks overlap on one FIFO resource (a cluster's link, a host);
//  - sub-tasks run only on resources that are up (grid records say which);
//  - a computation starts only when each of its inputs has arrived in its cluster's storage and the
//    cluster is up (a removed cluster's files are unusable until it is added again);
//  - a Work's outputs are sent only after its computation ended OK in that cluster;
//  - a Work fails on a host only if its latest computation ran there and did not end OK (or, for
//    'outputs-lost', ended OK there), and only once per computation; 'host-removed' (a replay giving up
//    the Works of a host removed for good) needs only that the host is down and the Work not computing;
//  - a Work is given up (a final failure) at most once;
//  - every Work completes (outputs at the origin, work-done) exactly once in a finished run, at most once
//    otherwise; run-end's counts agree;
//  - the makespan of a finished run is the arrival time of the last output at the origin.
import type { Application } from '../model/application.js';
import type { RunRecordEvent, SubtaskStart } from './events.js';

const EPS = 1e-9;

export function checkRunRecord(events: readonly RunRecordEvent[], app: Application): string[] {
  const v: string[] = [];
  if (events.length === 0) return ['the record is empty'];
  if (events[0]!.type !== 'header') v.push(`the first event is '${events[0]!.type}', not the header`);
  const last = events[events.length - 1]!;
  if (last.type !== 'run-end') v.push(`the last event is '${last.type}', not run-end`);

  const clusterUp = new Map<string, boolean>();
  const hostUp = new Map<string, boolean>();
  const hostCluster = new Map<string, string>();
  const storage = new Map<string, Set<number>>();
  const computed = new Map<string, Set<number>>();
  const open = new Map<number, SubtaskStart>();
  const seenIds = new Set<number>();
  const busy = new Map<string, number>(); // resource key → open sub-task id
  const outputArrivals = new Map<number, number[]>();
  const workDone = new Map<number, number[]>();
  const givenUp = new Set<number>();
  /** Each Work's latest computation: where, how it ended (undefined: still running), whether a failure named it. */
  const lastCompute = new Map<number, { id: number; host: string; ok?: boolean; failureReported: boolean }>();
  let lastOutputS = -Infinity;
  let prevT = 0;
  let headers = 0;
  let runEnd: Extract<RunRecordEvent, { type: 'run-end' }> | undefined;

  const setOf = (m: Map<string, Set<number>>, k: string) => {
    let s = m.get(k);
    if (!s) m.set(k, (s = new Set()));
    return s;
  };
  const keyOf = (s: SubtaskStart) => (s.resource.type === 'link' ? `link ${s.resource.cluster}` : `host ${s.resource.host}`);
  const what = (s: SubtaskStart) =>
    `${s.kind} #${s.id}${s.work !== undefined ? ` (work ${s.work})` : ''}${s.file !== undefined ? ` (file ${s.file})` : ''}`;

  events.forEach((e, index) => {
    if (e.t < prevT - EPS) v.push(`event ${index} (${e.type}) at t=${e.t} goes back in time from t=${prevT}`);
    prevT = Math.max(prevT, e.t);
    switch (e.type) {
      case 'header':
        if (++headers > 1) v.push(`event ${index}: a second header`);
        break;
      case 'grid': {
        const g = e.event;
        if (g.kind === 'ADD_CLUSTER' || g.kind === 'ADD_BATCH_CLUSTER') clusterUp.set(g.cluster, true);
        else if (g.kind === 'ADD_HOST') {
          hostUp.set(g.host, true);
          hostCluster.set(g.host, g.cluster);
        } else if (g.kind === 'REMOVE_HOST') hostUp.set(g.host, false);
        else if (g.kind === 'REMOVE_CLUSTER') {
          clusterUp.set(g.cluster, false);
          for (const [h, c] of hostCluster) if (c === g.cluster) hostUp.set(h, false);
        }
        break;
      }
      case 'start': {
        if (seenIds.has(e.id)) v.push(`t=${e.t}: sub-task id ${e.id} is used twice`);
        seenIds.add(e.id);
        open.set(e.id, e);
        const key = keyOf(e);
        const other = busy.get(key);
        if (other !== undefined) v.push(`t=${e.t}: ${what(e)} starts on ${key} while ${what(open.get(other)!)} still runs there`);
        busy.set(key, e.id);
        const cluster = e.resource.cluster;
        if (!clusterUp.get(cluster)) v.push(`t=${e.t}: ${what(e)} starts in cluster '${cluster}', which is not up`);
        if (e.kind === 'compute') {
          if (e.resource.type !== 'host') v.push(`t=${e.t}: ${what(e)} is a computation on a link`);
          else if (!hostUp.get(e.resource.host)) v.push(`t=${e.t}: ${what(e)} starts on host '${e.resource.host}', which is not up`);
          const work = e.work !== undefined ? app.works[e.work] : undefined;
          if (e.work !== undefined && e.resource.type === 'host') lastCompute.set(e.work, { id: e.id, host: e.resource.host, failureReported: false });
          if (!work) v.push(`t=${e.t}: ${what(e)} names no known work`);
          else {
            const stored = storage.get(cluster);
            const missing = work.inputs.filter((f) => !stored?.has(f));
            if (missing.length > 0)
              v.push(`t=${e.t}: ${what(e)} starts in cluster '${cluster}' before its input(s) ${missing.join(', ')} arrived there`);
          }
        } else if (e.resource.type !== 'link') v.push(`t=${e.t}: ${what(e)} is a transfer on a host`);
        else if (e.kind === 'output' && (e.work === undefined || !computed.get(cluster)?.has(e.work)))
          v.push(`t=${e.t}: ${what(e)} sends outputs from cluster '${cluster}' before the work's computation ended OK there`);
        break;
      }
      case 'end': {
        const s = open.get(e.id);
        if (!s) {
          v.push(`t=${e.t}: end of sub-task ${e.id}, which is not running`);
          break;
        }
        open.delete(e.id);
        const key = keyOf(s);
        if (busy.get(key) === e.id) busy.delete(key);
        const latest = s.kind === 'compute' && s.work !== undefined ? lastCompute.get(s.work) : undefined;
        if (latest?.id === e.id) latest.ok = e.ok;
        if (!e.ok) break;
        const cluster = s.resource.cluster;
        if (s.kind === 'input' && s.file !== undefined) setOf(storage, cluster).add(s.file);
        else if (s.kind === 'compute' && s.work !== undefined) {
          setOf(computed, cluster).add(s.work);
          for (const f of app.works[s.work]?.outputs ?? []) setOf(storage, cluster).add(f);
        } else if (s.kind === 'output' && s.work !== undefined) {
          const list = outputArrivals.get(s.work) ?? [];
          list.push(e.t);
          outputArrivals.set(s.work, list);
          lastOutputS = Math.max(lastOutputS, e.t);
        }
        break;
      }
      case 'work-done': {
        const list = workDone.get(e.work) ?? [];
        list.push(e.t);
        workDone.set(e.work, list);
        if (!(outputArrivals.get(e.work) ?? []).some((t) => Math.abs(t - e.t) <= EPS))
          v.push(`t=${e.t}: work-done for work ${e.work} without its outputs arriving at the origin then`);
        break;
      }
      case 'work-failed': {
        const latest = lastCompute.get(e.work);
        const failure = `t=${e.t}: work ${e.work} fails on host '${e.host}' (${e.reason})`;
        if (e.final && givenUp.has(e.work)) v.push(`${failure}, but it was given up before`);
        if (e.final) givenUp.add(e.work);
        if (e.reason === 'host-removed') {
          if (hostUp.get(e.host)) v.push(`${failure}, but that host is up`);
          if (latest !== undefined && open.has(latest.id)) v.push(`${failure}, but it is still computing on host '${latest.host}'`);
          break;
        }
        const outputsLost = e.reason === 'outputs-lost';
        if (latest?.host !== e.host || (latest.ok === true) !== outputsLost)
          v.push(outputsLost ? `${failure}, but its computation did not end OK there` : `${failure}, but it was not computing there`);
        else if (latest.failureReported) v.push(`${failure} a second time for computation #${latest.id}`);
        if (latest !== undefined) latest.failureReported = true;
        break;
      }
      case 'run-end':
        if (runEnd) v.push(`event ${index}: a second run-end`);
        runEnd = e;
        break;
      default:
        break;
    }
  });

  for (const s of open.values()) v.push(`${what(s)} started at t=${s.t} on ${keyOf(s)} and never ended`);

  const finished = runEnd !== undefined && runEnd.worksDone === app.works.length;
  let completedWorks = 0;
  for (const w of app.works) {
    const arrivals = outputArrivals.get(w.id)?.length ?? 0;
    const done = workDone.get(w.id)?.length ?? 0;
    if (arrivals > 1) v.push(`work ${w.id}: its outputs reached the origin ${arrivals} times`);
    if (done > 1) v.push(`work ${w.id} completed ${done} times`);
    if (done === 0 && finished) v.push(`work ${w.id} never completed, yet the run reports every work done`);
    if (done > 0) completedWorks++;
  }
  if (runEnd) {
    if (runEnd.worksDone !== completedWorks)
      v.push(`run-end reports ${runEnd.worksDone} works done; the record shows ${completedWorks}`);
    if (runEnd.worksDone + runEnd.worksFailed !== app.works.length)
      v.push(`run-end: worksDone + worksFailed = ${runEnd.worksDone + runEnd.worksFailed}, not the ${app.works.length} works`);
    if (finished && Math.abs(runEnd.makespanS - lastOutputS) > EPS)
      v.push(`run-end makespan ${runEnd.makespanS} is not the last output's arrival at the origin, t=${lastOutputS}`);
  }
  return v;
}
