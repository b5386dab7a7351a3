// H8 Randomized Extended sufferage (Berman et al. 1999, §5.6.3 "Randomization"): as Extended sufferage, but the Work is drawn uniformly
// (deps.rng) among the Works whose value is within options.randomTolerance of the best (tolerance.ts).
import type { Heuristic } from './heuristic.js';
import { MctEngine, type ScoreRule } from './mct-engine.js';
import { extendedSufferageRule } from './extended-sufferage.js';
import { largestSufferageThreshold } from './tolerance.js';

export const randomizedExtendedSufferageRule: ScoreRule = { ...extendedSufferageRule, threshold: largestSufferageThreshold };

export const randomizedExtendedSufferage: Heuristic = {
  name: 'randomized-extended-sufferage',
  code: 'H8',
  help: 'Extended sufferage with the Work drawn at random among those within the tolerance of the best',
  plan: (ctx) => new MctEngine(ctx, randomizedExtendedSufferageRule).run(),
};
