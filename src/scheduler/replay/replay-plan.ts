// The schedule a run record holds, as a real run can follow it: per host, the order in which Works were
// computed; per cluster link, the order of input and output transfers. Only what succeeded counts: each
// Work's last successful computation and output transfer, and the first successful send of each input to
// each cluster. Also reads the timeline (each Work's computation start) to compare runs.
import { readFileSync } from 'node:fs';
import type { FileId, WorkId } from '../../model/application.js';
import type { Application } from '../../model/application.js';
import type { ClusterId, HostId } from '../../model/grid.js';
import type { RealGrid } from '../../realgrid/real-grid-file.js';
import type { RunHeader, RunRecordEvent } from '../../record/events.js';
import { RecordLineChecker } from '../../record/record-reader.js';
import { InputError, unreadableFile, type Diagnostic } from '../../util/diagnostics.js';

export type ReplayLinkItem = { readonly kind: 'input'; readonly fileId: FileId } | { readonly kind: 'output'; readonly workId: WorkId };

export interface ReplayPlan {
  readonly recordPath: string;
  readonly header: RunHeader;
  readonly makespanS: number;
  /** Host → Works in the order they were computed. */
  readonly hostOrder: ReadonlyMap<HostId, readonly WorkId[]>;
  readonly hostCluster: ReadonlyMap<HostId, ClusterId>;
  /** Cluster → transfers in the order they crossed its link. */
  readonly linkOrder: ReadonlyMap<ClusterId, readonly ReplayLinkItem[]>;
  /** Work → start of its last successful computation, and its host. */
  readonly computeStart: ReadonlyMap<WorkId, { readonly t: number; readonly host: HostId }>;
}

interface Located<T> {
  readonly event: T;
  readonly line: number;
}

/** Reads a run record keeping each event's line number (for error messages). */
export function readRecordWithLines(path: string): Located<RunRecordEvent>[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadableFile(path, 'the run record', err, { hint: 'check the path' });
  }
  const checker = new RecordLineChecker(path);
  const out: Located<RunRecordEvent>[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    const ev = checker.line(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (ev) out.push({ event: ev, line: checker.lineCount });
  }
  checker.finish();
  return out;
}

/** Each Work's last successful computation: its start time and host (from any run record). */
export function computeStarts(events: Iterable<RunRecordEvent>): Map<WorkId, { t: number; host: HostId }> {
  const open = new Map<number, { t: number; host: HostId; work: WorkId }>();
  const done = new Map<WorkId, { t: number; host: HostId }>();
  for (const e of events) {
    if (e.type === 'start' && e.kind === 'compute' && e.resource.type === 'host' && e.work !== undefined) open.set(e.id, { t: e.t, host: e.resource.host, work: e.work });
    if (e.type === 'end') {
      const s = open.get(e.id);
      open.delete(e.id);
      if (s && e.ok) done.set(s.work, { t: s.t, host: s.host });
    }
  }
  return done;
}

/** A plan with the record line where each host's and link's schedule starts (for error messages). */
export type LoadedReplayPlan = ReplayPlan & { readonly lines: ReadonlyMap<string, number> };

