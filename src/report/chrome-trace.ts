// The run as Chrome trace-event JSON (opens in Perfetto and chrome://tracing): one process per cluster,
// one thread per resource (its link, then its hosts), one complete ('X') event per sub-task, instant
// events for failures and grid changes, and metadata events naming processes and threads.
import type { RunState } from './run-state.js';

export interface TraceEvent {
  readonly name: string;
  readonly ph: 'X' | 'M' | 'i';
  readonly pid: number;
  readonly tid?: number;
  readonly ts?: number;
  readonly dur?: number;
  readonly cat?: string;
  readonly s?: 't' | 'p' | 'g';
  readonly args?: Readonly<Record<string, unknown>>;
}

export interface ChromeTrace {
  readonly traceEvents: readonly TraceEvent[];
  readonly displayTimeUnit: 'ms';
  readonly otherData: Readonly<Record<string, unknown>>;
}

const US_PER_S = 1e6;

/** `events` are needed as well as the folded state, for the failures and grid changes they hold. */
export function buildChromeTrace(state: RunState, events: Iterable<import('../record/events.js').RunRecordEvent>): ChromeTrace {
  const out: TraceEvent[] = [];
  const pidOf = new Map(state.clusters.map((c, i) => [c, i + 1]));
  const tidOf = new Map<string, number>();
  for (const [ci, cluster] of state.clusters.entries()) {
    const pid = ci + 1;
    out.push({ name: 'process_name', ph: 'M', pid, args: { name: `cluster ${cluster}` } });
    out.push({ name: 'process_sort_index', ph: 'M', pid, args: { sort_index: pid } });
  }
  for (const r of state.resources) {
    const pid = pidOf.get(r.cluster)!;
    const tid = r.index + 1;
    tidOf.set(r.type === 'link' ? `link:${r.cluster}` : `host:${r.host!}`, tid);
    out.push({ name: 'thread_name', ph: 'M', pid, tid, args: { name: r.label } });
    out.push({ name: 'thread_sort_index', ph: 'M', pid, tid, args: { sort_index: tid } });
  }
  const endS = state.end?.makespanS ?? state.timeS;
  for (const b of state.bars) {
    const r = state.resources[b.resourceIndex]!;
    const barEnd = b.endS ?? endS;
    const name = b.kind === 'input' ? `input file ${b.file ?? '?'}` : `${b.kind} work ${b.work ?? '?'}`;
    out.push({
      name,
      cat: b.kind,
      ph: 'X',
      pid: pidOf.get(r.cluster)!,
      tid: r.index + 1,
      ts: b.startS * US_PER_S,
      dur: (barEnd - b.startS) * US_PER_S,
      args: {
        id: b.id,
        ok: b.ok,
        attempt: b.attempt,
        ...(b.work !== undefined ? { work: b.work } : {}),
        ...(b.file !== undefined ? { file: b.file } : {}),
        ...(b.sizeBytes !== undefined ? { sizeBytes: b.sizeBytes } : {}),
      },
    });
  }
  for (const e of events) {
    if (e.type === 'work-failed') {
      const r = state.resources.find((x) => x.host === e.host);
      if (!r) continue;
      out.push({ name: `work ${e.work} failed${e.final ? ' (final)' : ''}`, cat: 'failure', ph: 'i', s: 't', pid: pidOf.get(r.cluster)!, tid: tidOf.get(`host:${e.host}`)!, ts: e.t * US_PER_S, args: { reason: e.reason } });
    } else if (e.type === 'grid') {
      const g = e.event;
      const cluster = 'cluster' in g ? g.cluster : state.resources.find((x) => x.host === (g as { host: string }).host)?.cluster;
      const pid = cluster !== undefined ? pidOf.get(cluster) : undefined;
      if (pid === undefined) continue;
      out.push({ name: g.kind, cat: 'grid', ph: 'i', s: 'p', pid, ts: e.t * US_PER_S, args: { ...g, pos: undefined } });
    }
  }
  return {
    traceEvents: out,
    displayTimeUnit: 'ms',
    otherData: { generator: 'gridsweep', header: state.header ?? null, makespanS: state.end?.makespanS ?? null },
  };
}
