// Reading a Work's per-cluster best completion times (ClusterBests) the way the heuristics of seed 001
// appendix C need: the overall best host, the second-best host, the best and second-best clusters, and
// the ordered cluster-level MCTs. Entries with no host or an infinite Compl are not candidates.
import type { ClusterBests } from './mct-engine.js';

function candidate(v: ClusterBests, c: number): boolean {
  return v.host1(c) >= 0 && Number.isFinite(v.compl1(c));
}

/** The cluster holding the Work's best host (its MCT), or -1. */
export function bestCluster(v: ClusterBests): number {
  let best = -1;
  for (let c = 0; c < v.clusterCount; c++) {
    if (!candidate(v, c)) continue;
    if (best < 0 || v.less(v.compl1(c), v.end1(c), v.host1(c), v.compl1(best), v.end1(best), v.host1(best))) best = c;
  }
  return best;
}

/** The best cluster other than `excluded` (cluster-level second best), or -1. */
export function secondCluster(v: ClusterBests, excluded: number): number {
  let best = -1;
  for (let c = 0; c < v.clusterCount; c++) {
    if (c === excluded || !candidate(v, c)) continue;
    if (best < 0 || v.less(v.compl1(c), v.end1(c), v.host1(c), v.compl1(best), v.end1(best), v.host1(best))) best = c;
  }
  return best;
}

/** The second-best host overall, given the best host is the best of cluster `best`. */
export interface SecondHost {
  complS: number;
  /** Its cluster, or -1 when there is no second host. */
  cluster: number;
}

export function secondHost(v: ClusterBests, best: number, out: SecondHost): SecondHost {
  let complS = Infinity;
  let endS = Infinity;
  let host = -1;
  let cluster = -1;
  if (v.host2(best) >= 0 && Number.isFinite(v.compl2(best))) {
    complS = v.compl2(best);
    endS = v.end2(best);
    host = v.host2(best);
    cluster = best;
  }
  for (let c = 0; c < v.clusterCount; c++) {
    if (c === best || !candidate(v, c)) continue;
    if (v.less(v.compl1(c), v.end1(c), v.host1(c), complS, endS, host)) {
      complS = v.compl1(c);
      endS = v.end1(c);
      host = v.host1(c);
      cluster = c;
    }
  }
  out.complS = complS;
  out.cluster = cluster;
  return out;
}

/** Candidate clusters ordered by their best host (cluster-level MCT, increasing). */
export function rankedClusters(v: ClusterBests, out: number[]): number[] {
  out.length = 0;
  for (let c = 0; c < v.clusterCount; c++) {
    if (!candidate(v, c)) continue;
    let k = out.length;
    out.push(c);
    while (k > 0) {
      const prev = out[k - 1]!;
      if (!v.less(v.compl1(c), v.end1(c), v.host1(c), v.compl1(prev), v.end1(prev), v.host1(prev))) break;
      out[k] = prev;
      k--;
    }
    out[k] = c;
  }
  return out;
}
