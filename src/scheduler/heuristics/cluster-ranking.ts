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

/**
 * Inserts cluster c (its MCT finite) into the `count` ranked clusters at order[at …]: it goes after the last
 * one (from the end) it does not rank before; they keep their order. Returns its place.
 */
function insert(v: ClusterBests, mctByWork: Float64Array, from: number, order: Int32Array, at: number, c: number, count: number): number {
  const mct = mctByWork[from + c]!;
  let k = count;
  while (k > 0) {
    const prev = order[at + k - 1]!;
    const prevMct = mctByWork[from + prev]!;
    if (!(mct < prevMct || (mct === prevMct && tieBefore(v, c, prev)))) break;
    order[at + k] = prev;
    k--;
  }
  order[at + k] = c;
  return k;
}

/**
 * Moves cluster `changed` within the Work's kept ranking order[from …], `kept` entries, where it is or is not
 * (not: its MCT was infinite), as taking it out and inserting it again from the end would (insert): the same
 * comparisons, in the same order, so the same ranking, but only the entries between its old and new places
 * move. Returns the new count.
 */
function moveChanged(v: ClusterBests, mctByWork: Float64Array, from: number, order: Int32Array, kept: number, changed: number): number {
  let p = -1;
  for (let t = 0; t < kept; t++) {
    if (order[from + t] === changed) {
      p = t;
      break;
    }
  }
  const mct = mctByWork[from + changed]!;
  if (!Number.isFinite(mct)) {
    if (p < 0) return kept;
    for (let t = p + 1; t < kept; t++) order[from + t - 1] = order[from + t]!;
    return kept - 1;
  }
  // The others, `others` of them, in their kept order; the one at place t of that list lies at order[from + t]
  // before p and order[from + t + 1] from p on. Its new place k among them, from the end as insert finds it.
  const others = p < 0 ? kept : kept - 1;
  let k = others;
  while (k > 0) {
    const prev = order[from + (p >= 0 && k - 1 >= p ? k : k - 1)]!;
    const prevMct = mctByWork[from + prev]!;
    if (!(mct < prevMct || (mct === prevMct && tieBefore(v, changed, prev)))) break;
    k--;
  }
  if (p < 0) {
    for (let t = kept; t > k; t--) order[from + t] = order[from + t - 1]!;
    order[from + k] = changed;
    return kept + 1;
  }
  if (k < p) for (let t = p; t > k; t--) order[from + t] = order[from + t - 1]!;
  else for (let t = p; t < k; t++) order[from + t] = order[from + t + 1]!;
  order[from + k] = changed;
  return kept;
}

let scratchOrder = new Int32Array(0);
let gaps = new Float64Array(0);
let wide = new Float64Array(0);
const ranked = { jump: { clustersBefore: 0, heightS: 0 }, bestHost: -1 };

/**
 * The first jump of the Work's ordered cluster-level MCTs (appendix C, Figs. 12–13) and the host achieving
 * its MCT, or undefined when no cluster is a candidate. Shared by Extended Sufferage and Sufferage II. The
 * answer is overwritten by the next call.
 */
export function clusterFirstJump(v: ClusterBests): { readonly jump: Jump; readonly bestHost: number } | undefined {
  // The clusters by insertion. The ranking (Compl, end, host free time, host) is a total order, so when only
  // one cluster's cell changed since the Work's last ranking (v.changed), taking it out of that ranking and
  // inserting it again gives the ranking a full sort gives; that is done in place (moveChanged).
  const { mctByWork, clusterCount, work, changed, rankedCount } = v;
  const from = work * clusterCount;
  const keeps = rankedCount.length > 0;
  const kept = keeps ? rankedCount[work]! : -1;
  let order: Int32Array;
  let at: number;
  let count = 0;
  if (keeps) {
    order = v.rankOrder;
    at = from;
  } else {
    if (scratchOrder.length < clusterCount) scratchOrder = new Int32Array(clusterCount);
    order = scratchOrder;
    at = 0;
  }
  if (changed >= 0 && kept >= 0) {
    count = moveChanged(v, mctByWork, from, order, kept, changed);
  } else {
    for (let c = 0; c < clusterCount; c++) {
      if (!Number.isFinite(mctByWork[from + c]!)) continue;
      insert(v, mctByWork, from, order, at, c, count++);
    }
  }
  if (keeps) rankedCount[work] = count;
  if (count === 0) return undefined;
  rankedJumpInto(mctByWork, from, order, at, count, ranked.jump);
  ranked.bestHost = v.host1(order[at]!);
  return ranked;
}

/**
 * firstJumpInto of the MCTs mctByWork[from + order[at + t]], t < k: the same float operations in the same
 * order (the gaps computed once, the sum and the deviations from them), so the same values. Up to 33
 * clusters, the gaps above the threshold and the positive ones are marked in bit masks, without a branch
 * per gap (one mispredicted exit per score costs more than the loop); the lowest bit set is the first one.
 */
function rankedJumpInto(mctByWork: Float64Array, from: number, order: Int32Array, at: number, k: number, out: { clustersBefore: number; heightS: number }): void {
  if (k < 2) {
    out.clustersBefore = k;
    out.heightS = 0;
    return;
  }
  if (k > 33) {
    if (wide.length < k) wide = new Float64Array(k);
    for (let t = 0; t < k; t++) wide[t] = mctByWork[from + order[at + t]!]!;
    firstJumpInto(wide, k, out);
    return;
  }
  if (gaps.length < k) gaps = new Float64Array(k);
  const g = gaps;
  let prev = mctByWork[from + order[at]!]!;
  let sum = 0;
  // Bit i: gap i is positive (NaN and 0 are not).
  let positive = 0;
  for (let i = 0; i + 1 < k; i++) {
    const next = mctByWork[from + order[at + i + 1]!]!;
    const gap = next - prev;
    g[i] = gap;
    sum += gap;
    positive |= +(gap > 0) << i;
    prev = next;
  }
  const mean = sum / (k - 1);
  let sq = 0;
  for (let i = 0; i + 1 < k; i++) {
    const dev = g[i]! - mean;
    sq += dev * dev;
  }
  const threshold = mean + Math.sqrt(sq / (k - 1));
  // Bit i: gap i is above the threshold.
  let above = 0;
  for (let i = 0; i + 1 < k; i++) above |= +(g[i]! > threshold) << i;
  const marks = above !== 0 ? above : positive;
  if (marks === 0) {
    out.clustersBefore = k;
    out.heightS = 0;
    return;
  }
  const first = 31 - Math.clz32(marks & -marks);
  out.clustersBefore = first + 1;
  out.heightS = g[first]!;
}
