// The dashboard's WebSocket protocol. The server folds each run's events with the shared RunState
// reducer and streams what changed, coalesced into batches; the page only draws.
//
// server → page:
//   hello     the runs shown (one chart each) and the shared clock; sent first and whenever the runs are replaced
//   snapshot  one run's state so far (every bar start and end), so that a late joiner catches up
//   batch     what changed since the last batch, for every run, and the clock
//   source    one chart now shows another run (or a chart is added, at the index after the last); what it
//             shows follows in the next batches, from its start
//   matrix    an experiment's progress over its whole matrix of runs (only `gridsweep experiment` sends it)
//   error     a reply to a bad command
//   parse-error  the inputs being watched do not parse: the page shows this instead of the charts
// page → server: commands {cmd:'pause'|'resume'|'step'|'restart'} and {cmd:'speed', value}
import type { RunSummary } from '../report/run-state.js';

/** 0 input, 1 compute, 2 output. */
export type KindCode = 0 | 1 | 2;
export const KIND_CODES = { input: 0, compute: 1, output: 2 } as const;

/** A bar started: [id, resourceIndex, kind, startS, attempt, work or -1]. */
export type WireStart = [number, number, KindCode, number, number, number];
/** A bar ended: [id, endS, 1 ok | 0 failed]. */
export type WireEnd = [number, number, 0 | 1];

export interface WireResource {
  readonly type: 'link' | 'host';
  readonly cluster: string;
  readonly label: string;
}

/** A batch-managed cluster: its cores are shared by other users' jobs and the sweep's pilots. */
export interface WireBatchCluster {
  readonly cluster: string;
  /** 0 when unknown (a real Slurm cluster: only the sweep's pilots are seen). */
  readonly cores: number;
}

/**
 * A batch cluster's load from time `t` on: [batch cluster index, t, cores used by other users' jobs, cores
 * used by the sweep's pilots, other users' jobs waiting, pilots waiting]. A level at the same time as the
 * cluster's last one replaces it.
 */
export type WireBatchLevel = [number, number, number, number, number, number];

export interface WireSourceInfo {
  readonly name: string;
  readonly heuristic: string;
  readonly taskCount: number;
  /** When a recorded run ends (its makespan); null for a live run. */
  readonly endS: number | null;
  readonly live: boolean;
}

export interface WireClock {
  /** The shared simulated time shown, in seconds. */
  readonly timeS: number;
  /** Simulated seconds per wall second. */
  readonly speed: number;
  readonly paused: boolean;
  /** Every run has been played to its end. */
  readonly finished: boolean;
  /** The latest end among the recorded runs (the common time axis), or null. */
  readonly endS: number | null;
}

export interface WireHost {
  readonly host: string;
  readonly cluster: string;
  readonly state: string;
  /** Periods the host was down: [fromS, toS or null while down]. */
  readonly down: readonly (readonly [number, number | null])[];
}

export interface WireSummary extends Omit<RunSummary, 'hosts'> {
  readonly hosts: readonly WireHost[];
}

export interface WireMatrixProgress {
  readonly total: number;
  /** Runs finished, cached and failed ones included. */
  readonly done: number;
  readonly running: number;
  readonly cached: number;
  readonly failed: number;
  /** Every run is done and the results are written. */
  readonly finished: boolean;
}

export interface SourceUpdate {
  readonly source: number;
  /** Resources first seen in this batch; their indexes follow the ones already sent. */
  readonly resources: readonly WireResource[];
  readonly starts: readonly WireStart[];
  readonly ends: readonly WireEnd[];
  /** Batch clusters first seen in this batch; their indexes follow the ones already sent. */
  readonly batchClusters: readonly WireBatchCluster[];
  readonly batchLevels: readonly WireBatchLevel[];
  readonly summary: WireSummary;
}

export type ServerMessage =
  | { readonly type: 'hello'; readonly generation: number; readonly title: string; readonly sources: readonly WireSourceInfo[]; readonly clock: WireClock }
  | ({ readonly type: 'snapshot'; readonly generation: number } & SourceUpdate)
  | { readonly type: 'batch'; readonly generation: number; readonly clock: WireClock; readonly updates: readonly SourceUpdate[] }
  | { readonly type: 'source'; readonly generation: number; readonly source: number; readonly info: WireSourceInfo }
  | { readonly type: 'matrix'; readonly matrix: WireMatrixProgress }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'parse-error'; readonly message: string };

export type ClientCommand =
  | { readonly cmd: 'pause' }
  | { readonly cmd: 'resume' }
  | { readonly cmd: 'step' }
  | { readonly cmd: 'restart' }
  | { readonly cmd: 'speed'; readonly value: number };

export const MAX_SPEED = 1e9;

/** Checks a message from a page; returns the command, or what is wrong with it. */
export function parseClientCommand(raw: string): ClientCommand | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { error: 'not JSON: send an object such as {"cmd":"pause"}' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: 'expected a JSON object such as {"cmd":"pause"}' };
  const o = parsed as Record<string, unknown>;
  switch (o['cmd']) {
    case 'pause':
    case 'resume':
    case 'step':
    case 'restart':
      return { cmd: o['cmd'] };
    case 'speed': {
      const v = o['value'];
      if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > MAX_SPEED) {
        return { error: `speed takes a value in simulated seconds per wall second, above 0 and at most ${MAX_SPEED}` };
      }
      return { cmd: 'speed', value: v };
    }
    default:
      return { error: `unknown command ${JSON.stringify(o['cmd']) ?? '(none)'}: expected pause, resume, step, restart or speed` };
  }
}
