// Conservative backfilling: every waiting job holds a reservation, made when it arrives behind all earlier
// jobs' reservations and the running jobs' time limits. At each dispatch the jobs are compressed in arrival
// order: each gives its reservation back and takes the earliest slot that fits beside the others — never
// later than the one it gave back, which is still free — and those whose slot is now start. So a job may
// jump ahead only where it delays no other job's reservation.
//
// That compression is the definition; what runs is a cheaper pass with the same result. The availability
// profile lives between dispatches (availability-profile.ts): a job that starts turns its reservation into
// its running hold, the same interval; a job that ends at its limit changes nothing from now on; one that
// ends early gives its cores back from now until its limit; an arrival takes its earliest fit. Why most
// jobs need not be re-placed: when job i was last placed at r, every start t in [then, r) was refused by
// some instant in [t, r) with fewer than its cores free (an instant at or after r lies in i's own slot,
// which was free). If since then no instant before r has gained free cores, every such t is still refused
// and r is still the earliest fit. Free cores are gained only (a) by an early end, (b) by a job moving
// earlier, which gives back the part of its old slot the new one does not cover. So at a dispatch:
// - after an early end, every job is tried (a bounded search for a start before its reservation, its own
//   slot counted free);
// - otherwise, a job is tried if a job behind it in arrival order moved in the previous pass (that freed
//   slot postdates its placement), or a job ahead of it moved in this pass;
// - all others keep their reservation unchanged and start if it is now.
// Trying a job that cannot move is harmless (it finds its reservation again), so these rules need only
// cover every job that might move. `machine.reserve` is told each new reservation and each move (the
// promise only ever moves earlier); restating an unchanged promise at every dispatch would add nothing.
import type { BatchJob } from '../job.js';
import { AvailabilityProfile } from './availability-profile.js';
import type { BatchPolicy, BatchQueue, Machine } from './policy.js';

interface Waiting {
  readonly job: BatchJob;
  /** Arrival number: arrival order. */
  readonly seq: number;
  /** The reservation's start; NaN until the first dispatch after its arrival places it. */
  startS: number;
}

class ConservativeQueue implements BatchQueue {
  /** Waiting jobs in arrival order; those from `firstNew` on have no reservation yet. */
  private waiting: Waiting[] = [];
  private firstNew = 0;
  private seq = 0;
  private profile: AvailabilityProfile | undefined;
  /** The running jobs' time limits and cores as this queue started them, sorted by limit. */
  private heldEndsS: number[] = [];
  private heldCores: number[] = [];
  private busyCores = 0;
  /** The latest arrival number among the jobs that moved in the previous pass (-1: none moved). */
  private lastMoverSeq = -1;
  /** The earliest reservation (Infinity when none). */
  private earliestS = Infinity;

  get length(): number {
    return this.waiting.length;
  }

  submit(job: BatchJob): void {
    this.waiting.push({ job, seq: this.seq++, startS: NaN });
  }

  peek(): BatchJob | undefined {
    return this.waiting[0]?.job;
  }

