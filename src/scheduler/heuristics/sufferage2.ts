// H9 Sufferage II (Berman et al. 1999, appendix C, Fig. 13): Works with the fewest clusters before the first jump of
// their ordered cluster-level MCTs go first (least leeway), then the larger jump (Suff), then the lowest
// Work id; the chosen Work goes to its best host.
import { clusterFirstJump } from './cluster-ranking.js';
import type { Heuristic } from './heuristic.js';
import { MctEngine, type ScoreRule } from './mct-engine.js';

export const sufferage2Rule: ScoreRule = {
  watchesAll: true,
  readsOnlyDifferences: true,
  score(v, out) {
    const ranked = clusterFirstJump(v);
    if (!ranked) return;
    out.k1 = ranked.jump.clustersBefore;
    out.k2 = -ranked.jump.heightS;
    out.host = ranked.bestHost;
  },
};

export const sufferage2: Heuristic = {
  name: 'sufferage2',
  code: 'H9',
  help: 'Sufferage II: fewest clusters before the first MCT jump first, then the highest jump',
  plan: (ctx) => new MctEngine(ctx, sufferage2Rule).run(),
};
