// Reading a Work's per-cluster best completion times (ClusterBests) the way the heuristics of Berman et al. 1999
// appendix C need: the overall best host, the second-best host, the best and second-best clusters, and
// the ordered cluster-level MCTs. Entries with no host or an infinite Compl are not candidates.
import { firstJumpInto, type Jump } from './first-jump.js';
import type { ClusterBests } from './mct-engine.js';

/** Cluster a's best host ranks before cluster b's, their Compl being equal. */
function tieBefore(v: ClusterBests, a: number, b: number): boolean {
  return v.less(v.compl1(a), v.end1(a), v.host1(a), v.compl1(b), v.end1(b), v.host1(b));
}

/** A Work's best cluster and the best of the others (cluster-level second best); -1 when absent. */
export interface BestTwo {
  best: number;
  second: number;
}

/** The Work's best cluster (holding its best host, its MCT) and the best cluster other than it, in one pass. */
export function bestTwoClusters(v: ClusterBests, out: BestTwo): BestTwo {
  // Reads the Work's MCTs where they lie together, as it runs for every re-score; the compute ends and hosts
  // are read only to break a tie on Compl. A cluster with no host has an infinite Compl.
  // sc is Infinity while there is no second (bc while there is no best), so one comparison passes over a
  // cluster behind the best two, which cannot enter them; of the others, infinite ones are skipped.
  const { mctByWork, clusterCount, work } = v;
  const from = work * clusterCount;
  let best = -1;
  let bc = Infinity;
  let second = -1;
  let sc = Infinity;
  for (let c = 0; c < clusterCount; c++) {
    const cc = mctByWork[from + c]!;
    if (!(cc <= sc) || cc === Infinity || cc === -Infinity) continue;
    if (best < 0 || cc < bc || (cc === bc && tieBefore(v, c, best))) {
      second = best;
      sc = bc;
      best = c;
      bc = cc;
    } else if (second < 0 || cc < sc || (cc === sc && tieBefore(v, c, second))) {
      second = c;
      sc = cc;
    }
  }
  out.best = best;
  out.second = second;
  return out;
}

/** The cluster holding the Work's best host (its MCT), or -1: bestTwoClusters' best, without the second. */
export function bestCluster(v: ClusterBests): number {
  const { mctByWork, clusterCount, work } = v;
  const from = work * clusterCount;
  let best = -1;
  let bc = Infinity;
  for (let c = 0; c < clusterCount; c++) {
    const cc = mctByWork[from + c]!;
    // As in bestTwoClusters: a cluster behind the best is passed over by one comparison.
    if (!(cc <= bc) || cc === Infinity || cc === -Infinity) continue;
    if (best < 0 || cc < bc || (cc === bc && tieBefore(v, c, best))) {
      best = c;
      bc = cc;
    }
  }
  return best;
}

/** The second-best host overall, given the best host is the best of cluster `best`. */
export interface SecondHost {
  complS: number;
  /** Its cluster, or -1 when there is no second host. */
  cluster: number;
}

/**
 * `clusters` as given by bestTwoClusters: the other clusters' best hosts are all behind `clusters.second`'s.
 * Reads the Compls where they lie together; ends and hosts only to break a tie.
 */
export function secondHost(v: ClusterBests, clusters: BestTwo, out: SecondHost): SecondHost {
  const best = clusters.best;
  const other = clusters.second;
  const from = v.work * v.clusterCount;
  let complS = Infinity;
  let cluster = -1;
  // A cluster with no second host has an infinite second Compl.
  const secondInBest = v.mct2ByWork[from + best]!;
  if (Number.isFinite(secondInBest)) {
    complS = secondInBest;
    cluster = best;
  }
  if (other >= 0) {
    const otherS = v.mctByWork[from + other]!;
    if (cluster < 0 || otherS < complS || (otherS === complS && v.less(otherS, v.end1(other), v.host1(other), complS, v.end2(best), v.host2(best)))) {
      complS = otherS;
      cluster = other;
    }
  }
  out.complS = complS;
  out.cluster = cluster;
  return out;
}

let rankOrder = new Int32Array(0);

/** Inserts cluster c into the first `count` ranked clusters (if its MCT is finite); they keep their order. */
function insert(v: ClusterBests, c: number, count: number): void {
  const mct = v.mctByWork[v.work * v.clusterCount + c]!;
  if (!Number.isFinite(mct)) return;
  let k = count;
  while (k > 0) {
    const prevMct = rankedMcts[k - 1]!;
    if (!(mct < prevMct || (mct === prevMct && tieBefore(v, c, rankOrder[k - 1]!)))) break;
    rankOrder[k] = rankOrder[k - 1]!;
    rankedMcts[k] = prevMct;
    k--;
  }
  rankOrder[k] = c;
  rankedMcts[k] = mct;
}
let rankedMcts = new Float64Array(0);
const ranked = { jump: { clustersBefore: 0, heightS: 0 }, bestHost: -1 };

/**
 * The first jump of the Work's ordered cluster-level MCTs (appendix C, Figs. 12–13) and the host achieving
 * its MCT, or undefined when no cluster is a candidate. Shared by Extended Sufferage and Sufferage II. The
 * answer is overwritten by the next call.
 */
export function clusterFirstJump(v: ClusterBests): { readonly jump: Jump; readonly bestHost: number } | undefined {
  if (rankOrder.length < v.clusterCount) {
    rankOrder = new Int32Array(v.clusterCount);
    rankedMcts = new Float64Array(v.clusterCount);
  }
  // The clusters by insertion, each MCT moved along with its cluster (the scan compares against a local
  // copy). The ranking (Compl, end, host free time, host) is a total order, so when only one cluster's cell
  // changed since the Work's last ranking (v.changed), taking it out of that ranking and inserting it again
  // gives the ranking a full sort gives.
  const { mctByWork, clusterCount, work, changed, rankedCount } = v;
  const from = work * clusterCount;
  const kept = rankedCount.length > 0 ? rankedCount[work]! : -1;
  let count = 0;
  if (changed >= 0 && kept >= 0) {
    const order = v.rankOrder;
    for (let t = 0; t < kept; t++) {
      const c = order[from + t]!;
      if (c === changed) continue;
      rankOrder[count] = c;
      rankedMcts[count++] = mctByWork[from + c]!;
    }
    insert(v, changed, count);
    if (Number.isFinite(mctByWork[from + changed]!)) count++;
  } else {
    for (let c = 0; c < clusterCount; c++) {
      if (!Number.isFinite(mctByWork[from + c]!)) continue;
      insert(v, c, count++);
    }
  }
  if (rankedCount.length > 0) {
    rankedCount[work] = count;
    const order = v.rankOrder;
    for (let t = 0; t < count; t++) order[from + t] = rankOrder[t]!;
  }
  if (count === 0) return undefined;
  firstJumpInto(rankedMcts, count, ranked.jump);
  ranked.bestHost = v.host1(rankOrder[0]!);
  return ranked;
}
