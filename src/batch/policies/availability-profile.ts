// Free cores over future time, as steps: free[k] cores from times[k] until times[k + 1] (the last step
// lasts for ever). Built from the running jobs' time limits; reservations are carved out of it.
import type { RunningEnd } from './policy.js';

export class AvailabilityProfile {
  private readonly times: number[];
  private readonly free: number[];

  constructor(nowS: number, freeCores: number, running: readonly RunningEnd[]) {
    this.times = [nowS];
    this.free = [freeCores];
    for (const r of running) {
      const last = this.times.length - 1;
      const cores = this.free[last]! + r.cores;
      if (r.expectedEndS > this.times[last]!) {
        this.times.push(r.expectedEndS);
        this.free.push(cores);
      } else {
        this.free[last] = cores;
      }
    }
  }

  /** The earliest step start at which `cores` are free for `durationS`. */
  earliestFit(cores: number, durationS: number): number {
    let k = 0;
    while (k < this.times.length) {
      if (this.free[k]! < cores) {
        k++;
        continue;
      }
      const endS = this.times[k]! + durationS;
      let j = k + 1;
      while (j < this.times.length && this.times[j]! < endS && this.free[j]! >= cores) j++;
      if (j === this.times.length || this.times[j]! >= endS) return this.times[k]!;
      k = j + 1;
    }
    throw new Error('AvailabilityProfile: a job larger than the cluster (the workload reader skips those)');
  }

  /** Takes `cores` during [startS, startS + durationS). */
  reserve(startS: number, durationS: number, cores: number): void {
    const from = this.breakAt(startS);
    const to = durationS > 0 ? this.breakAt(startS + durationS) : from;
    for (let k = from; k < to; k++) this.free[k] = this.free[k]! - cores;
  }

  /** The index of the step starting at `timeS`, splitting a step if needed. */
  private breakAt(timeS: number): number {
    let k = this.times.length - 1;
    while (this.times[k]! > timeS) k--;
    if (this.times[k] === timeS) return k;
    this.times.splice(k + 1, 0, timeS);
    this.free.splice(k + 1, 0, this.free[k]!);
    return k + 1;
  }
}