export function loadReplayPlan(path: string): LoadedReplayPlan {
  const located = readRecordWithLines(path);
  const header = located[0]!.event as RunHeader;
  const starts = new Map<number, Located<Extract<RunRecordEvent, { type: 'start' }>>>();
  const computes: { host: HostId; cluster: ClusterId; work: WorkId; t: number; line: number }[] = [];
  const transfers: { cluster: ClusterId; item: ReplayLinkItem; t: number; line: number }[] = [];
  let makespanS: number | undefined;
  for (const { event: e, line } of located) {
    if (e.type === 'start') starts.set(e.id, { event: e, line });
    else if (e.type === 'run-end') makespanS = e.makespanS;
    else if (e.type === 'end' && e.ok) {
      const s = starts.get(e.id);
      if (!s) continue;
      const st = s.event;
      if (st.kind === 'compute' && st.resource.type === 'host' && st.work !== undefined) {
        computes.push({ host: st.resource.host, cluster: st.resource.cluster, work: st.work, t: st.t, line: s.line });
      } else if (st.resource.type === 'link') {
        if (st.kind === 'input' && st.file !== undefined) transfers.push({ cluster: st.resource.cluster, item: { kind: 'input', fileId: st.file }, t: st.t, line: s.line });
        if (st.kind === 'output' && st.work !== undefined) transfers.push({ cluster: st.resource.cluster, item: { kind: 'output', workId: st.work }, t: st.t, line: s.line });
      }
    }
  }
  if (header.type !== 'header') throw new Error('unreachable: the record reader checks the header');
  if (makespanS === undefined) {
    throw new InputError([
      { severity: 'error', pos: { file: path, line: located.at(-1)!.line, column: 1 }, message: 'the run record has no run-end: the simulation did not finish writing it', expected: "a 'run-end' event on the last line", hint: 'simulate again with --record' },
    ]);
  }
  // A Work's last successful computation is the one that counts; earlier ones were lost to failures.
  const lastCompute = new Map<WorkId, (typeof computes)[number]>();
  for (const c of computes) lastCompute.set(c.work, c);
  const hostOrder = new Map<HostId, WorkId[]>();
  const hostCluster = new Map<HostId, ClusterId>();
  const lines = new Map<string, number>();
  for (const c of [...lastCompute.values()].sort((a, b) => a.t - b.t || a.line - b.line)) {
    if (!hostOrder.has(c.host)) hostOrder.set(c.host, []);
    hostOrder.get(c.host)!.push(c.work);
    hostCluster.set(c.host, c.cluster);
    if (!lines.has(`host:${c.host}`)) lines.set(`host:${c.host}`, c.line);
  }
  const lastOutput = new Map<WorkId, (typeof transfers)[number]>();
  const firstInput = new Map<string, (typeof transfers)[number]>();
  for (const t of transfers) {
    if (t.item.kind === 'output') lastOutput.set(t.item.workId, t);
    else if (!firstInput.has(`${t.item.fileId}@${t.cluster}`)) firstInput.set(`${t.item.fileId}@${t.cluster}`, t);
  }
  const linkOrder = new Map<ClusterId, ReplayLinkItem[]>();
  for (const t of [...firstInput.values(), ...lastOutput.values()].sort((a, b) => a.t - b.t || a.line - b.line)) {
    if (!linkOrder.has(t.cluster)) linkOrder.set(t.cluster, []);
    linkOrder.get(t.cluster)!.push(t.item);
    if (!lines.has(`link:${t.cluster}`)) lines.set(`link:${t.cluster}`, t.line);
  }
  const computeStart = new Map<WorkId, { t: number; host: HostId }>();
  for (const c of lastCompute.values()) computeStart.set(c.work, { t: c.t, host: c.host });
  return { recordPath: path, header, makespanS, hostOrder, hostCluster, linkOrder, computeStart, lines };
}

/**
 * Checks that the plan fits the real grid and the application: same host and cluster names, the same
 * number of Works, every Work computed and brought back in the simulation. Throws InputError otherwise.
 */
export function checkReplayPlan(plan: LoadedReplayPlan, grid: RealGrid, app: Application): void {
  const file = plan.recordPath;
  const problems: Diagnostic[] = [];
  const at = (key: string): Diagnostic['pos'] => ({ file, line: plan.lines.get(key) ?? 1, column: 1 });
  const realCluster = new Map<HostId, ClusterId>();
  for (const c of grid.clusters) for (const e of c.endpoints) for (const h of e.hostIds) realCluster.set(h, c.id);
  const realClusters = new Set(grid.clusters.map((c) => c.id));
  const hostList = [...realCluster.keys()].join(', ');
  for (const [host, cluster] of plan.hostCluster) {
    const real = realCluster.get(host);
    if (real === undefined) {
      problems.push({ severity: 'error', pos: at(`host:${host}`), message: `the simulation computed on host "${host}", which the real grid file ${grid.file} does not name`, found: `"${host}"`, expected: `one of ${hostList}`, hint: 'simulate on a grid description whose host names are those of the real grid file (gridsweep probe writes one)' });
    } else if (real !== cluster) {
      problems.push({ severity: 'error', pos: at(`host:${host}`), message: `host "${host}" is in cluster "${cluster}" in the simulation but in "${real}" in the real grid file`, found: `"${cluster}"`, expected: `"${real}"`, hint: 'use the same cluster names in both' });
    }
  }
  for (const cluster of plan.linkOrder.keys()) {
    if (!realClusters.has(cluster)) {
      problems.push({ severity: 'error', pos: at(`link:${cluster}`), message: `the simulation used the link of cluster "${cluster}", which the real grid file ${grid.file} does not name`, found: `"${cluster}"`, expected: `one of ${[...realClusters].join(', ')}` });
    }
  }
  if (plan.header.taskCount !== app.works.length) {
    problems.push({ severity: 'error', pos: { file, line: 1, column: 1 }, message: `the simulation ran ${plan.header.taskCount} Works but the sweep has ${app.works.length}`, found: String(plan.header.taskCount), expected: String(app.works.length), hint: 'simulate the WorkDescription of this sweep (gridsweep describe)' });
  } else {
    const retrieved = new Set<WorkId>();
    for (const items of plan.linkOrder.values()) for (const i of items) if (i.kind === 'output') retrieved.add(i.workId);
    const missing = app.works.filter((w) => !plan.computeStart.has(w.id) || !retrieved.has(w.id)).map((w) => w.id);
    if (missing.length > 0) {
      problems.push({ severity: 'error', pos: { file, line: 1, column: 1 }, message: `the simulation did not finish ${missing.length} Work(s): ${missing.slice(0, 10).join(' ')}${missing.length > 10 ? ' ...' : ''}`, hint: 'replay the record of a simulation that finished every Work' });
    }
  }
  if (problems.length > 0) throw new InputError(problems);
}
