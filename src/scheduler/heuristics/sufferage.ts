// H3 Sufferage (Berman et al. 1999, appendix C), host level with global maxima: Suff = Compl on the second-best host
// − Compl on the best host (any other host, in any cluster); the Work with the largest Suff goes to its best
// host. With a single candidate host Suff is 0. Ties: lowest Work id.
import { bestTwoClusters, secondHost, type BestTwo, type SecondHost } from './cluster-ranking.js';
import type { Heuristic } from './heuristic.js';
import { MctEngine, type ScoreRule } from './mct-engine.js';

const clusters: BestTwo = { best: -1, second: -1 };
const second: SecondHost = { complS: 0, cluster: -1 };

export const sufferageRule: ScoreRule = {
  watchesAll: false,
  readsOnlyDifferences: true,
  readsSecondHost: true,
  score(v, out) {
    const c = bestTwoClusters(v, clusters).best;
    if (c < 0) return;
    secondHost(v, clusters, second);
    out.k1 = second.cluster < 0 ? -0 : -(second.complS - v.compl1(c));
    out.k2 = 0;
    out.host = v.host1(c);
    out.watch1 = c;
    out.watch2 = second.cluster;
    out.boundS = second.complS;
  },
};

export const sufferage: Heuristic = {
  name: 'sufferage',
  code: 'H3',
  help: 'Sufferage: the Work losing most if denied its best host (second-best − best completion) goes first',
  plan: (ctx) => new MctEngine(ctx, sufferageRule).run(),
};
