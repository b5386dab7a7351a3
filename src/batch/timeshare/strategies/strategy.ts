// What a time-sharing strategy is: a name, one line of help, its parameters (with defaults), and the
// scheduler configuration they give. The engine implements the mechanisms; a strategy picks them.
// The parameters every strategy shares (MPL, slice, overheads, network) are listed here once.
import type { NetworkModel } from '../interconnect.js';
import { MAX_MPL } from '../../cluster-limits.js';

export interface StrategyParameter {
  readonly name: string;
  readonly help: string;
  readonly defaultValue: number;
  /** Smallest allowed value (inclusive unless exclusiveMin). */
  readonly min: number;
  /** Largest allowed value (inclusive). */
  readonly max?: number;
  readonly exclusiveMin?: boolean;
  readonly integer?: boolean;
  /** A choice among names: the value is the index of the chosen name (e.g. 0 for choices[0]). */
  readonly choices?: readonly string[];
}

/** Everything the engine needs to know about how nodes schedule. */
export interface SchedulerConfig {
  /** gang: a global Ousterhout matrix switches rows on every node together; dynamic: each node on its own. */
  readonly mode: 'gang' | 'dynamic';
  /** Tasks a node may hold (rows of the matrix under gang). */
  readonly mpl: number;
  readonly sliceS: number;
  readonly contextSwitchS: number;
  /** Paid on the receiving node to wake a blocked task, or to reschedule on a message (demand). */
  readonly interruptS: number;
  /** Busy-wait threshold: 0 blocks at once, Infinity spins until descheduled. */
  readonly spinThresholdS: number;
  /** Reschedule on message arrival: a message for a waiting, descheduled task preempts in its favour. */
  readonly demand: boolean;
  /** Periodic boost: every period a spinning task gives way to a ready task with work; Infinity: never. */
  readonly boostPeriodS: number;
  /** Gang: a node whose active-row slot has nothing to run runs a task of another row that has compute to do. */
  readonly alternate: boolean;
  /** Gang: when the head waiting job fits no row, later waiting jobs that fit may start (see gang-backfill.ts). */
  readonly backfill?: boolean;
  /** Gang with backfilling: how many waiting jobs behind the head are considered (default: all). */
  readonly backfillDepth?: number;
  readonly network: NetworkModel;
  /**
   * Dynamic strategies: the nodes' CPU scheduler is a multilevel feedback queue (see node-scheduler.ts);
   * absent: round robin with `sliceS`.
   */
  readonly nodeScheduler?: MlfqConfig;
}

export interface MlfqConfig {
  /** Priority levels, 0 (lowest) to levels − 1 (highest). */
  readonly levels: number;
  /** Quantum at the highest level and at level 0; the levels between are spaced evenly. */
  readonly quantumHighS: number;
  readonly quantumLowS: number;
}

export interface TimeshareStrategy {
  readonly name: string;
  /** One line for --help and the README. */
  readonly help: string;
  readonly parameters: readonly StrategyParameter[];
  /** The configuration for these values (missing ones take their defaults). */
  configure(values?: Readonly<Record<string, number>>): SchedulerConfig;
}

export const COMMON_PARAMETERS: readonly StrategyParameter[] = [
  { name: 'mpl', help: 'multiprogramming level: tasks a node time-shares (rows of the gang matrix)', defaultValue: 3, min: 1, max: MAX_MPL, integer: true },
  { name: 'slice', help: 'time slice, seconds', defaultValue: 0.1, min: 0, exclusiveMin: true },
  { name: 'context-switch', help: 'context switch cost, seconds (taken from the slice it starts)', defaultValue: 0.0002, min: 0 },
  { name: 'interrupt', help: 'interrupt cost per message that wakes or reschedules a task, seconds', defaultValue: 0.00005, min: 0 },
  { name: 'latency', help: 'network latency per message, seconds', defaultValue: 0.00001, min: 0 },
  { name: 'bandwidth', help: 'network bandwidth, bytes per second', defaultValue: 1e8, min: 0, exclusiveMin: true },
  { name: 'dma', help: 'receive DMA per message at the destination NIC (sequential), seconds', defaultValue: 0, min: 0 },
];

/** The values of `parameters` from `values` (defaults for missing ones); throws on unknown or out-of-range ones. */
export function resolveParameters(strategy: string, parameters: readonly StrategyParameter[], values: Readonly<Record<string, number>> = {}): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of Object.keys(values)) {
    if (!parameters.some((p) => p.name === name)) throw new Error(`strategy ${strategy} has no parameter "${name}"; expected one of: ${parameters.map((p) => p.name).join(', ')}`);
  }
  for (const p of parameters) {
    const v = values[p.name] ?? p.defaultValue;
    const low = p.exclusiveMin === true ? v <= p.min : v < p.min;
    if (Number.isNaN(v) || low || (p.max !== undefined && v > p.max) || (p.integer === true && !Number.isInteger(v))) {
      const range = p.max === undefined ? `${p.exclusiveMin === true ? '>' : '>='} ${p.min}` : `from ${p.min} to ${p.max}`;
      throw new Error(`strategy ${strategy}: ${p.name} must be ${p.integer === true ? 'a whole number ' : ''}${range}, got ${v}`);
    }
    out[p.name] = v;
  }
  return out;
}

/** The shared part of a configuration from resolved values; checks that a context switch fits in a slice. */
export function commonConfig(strategy: string, v: Readonly<Record<string, number>>): Omit<SchedulerConfig, 'mode' | 'spinThresholdS' | 'demand' | 'boostPeriodS' | 'alternate'> {
  if (v['context-switch']! >= v['slice']!) throw new Error(`strategy ${strategy}: context-switch (${v['context-switch']} s) must be shorter than slice (${v['slice']} s), or no task would ever progress`);
  return {
    mpl: v['mpl']!,
    sliceS: v['slice']!,
    contextSwitchS: v['context-switch']!,
    interruptS: v['interrupt']!,
    network: { latencyS: v['latency']!, bandwidthBytesPerS: v['bandwidth']!, dmaS: v['dma']! },
  };
}
