// The "first jump" of a task's ordered cluster-level MCT curve (Berman et al. 1999, appendix C, Figures 12–13), used
// by Extended Sufferage (H4, H8) and Sufferage II (H9).
//
// Given the cluster-level MCTs sorted increasingly m[0] ≤ … ≤ m[k-1], the approximate derivative is
// d[i] = m[i+1] − m[i] (i = 0 … k−2). With μ and σ the mean and population standard deviation of d, the first
// jump is the first i with d[i] > μ + σ; its height d[i] is Suff and the clusters before it number i + 1.
//
// When no gap stands out that way, the appendix leaves the jump undefined. That is always the case with two
// or three clusters (with two gaps, μ + σ is exactly the larger one) and with evenly spaced MCTs. We then
// read §5.6.3's wording, "the difference between the best and second-best cluster groups", with each cluster
// a group of its own and clusters of equal MCT one group: the jump is the FIRST positive gap, i.e. the plain
// cluster-level sufferage of XSufferage. (Taking the largest gap instead, as an earlier version did, scores a
// Work by how much worse the slowest cluster is rather than by where its files are; docs/fig11-analysis.md
// §2.4 measures both.) When every gap is 0 (or there is a single cluster) there is no jump: Suff = 0 and every
// cluster counts as "before".

export interface Jump {
  /** |Cluster(T)|: how many clusters lead to MCTs before the jump. */
  readonly clustersBefore: number;
  /** Height of the jump in seconds (Suff). */
  readonly heightS: number;
}

/** The first jump of the first k values of sortedMctS (all of them by default). */
export function firstJump(sortedMctS: ArrayLike<number>, k = sortedMctS.length): Jump {
  const out = { clustersBefore: 0, heightS: 0 };
  firstJumpInto(sortedMctS, k, out);
  return out;
}

/**
 * firstJump into `out`, without allocating (the engine scores Works millions of times per plan): the same
 * arithmetic in the same order, so the same values.
 */
export function firstJumpInto(sortedMctS: ArrayLike<number>, k: number, out: { clustersBefore: number; heightS: number }): void {
  if (k < 2) {
    out.clustersBefore = k;
    out.heightS = 0;
    return;
  }
  let sum = 0;
  for (let i = 0; i + 1 < k; i++) sum += sortedMctS[i + 1]! - sortedMctS[i]!;
  const mean = sum / (k - 1);
  let sq = 0;
  for (let i = 0; i + 1 < k; i++) {
    const dev = sortedMctS[i + 1]! - sortedMctS[i]! - mean;
    sq += dev * dev;
  }
  const threshold = mean + Math.sqrt(sq / (k - 1));
  let firstPositive = -1;
  for (let i = 0; i + 1 < k; i++) {
    const gap = sortedMctS[i + 1]! - sortedMctS[i]!;
    if (gap > threshold) {
      out.clustersBefore = i + 1;
      out.heightS = gap;
      return;
    }
    // NaN (infinite MCTs) and 0 both fail this test.
    if (firstPositive < 0 && gap > 0) firstPositive = i;
  }
  if (firstPositive < 0) {
    out.clustersBefore = k;
    out.heightS = 0;
    return;
  }
  out.clustersBefore = firstPositive + 1;
  out.heightS = sortedMctS[firstPositive + 1]! - sortedMctS[firstPositive]!;
}
