// H7 Randomized Sufferage (Berman et al. 1999, §5.6.3 "Randomization"): as Sufferage, but the Work is drawn uniformly
// (deps.rng) among the Works whose value is within options.randomTolerance of the best (tolerance.ts).
import type { Heuristic } from './heuristic.js';
import { MctEngine, type ScoreRule } from './mct-engine.js';
import { sufferageRule } from './sufferage.js';
import { largestSufferageThreshold } from './tolerance.js';

export const randomizedSufferageRule: ScoreRule = { ...sufferageRule, threshold: largestSufferageThreshold };

export const randomizedSufferage: Heuristic = {
  name: 'randomized-sufferage',
  code: 'H7',
  help: 'Sufferage with the Work drawn at random among those within the tolerance of the best',
  plan: (ctx) => new MctEngine(ctx, randomizedSufferageRule).run(),
};
