// H9 Sufferage II (seed 001 appendix C, Fig. 13): Works with the fewest clusters before the first jump of
// their ordered cluster-level MCTs go first (least leeway), then the larger jump (Suff), then the lowest
// Work id; the chosen Work goes to its best host.
import { rankedClusters } from './cluster-ranking.js';
import { firstJump } from './first-jump.js';
import type { Heuristic } from './heuristic.js';
import { MctEngine, type ScoreRule } from './mct-engine.js';

const order: number[] = [];
const mcts: number[] = [];

export const sufferage2Rule: ScoreRule = {
  watchesAll: true,
  score(v, out) {
    rankedClusters(v, order);
    if (order.length === 0) return;
    mcts.length = 0;
    for (const c of order) mcts.push(v.compl1(c));
    const jump = firstJump(mcts);
    out.k1 = jump.clustersBefore;
    out.k2 = -jump.heightS;
    out.host = v.host1(order[0]!);
  },
};

export const sufferage2: Heuristic = {
  name: 'sufferage2',
  code: 'H9',
  help: 'Sufferage II: fewest clusters before the first MCT jump first, then the highest jump',
  plan: (ctx) => new MctEngine(ctx, sufferage2Rule).run(),
};
