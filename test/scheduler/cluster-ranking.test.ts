// The best and second-best clusters of one Work (cluster-ranking.ts) on hand-set cells: ties on Compl go by
// the host ranking (Compl, end, host free time, host order), clusters with no finite Compl are no candidates.
// The reference tests rarely meet a cluster tying the second best with a better end: this checks it directly.
import { describe, expect, it } from 'vitest';
import { bestCluster, bestTwoClusters } from '../../src/scheduler/heuristics/cluster-ranking.js';
import { ClusterBests } from '../../src/scheduler/heuristics/mct-engine.js';
import { GanttChart } from '../../src/scheduler/gantt.js';

/** One Work (stride 1) on clusters with one idle host each (host c on cluster c): its Compls and compute ends. */
function view(compls: number[], ends: number[]): ClusterBests {
  const C = compls.length;
  const clusters = compls.map((_, c) => ({ id: `c${c}`, latencyS: 0, bandwidthBps: 1000 }));
  const hosts = compls.map((_, c) => ({ id: `h${c}`, cluster: c, arch: 0, availability: 1 }));
  const chart = new GanttChart({ nowS: 0, horizonS: 0, clusters, hosts, files: [], usage: new Map() });
  const none = new Float64Array(C).fill(Infinity);
  const hostOf = Int32Array.from(compls, (_, c) => c);
  return new ClusterBests(C, 1, chart, Float64Array.from(compls), none, Float64Array.from(ends), hostOf, none, new Int32Array(C).fill(-1));
}

describe('bestTwoClusters and bestCluster', () => {
  it('a cluster tying the second on Compl takes its place when it ends earlier', () => {
    // Compls 30, 40, 40: cluster 0 is best; clusters 1 and 2 tie at 40 and cluster 2 ends first (36 < 38),
    // so it ranks before cluster 1: the second is cluster 2.
    const v = view([30, 40, 40], [25, 38, 36]);
    expect(bestTwoClusters(v, { best: -1, second: -1 })).toEqual({ best: 0, second: 2 });
    expect(bestCluster(v)).toBe(0);
  });

  it('a cluster tying the best on Compl takes its place when it ends earlier; the former best is second', () => {
    // Compls 40, 50, 40: clusters 0 and 2 tie at 40, cluster 2 ends first (35 < 39).
    const v = view([40, 50, 40], [39, 45, 35]);
    expect(bestTwoClusters(v, { best: -1, second: -1 })).toEqual({ best: 2, second: 0 });
    expect(bestCluster(v)).toBe(2);
  });

  it('three clusters tied on Compl and end: host order (all free at 0) decides, lower first', () => {
    const v = view([40, 40, 40], [30, 30, 30]);
    expect(bestTwoClusters(v, { best: -1, second: -1 })).toEqual({ best: 0, second: 1 });
    expect(bestCluster(v)).toBe(0);
  });

  it('clusters with an infinite or undefined Compl are no candidates', () => {
    const v = view([Infinity, 30, NaN, -Infinity, 35], [Infinity, 20, NaN, -Infinity, 20]);
    expect(bestTwoClusters(v, { best: -1, second: -1 })).toEqual({ best: 1, second: 4 });
    expect(bestCluster(v)).toBe(1);
    const empty = view([Infinity, NaN], [Infinity, NaN]);
    expect(bestTwoClusters(empty, { best: -1, second: -1 })).toEqual({ best: -1, second: -1 });
    expect(bestCluster(empty)).toBe(-1);
  });
});
