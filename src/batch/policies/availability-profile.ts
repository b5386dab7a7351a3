// Free cores over future time, as steps: free[k] cores from times[k] until times[k + 1] (the last step
// lasts for ever). It lives as long as its queue: running jobs' time limits and waiting jobs' reservations
// are carved out of it as they come, cores given back early are added back, and the past is dropped.
//
// Every query answers about the step function only, never about where its breakpoints happen to lie: the
// earliest fit is the earliest instant t ≥ now with at least `cores` free throughout [t, t + duration)
// (a zero-length job: free at t), and such an instant is always now or a step start where the free cores
// rise. So merging equal neighbouring steps (done after every change) changes no answer.
import type { RunningEnd } from './policy.js';

export class AvailabilityProfile {
  /** Steps 0 … n − 1 in typed arrays grown by doubling (no splice: it allocates on every call). */
  private times: Float64Array;
  private free: Float64Array;
  private n = 1;

  constructor(nowS: number, freeCores: number, running: readonly RunningEnd[] = []) {
    const capacity = Math.max(64, 2 * (running.length + 1));
    this.times = new Float64Array(capacity);
    this.free = new Float64Array(capacity);
    this.times[0] = nowS;
    this.free[0] = freeCores;
    for (const r of running) {
      const last = this.n - 1;
      const cores = this.free[last]! + r.cores;
      if (r.expectedEndS > this.times[last]!) {
        this.times[this.n] = r.expectedEndS;
        this.free[this.n++] = cores;
      } else {
        this.free[last] = cores;
      }
    }
  }

  /** Steps held (for tests and benchmarks). */
  get steps(): number {
    return this.n;
  }

  /** Forgets the time before `nowS` (never earlier than the last call): the first step starts at nowS. */
  advanceTo(nowS: number): void {
    const times = this.times;
    let k = 0;
    while (k + 1 < this.n && times[k + 1]! <= nowS) k++;
    if (k > 0) {
      const free = this.free;
      const n = (this.n -= k);
      for (let m = 0; m < n; m++) {
        times[m] = times[m + k]!;
        free[m] = free[m + k]!;
      }
    }
    times[0] = nowS;
  }

  /** The earliest step start at which `cores` are free for `durationS`. */
  earliestFit(cores: number, durationS: number): number {
    const times = this.times;
    const free = this.free;
    const n = this.n;
    let k = 0;
    while (k < n) {
      if (free[k]! < cores) {
        k++;
        continue;
      }
      const endS = times[k]! + durationS;
      let j = k + 1;
      while (j < n && times[j]! < endS && free[j]! >= cores) j++;
      if (j === n || times[j]! >= endS) return times[k]!;
      k = j + 1;
    }
    throw new Error('AvailabilityProfile: a job larger than the cluster (the workload reader skips those)');
  }

  /**
   * Where a job holding `cores` during [heldS, heldS + durationS) would go if it gave that slot back and
   * took the earliest fit: the earliest start before heldS that fits once its own cores are counted free,
   * else heldS (which still fits). Starts from `searchBeforeS` on, and those whose window ends by
   * `searchAfterS`, are not tried (the caller knows none of them fits). The profile is left unchanged.
   */
  earliestFitBefore(cores: number, durationS: number, heldS: number, searchBeforeS = heldS, searchAfterS = -Infinity): number {
    const times = this.times;
    const free = this.free;
    const n = this.n;
    const beforeS = Math.min(heldS, searchBeforeS);
    // The first step whose window could reach searchAfterS, one step early for rounding's sake.
    let lo = 0;
    // Often the first step's window does (searchAfterS is now): then there is nothing to search.
    let hi = times[0]! + durationS <= searchAfterS ? n : 0;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid]! + durationS <= searchAfterS) lo = mid + 1;
      else hi = mid;
    }
    let k = lo > 0 ? lo - 1 : 0;
    while (k < n && times[k]! < beforeS) {
      if (free[k]! < cores) {
        k++;
        continue;
      }
      // The window [times[k], times[k] + durationS) ends by heldS + durationS; its part from heldS on lies in
      // the job's own slot, which holds its cores (free + cores ≥ cores there): only steps before heldS count.
      const endS = Math.min(times[k]! + durationS, heldS);
      let j = k + 1;
      while (j < n && times[j]! < endS && free[j]! >= cores) j++;
      if (j === n || times[j]! >= endS) return times[k]!;
      k = j + 1;
    }
    return heldS;
  }

  /** Calls `visit` with each step's start and free cores, in time order, while the start is before untilS. */
  forEachStepBefore(untilS: number, visit: (startS: number, freeCores: number) => void): void {
    for (let k = 0; k < this.n && this.times[k]! < untilS; k++) visit(this.times[k]!, this.free[k]!);
  }

  /** Takes `cores` during [startS, startS + durationS) (negative `cores` gives them back). */
  reserve(startS: number, durationS: number, cores: number): void {
    if (durationS > 0) this.add(startS, startS + durationS, -cores);
  }

  /** Gives `cores` back during [fromS, toS) (a job that ended before its time limit). */
  give(fromS: number, toS: number, cores: number): void {
    if (toS > fromS) this.add(fromS, toS, cores);
  }

  private add(fromS: number, toS: number, cores: number): void {
    const from = this.breakAt(fromS);
    const to = this.breakAt(toS);
    const free = this.free;
    for (let k = from; k < to; k++) free[k] = free[k]! + cores;
    this.mergeAt(to);
    this.mergeAt(from);
  }

  /** The index of the step starting at `timeS`, splitting a step if needed (binary search). */
  private breakAt(timeS: number): number {
    const times = this.times;
    let lo = 0;
    let hi = this.n;
    // The last k with times[k] <= timeS (times[0] <= timeS: nothing is reserved in the past).
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (times[mid]! <= timeS) lo = mid;
      else hi = mid;
    }
    if (times[lo] === timeS) return lo;
    if (this.n === times.length) this.grow();
    const at = lo + 1;
    // Shifted by hand: copyWithin's call costs more than moving the few dozen steps a profile holds.
    const t = this.times;
    const f = this.free;
    for (let k = this.n; k > at; k--) {
      t[k] = t[k - 1]!;
      f[k] = f[k - 1]!;
    }
    t[at] = timeS;
    f[at] = f[lo]!;
    this.n++;
    return at;
  }

  /** Removes the breakpoint at index k if the steps on both sides hold the same free cores. */
  private mergeAt(k: number): void {
    const t = this.times;
    const f = this.free;
    if (k > 0 && k < this.n && f[k] === f[k - 1]) {
      const n = --this.n;
      for (let m = k; m < n; m++) {
        t[m] = t[m + 1]!;
        f[m] = f[m + 1]!;
      }
    }
  }

  private grow(): void {
    const capacity = 2 * this.times.length;
    const times = new Float64Array(capacity);
    const free = new Float64Array(capacity);
    times.set(this.times.subarray(0, this.n));
    free.set(this.free.subarray(0, this.n));
    this.times = times;
    this.free = free;
  }
}
