// A node's CPU scheduler under dynamic coscheduling: round robin with one time slice, or the multilevel
// feedback queue of the Solaris time-sharing class as Zhang and Sivasubramaniam 2004 (section 3.2) model
// it — priority levels, each with its own ready queue; the head of the highest non-empty level runs;
// higher levels get shorter quanta (20 ms at the top to 200 ms at the bottom in Solaris' 60 levels); a
// task that uses up its quantum drops one level and goes to the tail of that level's queue; a task that
// becomes ready again after a block or I/O is boosted to the head of the highest level. Simplified: the
// number of levels and the two end quanta are parameters, the levels between evenly spaced; a newly placed
// task starts at the tail of the highest level; a task made ready at a higher level than the running one
// preempts it at once (Solaris waits for the next clock tick), and the preempted task goes back to the
// head of its level with a full quantum next time. The engine still wakes a node only when a quantum
// expires or a higher-priority task becomes ready. The engine implements it (engine.ts, CpuNode.enqueue);
// this file holds the parameters and the quantum per level.
import type { StrategyParameter } from './strategies/strategy.js';
import type { MlfqConfig, SchedulerConfig } from './strategies/strategy.js';

/** The quantum a task at `level` gets: round robin's slice, or the level's quantum in the feedback queue. */
export function quantumS(cfg: SchedulerConfig, level: number): number {
  const m = cfg.nodeScheduler;
  if (m === undefined) return cfg.sliceS;
  if (m.levels === 1) return m.quantumHighS;
  return m.quantumLowS + ((m.quantumHighS - m.quantumLowS) * level) / (m.levels - 1);
}

export const NODE_SCHEDULER_PARAMETERS: readonly StrategyParameter[] = [
  { name: 'node-scheduler', help: "each node's CPU scheduler: 0 round robin with the slice (rr), 1 multilevel feedback queue (mlfq)", defaultValue: 0, min: 0, max: 1, integer: true, choices: ['rr', 'mlfq'] },
  { name: 'levels', help: 'mlfq: priority levels', defaultValue: 60, min: 1, integer: true },
  { name: 'quantum-high', help: 'mlfq: quantum at the highest level, seconds', defaultValue: 0.02, min: 0, exclusiveMin: true },
  { name: 'quantum-low', help: 'mlfq: quantum at the lowest level, seconds', defaultValue: 0.2, min: 0, exclusiveMin: true },
];

/** The node scheduler from resolved values (undefined: round robin); checks that a context switch fits in every quantum. */
export function nodeSchedulerConfig(strategy: string, v: Readonly<Record<string, number>>): { nodeScheduler?: MlfqConfig } {
  if (v['node-scheduler'] !== 1) return {};
  const m: MlfqConfig = { levels: v['levels']!, quantumHighS: v['quantum-high']!, quantumLowS: v['quantum-low']! };
  const shortest = Math.min(m.quantumHighS, m.levels === 1 ? m.quantumHighS : m.quantumLowS);
  if (v['context-switch']! >= shortest) throw new Error(`strategy ${strategy}: context-switch (${v['context-switch']} s) must be shorter than every quantum (the shortest is ${shortest} s), or no task would ever progress`);
  return { nodeScheduler: m };
}
