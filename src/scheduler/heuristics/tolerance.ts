// Candidate thresholds of the randomized heuristics (H5–H8, Berman et al. 1999, §5.6.3 "Randomization"): a Work is a
// candidate when its value is within `tolerance` (relative) of the best one. Completion times are compared
// as durations from now (an absolute time would make 5 % grow with the age of the run).
//
// Rules rank by k1 increasing, so each function returns the largest k1 still accepted.

/** k1 = Compl (Min-min): Compl − now ≤ (best − now)·(1 + tol). */
export function earliestCompletionThreshold(bestK1: number, nowS: number, tolerance: number): number {
  return nowS + (bestK1 - nowS) * (1 + tolerance);
}

/** k1 = −Compl (Max-min): Compl − now ≥ (best − now)·(1 − tol). */
export function latestCompletionThreshold(bestK1: number, nowS: number, tolerance: number): number {
  return -(nowS + (-bestK1 - nowS) * (1 - tolerance));
}

/** k1 = −Suff (sufferage family): Suff ≥ best·(1 − tol). */
export function largestSufferageThreshold(bestK1: number, _nowS: number, tolerance: number): number {
  return bestK1 * (1 - tolerance);
}
