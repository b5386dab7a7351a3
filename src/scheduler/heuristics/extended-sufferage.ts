// H4 Extended Sufferage (Berman et al. 1999, appendix C, Fig. 12): Suff is the height of the first jump of the ordered
// cluster-level MCTs (see first-jump.ts); the Work with the largest Suff goes to its best host.
// Ties: lowest Work id.
import { clusterFirstJump } from './cluster-ranking.js';
import type { Heuristic } from './heuristic.js';
import { MctEngine, type ScoreRule } from './mct-engine.js';

export const extendedSufferageRule: ScoreRule = {
  watchesAll: true,
  readsOnlyDifferences: true,
  score(v, out) {
    const ranked = clusterFirstJump(v);
    if (!ranked) return;
    out.k1 = -ranked.jump.heightS;
    out.k2 = 0;
    out.host = ranked.bestHost;
  },
};

export const extendedSufferage: Heuristic = {
  name: 'extended-sufferage',
  code: 'H4',
  help: 'Extended sufferage: priority to the Work with the highest first jump in its sorted cluster-level MCTs',
  plan: (ctx) => new MctEngine(ctx, extendedSufferageRule).run(),
};