  dispatch(machine: Machine): void {
    const nowS = machine.nowS;
    if (this.profile === undefined) {
      this.profile = new AvailabilityProfile(nowS, machine.freeCores(), machine.runningEnds());
      this.copyRunning(machine);
    } else {
      this.profile.advanceTo(nowS);
    }
    if (this.earliestS < nowS) throw new Error(`conservative backfilling: a reservation at ${this.earliestS} s passed without a dispatch (now ${nowS} s)`);
    // Cores given back early return until this time at the latest (-Infinity: none came back).
    const gainedUntilS = this.syncRunning(machine, nowS);
    const earlyEnd = gainedUntilS > nowS;
    const profile = this.profile;
    const waiting = this.waiting;
    const mustTry = earlyEnd || this.lastMoverSeq >= 0;
    // Nothing can move and nothing is due: only the new arrivals need a place.
    const from = !mustTry && this.earliestS > nowS ? this.firstNew : 0;
    let kept = from;
    let moved = false;
    let lastMoverSeq = -1;
    let earliestS = from === 0 ? Infinity : this.earliestS;
    for (let i = from; i < waiting.length; i++) {
      const w = waiting[i]!;
      const job = w.job;
      let startS: number;
      if (i >= this.firstNew) {
        startS = profile.earliestFit(job.cores, job.requestedS);
        profile.reserve(startS, job.requestedS, job.cores);
      } else {
        startS = w.startS;
        if (moved || w.seq < this.lastMoverSeq) startS = profile.earliestFitBefore(job.cores, job.requestedS, w.startS);
        else if (earlyEnd) startS = profile.earliestFitBefore(job.cores, job.requestedS, w.startS, gainedUntilS);
        if (startS < w.startS) {
          profile.reserve(w.startS, job.requestedS, -job.cores);
          profile.reserve(startS, job.requestedS, job.cores);
          moved = true;
          lastMoverSeq = w.seq;
        }
      }
      if (startS === nowS) {
        if (job.requestedS > 0) this.hold(nowS + job.requestedS, job.cores);
        machine.start(job);
        continue;
      }
      if (startS !== w.startS) {
        w.startS = startS;
        machine.reserve(job, startS);
      }
      if (startS < earliestS) earliestS = startS;
      waiting[kept++] = w;
    }
    waiting.length = kept;
    this.firstNew = kept;
    this.lastMoverSeq = lastMoverSeq;
    this.earliestS = earliestS;
  }

  /** Records a running hold this queue started (sorted by its end). */
  private hold(endS: number, cores: number): void {
    const ends = this.heldEndsS;
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! <= endS) lo = mid + 1; // after equal limits: start order, as the machine lists them
      else hi = mid;
    }
    ends.splice(lo, 0, endS);
    this.heldCores.splice(lo, 0, cores);
    this.busyCores += cores;
  }

  private copyRunning(machine: Machine): void {
    const running = machine.runningEnds();
    this.heldEndsS = running.map((r) => r.expectedEndS);
    this.heldCores = running.map((r) => r.cores);
    this.busyCores = 0;
    for (const r of running) this.busyCores += r.cores;
  }

  /**
   * Drops the holds that reached their limit; if the machine's busy cores disagree, some jobs ended early:
   * their cores come back to the profile from now until their limit. Returns the latest such limit, or
   * -Infinity if none ended early.
   */
  private syncRunning(machine: Machine, nowS: number): number {
    const ends = this.heldEndsS;
    const cores = this.heldCores;
    let k = 0;
    while (k < ends.length && ends[k]! <= nowS) this.busyCores -= cores[k++]!;
    if (k > 0) {
      ends.splice(0, k);
      cores.splice(0, k);
    }
    if (this.busyCores === machine.totalCores - machine.freeCores()) return -Infinity;
    // The machine lists its running jobs by limit, ties in start order; so do we (hold() puts a new hold
    // after those with the same limit). Its holds that last beyond now are thus a subsequence of ours.
    const running = machine.runningEnds();
    let j = 0;
    while (j < running.length && running[j]!.expectedEndS <= nowS) j++;
    let kept = 0;
    let busy = 0;
    let gainedUntilS = -Infinity;
    for (let i = 0; i < ends.length; i++) {
      const r = running[j];
      if (r !== undefined && r.expectedEndS === ends[i] && r.cores === cores[i]) {
        j++;
        ends[kept] = ends[i]!;
        cores[kept++] = cores[i]!;
        busy += cores[i]!;
      } else {
        this.profile!.give(nowS, ends[i]!, cores[i]!);
        if (ends[i]! > gainedUntilS) gainedUntilS = ends[i]!;
      }
    }
    if (j < running.length) throw new Error('conservative backfilling: the machine runs a job this queue did not start');
    ends.length = kept;
    cores.length = kept;
    this.busyCores = busy;
    return gainedUntilS;
  }
}

export const conservative: BatchPolicy = {
  name: 'conservative',
  help: 'conservative backfilling: every waiting job holds a reservation no later job may delay',
  contiguous: false,
  createQueue: () => new ConservativeQueue(),
};
