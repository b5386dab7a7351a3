// H2 Max-min (Berman et al. 1999, appendix C): each Work's MCT over all hosts; the Work with the LARGEST MCT goes to
// the host achieving it. Ties: lowest Work id.
import { bestCluster } from './cluster-ranking.js';
import type { Heuristic } from './heuristic.js';
import { MctEngine, type ScoreRule } from './mct-engine.js';

export const maxMinRule: ScoreRule = {
  watchesAll: false,
  keyIsMinusCompletion: true,
  score(v, out) {
    const c = bestCluster(v);
    if (c < 0) return;
    out.k1 = -v.compl1(c);
    out.k2 = 0;
    out.host = v.host1(c);
    out.watch1 = c;
    out.boundS = v.compl1(c);
  },
};

export const maxMin: Heuristic = {
  name: 'maxmin',
  code: 'H2',
  help: 'Max-min: the Work with the largest minimum completion time goes to the host achieving it',
  plan: (ctx) => new MctEngine(ctx, maxMinRule).run(),
};
