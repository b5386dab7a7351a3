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
  /**
   * Steps lo … hi − 1 of typed arrays with room on both sides: a new breakpoint shifts whichever side of it
   * is shorter (no splice: it allocates on every call), and dropping the past only moves lo.
   */
  private times: Float64Array;
  private free: Float64Array;
  private lo: number;
  private hi: number;
  /** Whether every count held is a whole number (then sums and differences of them are exact). */
  private whole: boolean;

  constructor(nowS: number, freeCores: number, running: readonly RunningEnd[] = []) {
    const capacity = Math.max(64, 4 * (running.length + 1));
    this.times = new Float64Array(capacity);
    this.free = new Float64Array(capacity);
    this.lo = this.hi = capacity >> 2;
    const times = this.times;
    const free = this.free;
    times[this.hi] = nowS;
    free[this.hi++] = freeCores;
    this.whole = Number.isInteger(freeCores) && running.every((r) => Number.isInteger(r.cores));
    for (const r of running) {
      const last = this.hi - 1;
      const cores = free[last]! + r.cores;
      if (r.expectedEndS > times[last]!) {
        times[this.hi] = r.expectedEndS;
        free[this.hi++] = cores;
      } else {
        free[last] = cores;
      }
    }
  }

  /** Steps held (for tests and benchmarks). */
  get steps(): number {
    return this.hi - this.lo;
  }

  /** Forgets the time before `nowS` (never earlier than the last call): the first step starts at nowS. */
  advanceTo(nowS: number): void {
    const times = this.times;
    let k = this.lo;
    const last = this.hi - 1;
    while (k < last && times[k + 1]! <= nowS) k++;
    this.lo = k;
    times[k] = nowS;
  }

  /** The earliest step start at which `cores` are free for `durationS`. */
  earliestFit(cores: number, durationS: number): number {
    const times = this.times;
    const free = this.free;
    const n = this.hi;
    let k = this.lo;
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
    const first = this.lo;
    const n = this.hi;
    const beforeS = Math.min(heldS, searchBeforeS);
    // The first step whose window could reach searchAfterS, one step early for rounding's sake.
    let lo = first;
    // Often the first step's window does (searchAfterS is now): then there is nothing to search.
    let hi = times[first]! + durationS <= searchAfterS ? n : first;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid]! + durationS <= searchAfterS) lo = mid + 1;
      else hi = mid;
    }
    let k = lo > first ? lo - 1 : first;
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
    for (let k = this.lo; k < this.hi && this.times[k]! < untilS; k++) visit(this.times[k]!, this.free[k]!);
  }

  /** Takes `cores` during [startS, startS + durationS) (negative `cores` gives them back). */
  reserve(startS: number, durationS: number, cores: number): void {
    if (durationS > 0) this.add(startS, startS + durationS, -cores);
  }

  /**
   * Moves a reservation of `cores` for `durationS` from heldS to an earlier startS: the same as reserve(heldS,
   * durationS, −cores) then reserve(startS, durationS, cores). When the two slots overlap and the counts are
   * whole (so the order of additions cannot change a sum), only the parts that differ are changed. Returns at
   * least the most cores free now in the part of the old slot after the new one's end (−Infinity: none).
   */
  move(heldS: number, startS: number, durationS: number, cores: number): number {
    if (!(durationS > 0)) return -Infinity;
    const heldEndS = heldS + durationS;
    const startEndS = startS + durationS;
    if (startS < heldS && startEndS > heldS && startEndS < heldEndS && this.whole && Number.isInteger(cores)) {
      this.add(startS, heldS, -cores);
      return this.add(startEndS, heldEndS, cores);
    }
    // The slots do not overlap (the part is the old slot), or the new one covers the part, lowering it after.
    const most = this.add(heldS, heldEndS, cores);
    this.add(startS, startEndS, -cores);
    return most;
  }

  /** Gives `cores` back during [fromS, toS) (a job that ended before its time limit). */
  give(fromS: number, toS: number, cores: number): void {
    if (toS > fromS) this.add(fromS, toS, cores);
  }

  /** Adds `cores` to the free cores during [fromS, toS); returns the most free in it after (−Infinity: empty). */
  private add(fromS: number, toS: number, cores: number): number {
    if (!Number.isInteger(cores)) this.whole = false;
    // Held as an offset from lo: a step's offset survives a shift on either side of a later step.
    const fromAt = this.breakAt(fromS, this.lo) - this.lo;
    const to = this.breakAt(toS, this.lo + fromAt);
    const from = this.lo + fromAt;
    const free = this.free;
    let most = -Infinity;
    for (let k = from; k < to; k++) {
      const f = (free[k] = free[k]! + cores);
      if (f > most) most = f;
    }
    this.mergeAt(to);
    this.mergeAt(this.lo + fromAt);
    return most;
  }

  /** The index of the step starting at `timeS`, splitting a step if needed (binary search from index `lo`). */
  private breakAt(timeS: number, lo: number): number {
    const times = this.times;
    let hi = this.hi;
    // The last k with times[k] <= timeS (times[lo] <= timeS: nothing is reserved in the past, nor before lo).
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (times[mid]! <= timeS) lo = mid;
      else hi = mid;
    }
    if (times[lo] === timeS) return lo;
    let at = lo + 1;
    // Shifted by hand: copyWithin's call costs more than moving the few dozen steps a profile holds.
    if (at - this.lo <= this.hi - at ? this.lo === 0 : this.hi === times.length) {
      // No room on the shorter side: recentre (and grow if a quarter of the room is taken).
      const offset = at - this.lo;
      this.recentre();
      at = this.lo + offset;
    }
    const t = this.times;
    const f = this.free;
    if (at - this.lo <= this.hi - at) {
      const first = --this.lo;
      for (let k = first; k < at - 1; k++) {
        t[k] = t[k + 1]!;
        f[k] = f[k + 1]!;
      }
      at--;
      t[at] = timeS;
      f[at] = f[at - 1]!;
    } else {
      for (let k = this.hi; k > at; k--) {
        t[k] = t[k - 1]!;
        f[k] = f[k - 1]!;
      }
      this.hi++;
      t[at] = timeS;
      f[at] = f[at - 1]!;
    }
    return at;
  }

  /** Removes the breakpoint at index k if the steps on both sides hold the same free cores. */
  private mergeAt(k: number): void {
    const t = this.times;
    const f = this.free;
    if (k > this.lo && k < this.hi && f[k] === f[k - 1]) {
      if (k - this.lo <= this.hi - k) {
        const first = this.lo++;
        for (let m = k; m > first; m--) {
          t[m] = t[m - 1]!;
          f[m] = f[m - 1]!;
        }
      } else {
        const n = --this.hi;
        for (let m = k; m < n; m++) {
          t[m] = t[m + 1]!;
          f[m] = f[m + 1]!;
        }
      }
    }
  }

  /** Moves the steps to the middle of the arrays, doubled if they fill more than a quarter of them. */
  private recentre(): void {
    const n = this.hi - this.lo;
    const capacity = 4 * n > this.times.length ? 2 * this.times.length : this.times.length;
    const first = (capacity - n) >> 1;
    if (capacity !== this.times.length) {
      const times = new Float64Array(capacity);
      const free = new Float64Array(capacity);
      times.set(this.times.subarray(this.lo, this.hi), first);
      free.set(this.free.subarray(this.lo, this.hi), first);
      this.times = times;
      this.free = free;
    } else {
      this.times.copyWithin(first, this.lo, this.hi);
      this.free.copyWithin(first, this.lo, this.hi);
    }
    this.lo = first;
    this.hi = first + n;
  }
}
