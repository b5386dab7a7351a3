// The best and second-best clusters of one Work (cluster-ranking.ts) on hand-set cells: ties on Compl go by
// the host ranking (Compl, end, host free time, host order), clusters with no finite Compl are no candidates.
// The reference tests rarely meet a cluster tying the second best with a better end: this checks it directly.
// clusterFirstJump's kept ranking, moved one changed cluster at a time, against hand-computed rankings and
// jumps, and against a full ranking of the same cells (random cells with ties, 40 clusters past the bit masks).
import { describe, expect, it } from 'vitest';
import { bestCluster, bestTwoClusters, clusterFirstJump } from '../../src/scheduler/heuristics/cluster-ranking.js';
import { firstJump } from '../../src/scheduler/heuristics/first-jump.js';
import { Rng } from '../../src/util/rng.js';
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

/** A view keeping its ranking (as the engine's for Extended Sufferage and Sufferage II), its cells writable. */
function keptView(compls: number[], ends: number[]): { v: ClusterBests; compls: Float64Array; ends: Float64Array } {
  const C = compls.length;
  const clusters = compls.map((_, c) => ({ id: `c${c}`, latencyS: 0, bandwidthBps: 1000 }));
  const hosts = compls.map((_, c) => ({ id: `h${c}`, cluster: c, arch: 0, availability: 1 }));
  const chart = new GanttChart({ nowS: 0, horizonS: 0, clusters, hosts, files: [], usage: new Map() });
  const none = new Float64Array(C).fill(Infinity);
  const c1 = Float64Array.from(compls);
  const e1 = Float64Array.from(ends);
  const v = new ClusterBests(C, 1, chart, c1, none, e1, Int32Array.from(compls, (_, c) => c), none, new Int32Array(C).fill(-1));
  v.rankOrder = new Int32Array(C);
  v.rankedCount = Int32Array.of(-1);
  return { v, compls: c1, ends: e1 };
}

/** Cluster `c`'s cell changed to (compl, end): the Work scored again with only c moved in its ranking. */
function rescoreChanged(v: ClusterBests, c: number): { clustersBefore: number; heightS: number; bestHost: number; order: number[] } | undefined {
  v.changed = c;
  const r = clusterFirstJump(v);
  v.changed = -1;
  if (r === undefined) return undefined;
  return { clustersBefore: r.jump.clustersBefore, heightS: r.jump.heightS, bestHost: r.bestHost, order: [...v.rankOrder.subarray(0, v.rankedCount[0]!)] };
}

describe('clusterFirstJump with a kept ranking', () => {
  it('moves the changed cluster in place: right, tied, out and back in', () => {
    const { v, compls, ends } = keptView([10, 13, 11, 30], [5, 5, 5, 5]);
    // Fresh: 10 (c0), 11 (c2), 13 (c1), 30 (c3); gaps 1, 2, 17: mean 20/3 ≈ 6.67, sd ≈ 7.32 → threshold ≈ 13.98:
    // the third gap, 17, with 3 clusters before it.
    expect(rescoreChanged(v, -1)).toEqual({ clustersBefore: 3, heightS: 17, bestHost: 0, order: [0, 2, 1, 3] });
    // c0 → 12: 11 (c2), 12 (c0), 13 (c1), 30 (c3); gaps 1, 1, 17: mean 19/3, sd ≈ 7.54 → threshold ≈ 13.88: 17.
    compls[0] = 12;
    expect(rescoreChanged(v, 0)).toEqual({ clustersBefore: 3, heightS: 17, bestHost: 2, order: [2, 0, 1, 3] });
    // c3 → 11, tying c2 on Compl with an earlier end (4 < 5): c3 ranks before c2, at the front.
    // 11, 11, 12, 13; gaps 0, 1, 1: mean 2/3, sd ≈ 0.47 → threshold ≈ 1.14, above every gap: the first positive
    // one, the second, with 2 clusters before it.
    compls[3] = 11;
    ends[3] = 4;
    expect(rescoreChanged(v, 3)).toEqual({ clustersBefore: 2, heightS: 1, bestHost: 3, order: [3, 2, 0, 1] });
    // c1 → no host (infinite): it leaves the ranking. 11, 11, 12; gaps 0, 1: mean 0.5, sd 0.5 → threshold 1,
    // which 1 does not exceed: the first positive gap.
    compls[1] = Infinity;
    expect(rescoreChanged(v, 1)).toEqual({ clustersBefore: 2, heightS: 1, bestHost: 3, order: [3, 2, 0] });
    // c1 → 10.5: back in, at the front. 10.5, 11, 11, 12; gaps 0.5, 0, 1: mean 0.5, sd ≈ 0.41 → threshold
    // ≈ 0.91: the third gap, 1.
    compls[1] = 10.5;
    expect(rescoreChanged(v, 1)).toEqual({ clustersBefore: 3, heightS: 1, bestHost: 1, order: [1, 3, 2, 0] });
    // c1 → 11 with the earliest end (3): tied with c3 and c2 on Compl, it still ranks first; c2 → 11 with end
    // 4 ties c3 on Compl and end, so the host order (both free at 0) puts c2 (host 2) before c3 (host 3).
    compls[1] = 11;
    ends[1] = 3;
    expect(rescoreChanged(v, 1)?.order).toEqual([1, 3, 2, 0]);
    ends[2] = 4;
    expect(rescoreChanged(v, 2)).toEqual({ clustersBefore: 3, heightS: 1, bestHost: 1, order: [1, 2, 3, 0] });
  });

  for (const C of [10, 40]) {
    it(`random single-cluster changes (${C} clusters, ties): the ranking and jump a full ranking gives`, () => {
      const rng = new Rng(C);
      const value = (): number => (rng.int(8) === 0 ? Infinity : 100 + rng.int(20 + C));
      const compls = Array.from({ length: C }, value);
      const ends = compls.map(() => rng.int(3));
      const kept = keptView(compls, ends);
      rescoreChanged(kept.v, -1);
      for (let step = 0; step < 3000; step++) {
        const c = rng.int(C);
        kept.compls[c] = value();
        kept.ends[c] = rng.int(3);
        const got = rescoreChanged(kept.v, c);
        // A fresh view of the same cells, ranked from scratch (no kept ranking).
        const fresh = view([...kept.compls], [...kept.ends]);
        const want = clusterFirstJump(fresh);
        const finite = [...kept.compls].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
        if (want === undefined) {
          expect(got).toBeUndefined();
          continue;
        }
        expect(got).toEqual({ clustersBefore: want.jump.clustersBefore, heightS: want.jump.heightS, bestHost: want.bestHost, order: got!.order });
        expect({ clustersBefore: got!.clustersBefore, heightS: got!.heightS }).toEqual(firstJump(finite));
        // The kept order: increasing Compl, then end, then host.
        for (let t = 1; t < got!.order.length; t++) {
          const a = got!.order[t - 1]!;
          const b = got!.order[t]!;
          const before = kept.compls[a]! < kept.compls[b]! || (kept.compls[a] === kept.compls[b] && (kept.ends[a]! < kept.ends[b]! || (kept.ends[a] === kept.ends[b] && a < b)));
          expect(before).toBe(true);
        }
      }
    });
  }
});
