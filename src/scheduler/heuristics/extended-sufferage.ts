// H4 Extended Sufferage (seed 001 appendix C, Fig. 12): Suff is the height of the first jump of the ordered
// cluster-level MCTs (see first-jump.ts); the Work with the largest Suff goes to its best host.
// Ties: lowest Work id.
import { rankedClusters } from './cluster-ranking.js';
import { firstJump } from './first-jump.js';
import type { Heuristic } from './heuristic.js';
import { MctEngine, type ScoreRule } from './mct-engine.js';

const order: number[] = [];
const mcts: number[] = [];

export const extendedSufferageRule: ScoreRule = {
  watchesAll: true,
  score(v, out) {
    rankedClusters(v, order);
    if (order.length === 0) return;
    mcts.length = 0;
    for (const c of order) mcts.push(v.compl1(c));
    out.k1 = -firstJump(mcts).heightS;
    out.k2 = 0;
    out.host = v.host1(order[0]!);
  },
};

export const extendedSufferage: Heuristic = {
  name: 'extended-sufferage',
  code: 'H4',
  help: 'Extended sufferage: priority to the Work with the highest first jump in its sorted cluster-level MCTs',
  plan: (ctx) => new MctEngine(ctx, extendedSufferageRule).run(),
};
