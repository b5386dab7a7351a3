// XSufferage: Sufferage on cluster-level minimum completion times. Suff = MCT on the second-best cluster −
// MCT on the best cluster; the Work with the largest Suff goes to its best host. With one candidate
// cluster Suff is 0. Ties: lowest Work id.
import { bestTwoClusters, type BestTwo } from './cluster-ranking.js';
import type { Heuristic } from './heuristic.js';
import { MctEngine, type ScoreRule } from './mct-engine.js';

const clusters: BestTwo = { best: -1, second: -1 };

export const xSufferageRule: ScoreRule = {
  watchesAll: false,
  readsOnlyDifferences: true,
  clusterSufferage: true,
  score(v, out) {
    const { best: c, second: s } = bestTwoClusters(v, clusters);
    if (c < 0) return;
    out.k1 = s < 0 ? -0 : -(v.compl1(s) - v.compl1(c));
    out.k2 = 0;
    out.host = v.host1(c);
    out.watch1 = c;
    out.watch2 = s;
    out.boundS = s < 0 ? Infinity : v.compl1(s);
  },
};

export const xSufferage: Heuristic = {
  name: 'xsufferage',
  code: 'XS',
  help: 'XSufferage: sufferage between the best and second-best cluster-level completion times',
  plan: (ctx) => new MctEngine(ctx, xSufferageRule).run(),
};
