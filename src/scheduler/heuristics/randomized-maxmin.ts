// H6 Randomized Max-min (Berman et al. 1999, §5.6.3 "Randomization"): as Max-min, but the Work is drawn uniformly
// (deps.rng) among the Works whose value is within options.randomTolerance of the best (tolerance.ts).
import type { Heuristic } from './heuristic.js';
import { MctEngine, type ScoreRule } from './mct-engine.js';
import { maxMinRule } from './maxmin.js';
import { latestCompletionThreshold } from './tolerance.js';

export const randomizedMaxMinRule: ScoreRule = { ...maxMinRule, threshold: latestCompletionThreshold };

export const randomizedMaxMin: Heuristic = {
  name: 'randomized-maxmin',
  code: 'H6',
  help: 'Max-min with the Work drawn at random among those within the tolerance of the best',
  plan: (ctx) => new MctEngine(ctx, randomizedMaxMinRule).run(),
};
