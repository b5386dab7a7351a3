// H5 Randomized Min-min (Berman et al. 1999, §5.6.3 "Randomization"): as Min-min, but the Work is drawn uniformly
// (deps.rng) among the Works whose value is within options.randomTolerance of the best (tolerance.ts).
import type { Heuristic } from './heuristic.js';
import { MctEngine, type ScoreRule } from './mct-engine.js';
import { minMinRule } from './minmin.js';
import { earliestCompletionThreshold } from './tolerance.js';

export const randomizedMinMinRule: ScoreRule = { ...minMinRule, threshold: earliestCompletionThreshold };

export const randomizedMinMin: Heuristic = {
  name: 'randomized-minmin',
  code: 'H5',
  help: 'Min-min with the Work drawn at random among those within the tolerance of the best',
  plan: (ctx) => new MctEngine(ctx, randomizedMinMinRule).run(),
};
