// Conservative backfilling: every waiting job holds a reservation, made when it arrives behind all earlier
// jobs' reservations and the running jobs' time limits. At each dispatch the jobs are compressed in arrival
// order: each gives its reservation back and takes the earliest slot that fits beside the others — never
// later than the one it gave back, which is still free — and those whose slot is now start. So a job may
// jump ahead only where it delays no other job's reservation.
//
// That compression is the definition (test/batch/conservative-reference.test.ts keeps it as the reference);
// what runs is a cheaper pass with the same result. The availability profile lives between dispatches
// (availability-profile.ts): a job that starts turns its reservation into its running hold, the same
// interval; a job that ends at its limit changes nothing from now on; one that ends early gives its cores
// back from now until its limit (found by comparing the machine's running jobs with the holds this queue
// started); an arrival takes its earliest fit, after every older job, as in the reference.
//
// Why most jobs need not be re-placed. When job i (c cores) was last placed at r, every start t in
// [then, r) was refused by some instant in [t, r) with fewer than c cores free (an instant at or after r
// lies in i's own slot, which was free). If no such instant has gained cores since, every such t is still
// refused and r is still the earliest fit. Cores are gained only (a) by an early end, on [now, its limit),
// (b) by a job moving earlier, on the part of its old slot its new one does not cover. So i is tried (a
// search for a start before r, its own slot counted free) only if one of those gains since its last
// placement begins before r: an early end at this dispatch; a job behind i in arrival order that moved in
// the previous pass (after i was placed there); a job ahead of i that moved in this pass. The search
// stops at the latest end of those gains (a refused start before it needs a gained instant after it), and
// the instant must have c cores free now, which narrows all three. The previous pass's movers behind i
// count only if some part of theirs held c free when they moved: after that an instant there gained only
// through this pass's movers (counted below) or early ends, which would make it a crossing (next). An
// instant that gained through early ends only (none of the movers' parts above covers it) must have gone
// from below c free cores to c or more at this dispatch: the counts so crossed are listed per dispatch, with
// the first instant each was crossed at; the early ends count for i only if its c was crossed before r, and
// then only from that instant on. This pass's movers ahead of i count only if their parts may hold c free
// now: each bounds the free cores in its part right after it moves, and only a later mover gives cores back
// there.
// All other jobs keep their reservation and start if it is now. Trying a job that cannot move only finds
// its reservation again, so these rules need only cover every job that might move.
//
// Like the plain algorithm, the pass assumes no reservation has passed without a dispatch (none did in any
// trace tried); it checks that and stops with an error rather than compute from one in the past.
// `machine.reserve` is told each new reservation and each move (a promise only moves earlier); restating
// an unchanged promise at every dispatch, as the plain algorithm did, would tell the checker nothing new.
import type { BatchJob } from '../job.js';
import { AvailabilityProfile } from './availability-profile.js';
import type { BatchPolicy, BatchQueue, Machine } from './policy.js';
import { doubled } from '../../util/typed-arrays.js';

class ConservativeQueue implements BatchQueue {
  /**
   * Waiting jobs in arrival order, those from `firstNew` on without a reservation yet; what the pass reads
   * of them sits in typed arrays (a pass visits every waiting job: objects scattered in memory cost a cache
   * miss each). seqs: arrival numbers; startsS: reservations (NaN: none yet).
   */
  private jobs: (BatchJob | undefined)[] = [];
  private n = 0;
  private seqs: Float64Array = new Float64Array(64);
  private startsS: Float64Array = new Float64Array(64);
  private cores: Float64Array = new Float64Array(64);
  private requestsS: Float64Array = new Float64Array(64);
  private firstNew = 0;
  private seq = 0;
  private profile: AvailabilityProfile | undefined;
  /** The running jobs' time limits and cores as this queue started them, sorted by limit: slots heldLo … heldHi − 1. */
  private heldEndsS = new Float64Array(64);
  private heldCores = new Float64Array(64);
  private heldLo = 0;
  private heldHi = 0;
  private busyCores = 0;
  /**
   * The jobs that moved in the previous pass, in arrival order: arrival numbers, and for the movers from
   * the m-th on, the time span holding every part of a slot they gave back (suffix minimum and maximum) and
   * the most cores free in those parts when they moved.
   */
  private lastMovers = new Movers();
  /** The same for the pass under way, each mover's own part and the most free in it when it moved. */
  private movers = new Movers();
  /** The jobs found ended early at this dispatch: limits (ascending) and cores, `gains` of them. */
  private gainEndsS = new Float64Array(64);
  private gainCores = new Float64Array(64);
  private gains = 0;
  /**
   * This dispatch's steps (before the latest limit above) where early ends lifted some counts c from below
   * to at least c free: the step's start, and the counts as low < c ≤ high.
   */
  private liftStartsS = new Float64Array(64);
  private liftLow = new Float64Array(64);
  private liftHigh = new Float64Array(64);
  private lifts = 0;
  /**
   * For a job of c cores: the first instant t (before the latest limit above) where c cores are free now
   * but were not before the early ends gave some back (Infinity: none) — worked out when first asked, valid
   * where crossStamp[c] is the dispatch's stamp.
   */
  private crossS = new Float64Array(0);
  private crossStamp = new Int32Array(0);
  private stamp = 0;
  /** The earliest reservation (Infinity when none). */
  private earliestS = Infinity;

  get length(): number {
    return this.n;
  }

  submit(job: BatchJob): void {
    if (this.n === this.seqs.length) this.grow();
    const i = this.n++;
    this.jobs[i] = job;
    this.seqs[i] = this.seq++;
    this.startsS[i] = NaN;
    this.cores[i] = job.cores;
    this.requestsS[i] = job.requestedS;
  }

  peek(): BatchJob | undefined {
    return this.n > 0 ? this.jobs[0] : undefined;
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
    const lastMovers = this.lastMovers;
    const lastSeqs = lastMovers.seqs;
    const lastCount = lastMovers.n;
    const mustTry = earlyEnd || lastCount > 0;
    let last = 0;
    const crossKnown = earlyEnd && this.markCrossings(machine.totalCores, gainedUntilS);
    const lastGainFree = lastMovers.free;
    const { jobs, seqs, startsS, cores, requestsS, crossS } = this;
    const n = this.n;
    // Nothing can move and nothing is due: only the new arrivals need a place.
    const from = !mustTry && this.earliestS > nowS ? this.firstNew : 0;
    let kept = from;
    // This pass's movers: the span holding the slots' parts they gave back, and at least the most cores free
    // now in those parts (-Infinity: no mover yet).
    let gainFree = -Infinity;
    let gainFromS = Infinity;
    let gainUntilS = -Infinity;
    let earliestS = from === 0 ? Infinity : this.earliestS;
    for (let i = from; i < n; i++) {
      const c = cores[i]!;
      const requestedS = requestsS[i]!;
      const heldS = startsS[i]!;
      let startS: number;
      if (i >= this.firstNew) {
        startS = profile.earliestFit(c, requestedS);
        profile.reserve(startS, requestedS, c);
      } else {
        startS = heldS;
        const seq = seqs[i]!;
        while (last < lastCount && lastSeqs[last]! <= seq) last++;
        // Jobs behind this one moved in the previous pass, after it was placed. An instant in their parts
        // that refused an earlier start and has c cores free now either had c free once the last of them
        // moved, or was lifted to c by an early end (then it is a crossing, counted below), or gained from a
        // mover of this pass (counted below too).
        const behind = last < lastCount && lastGainFree[last]! >= c;
        // The span of the instants that may have gained free cores since this job was placed.
        let fromS = Infinity;
        let untilS = -Infinity;
        if (earlyEnd) {
          // An instant gained only through early ends that refused an earlier start went from below c free
          // cores to c or more: so at or after crossS[c], which must be before heldS.
          if (!crossKnown || !Number.isInteger(c) || c < 1 || c >= crossS.length) {
            fromS = nowS;
            untilS = gainedUntilS;
          } else {
            const crossedS = this.crossedAt(c);
            if (crossedS < heldS) {
              fromS = crossedS;
              untilS = gainedUntilS;
            }
          }
        }
        if (behind) {
          fromS = Math.min(fromS, lastMovers.fromS[last]!);
          untilS = Math.max(untilS, lastMovers.untilS[last]!);
        }
        // Jobs ahead of this one moved in this pass. An instant in their parts that refused an earlier start
        // helps now only with c cores free, and none has more than gainFree: each mover's figure bounds its
        // part right after it moved, and from then on cores come back there only through a later mover,
        // whose figure counts too (early ends were given back before the pass).
        if (gainFree >= c) {
          fromS = Math.min(fromS, gainFromS);
          untilS = Math.max(untilS, gainUntilS);
        }
        // A start t before the reservation becomes possible only through an instant in [t, heldS) that
        // gained cores: so one before heldS, t before untilS, and t + requestedS after fromS.
        if (fromS < heldS) startS = profile.earliestFitBefore(c, requestedS, heldS, untilS, fromS);
        if (startS < heldS && requestedS > 0) {
          const partFree = profile.move(heldS, startS, requestedS, c);
          // Given back: the part of [heldS, heldS + requestedS) after the new slot's end.
          if (partFree > gainFree) gainFree = partFree;
          const partFromS = Math.max(heldS, startS + requestedS);
          const partUntilS = heldS + requestedS;
          gainFromS = Math.min(gainFromS, partFromS);
          gainUntilS = Math.max(gainUntilS, partUntilS);
          this.movers.push(seq, partFromS, partUntilS, partFree);
        }
      }
      const job = jobs[i]!;
      if (startS === nowS) {
        if (requestedS > 0) this.hold(nowS + requestedS, c);
        machine.start(job);
        continue;
      }
      if (startS !== heldS) machine.reserve(job, startS);
      if (startS < earliestS) earliestS = startS;
      if (kept !== i) {
        jobs[kept] = job;
        seqs[kept] = seqs[i]!;
        cores[kept] = c;
        requestsS[kept] = requestedS;
      }
      startsS[kept++] = startS;
    }
    for (let i = kept; i < n; i++) jobs[i] = undefined;
    this.n = kept;
    this.firstNew = kept;
    this.endPass();
    this.earliestS = earliestS;
  }

  private grow(): void {
    this.seqs = doubled(this.seqs);
    this.startsS = doubled(this.startsS);
    this.cores = doubled(this.cores);
    this.requestsS = doubled(this.requestsS);
  }

  /**
   * Lists the steps before untilS where early ends lifted counts: c with free − gained < c ≤ free (gained:
   * the cores given back early that last beyond the step's start, at most). False if some count is not a
   * whole number (then every job is tried).
   */
  private markCrossings(totalCores: number, untilS: number): boolean {
    if (this.crossS.length !== totalCores + 1) {
      this.crossS = new Float64Array(totalCores + 1);
      this.crossStamp = new Int32Array(totalCores + 1);
    }
    this.stamp++;
    const profile = this.profile!;
    if (this.liftStartsS.length < profile.steps) {
      const capacity = 2 * profile.steps;
      this.liftStartsS = new Float64Array(capacity);
      this.liftLow = new Float64Array(capacity);
      this.liftHigh = new Float64Array(capacity);
    }
    const liftStartsS = this.liftStartsS;
    const liftLow = this.liftLow;
    const liftHigh = this.liftHigh;
    const ends = this.gainEndsS;
    const cores = this.gainCores;
    const gains = this.gains;
    let gained = 0;
    for (let g = 0; g < gains; g++) gained += cores[g]!;
    let e = 0;
    let whole = Number.isInteger(gained);
    let m = 0;
    profile.forEachStepBefore(untilS, (startS, freeCores) => {
      while (e < gains && ends[e]! <= startS) gained -= cores[e++]!;
      if (!Number.isInteger(freeCores)) whole = false;
      const low = freeCores - gained;
      const high = Math.min(freeCores, totalCores);
      if (low < high) {
        liftStartsS[m] = startS;
        liftLow[m] = low;
        liftHigh[m++] = high;
      }
    });
    this.lifts = m;
    return whole;
  }

  /** For a job of c cores (a whole number, 1 … totalCores): the first step start where c was lifted, or Infinity. */
  private crossedAt(c: number): number {
    if (this.crossStamp[c] === this.stamp) return this.crossS[c]!;
    let crossedS = Infinity;
    const n = this.lifts;
    for (let m = 0; m < n; m++) {
      if (this.liftLow[m]! < c && c <= this.liftHigh[m]!) {
        crossedS = this.liftStartsS[m]!;
        break;
      }
    }
    this.crossStamp[c] = this.stamp;
    this.crossS[c] = crossedS;
    return crossedS;
  }

  /** This pass's movers become the previous pass's, with suffix spans. */
  private endPass(): void {
    const movers = this.movers;
    movers.toSuffixes();
    this.movers = this.lastMovers;
    this.movers.n = 0;
    this.lastMovers = movers;
  }

  /** Records a running hold this queue started (sorted by its end). */
  private hold(endS: number, cores: number): void {
    if (this.heldHi === this.heldEndsS.length) this.compactHolds();
    const ends = this.heldEndsS;
    const held = this.heldCores;
    let lo = this.heldLo;
    let hi = this.heldHi;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! <= endS) lo = mid + 1; // after equal limits: start order, as the machine lists them
      else hi = mid;
    }
    for (let k = this.heldHi++; k > lo; k--) {
      ends[k] = ends[k - 1]!;
      held[k] = held[k - 1]!;
    }
    ends[lo] = endS;
    held[lo] = cores;
    this.busyCores += cores;
  }

  /** Moves the holds to the front of their arrays, doubled if they are more than half full. */
  private compactHolds(): void {
    const n = this.heldHi - this.heldLo;
    if (2 * n > this.heldEndsS.length) {
      const ends = new Float64Array(2 * this.heldEndsS.length);
      const held = new Float64Array(2 * this.heldEndsS.length);
      ends.set(this.heldEndsS.subarray(this.heldLo, this.heldHi));
      held.set(this.heldCores.subarray(this.heldLo, this.heldHi));
      this.heldEndsS = ends;
      this.heldCores = held;
    } else {
      this.heldEndsS.copyWithin(0, this.heldLo, this.heldHi);
      this.heldCores.copyWithin(0, this.heldLo, this.heldHi);
    }
    this.heldLo = 0;
    this.heldHi = n;
  }

  private copyRunning(machine: Machine): void {
    this.heldLo = this.heldHi = 0;
    this.busyCores = 0;
    for (const r of machine.runningEnds()) {
      if (this.heldHi === this.heldEndsS.length) this.compactHolds();
      this.heldEndsS[this.heldHi] = r.expectedEndS;
      this.heldCores[this.heldHi++] = r.cores;
      this.busyCores += r.cores;
    }
  }

  /**
   * Drops the holds that reached their limit; if the machine's busy cores disagree, some jobs ended early:
   * their cores come back to the profile from now until their limit. Returns the latest such limit, or
   * -Infinity if none ended early.
   */
  private syncRunning(machine: Machine, nowS: number): number {
    const ends = this.heldEndsS;
    const cores = this.heldCores;
    const last = this.heldHi;
    let k = this.heldLo;
    while (k < last && ends[k]! <= nowS) this.busyCores -= cores[k++]!;
    this.heldLo = k;
    const machineBusy = machine.totalCores - machine.freeCores();
    if (this.busyCores === machineBusy) return -Infinity;
    // The machine lists its running jobs by limit, ties in start order; so do we (hold() puts a new hold
    // after those with the same limit). Its holds that last beyond now are thus a subsequence of ours.
    const running = machine.runningEnds();
    let j = 0;
    let missing = this.busyCores - machineBusy;
    while (j < running.length && running[j]!.expectedEndS <= nowS) missing += running[j++]!.cores;
    // With whole counts, once the missing cores are found every later hold is the machine's too.
    const whole = Number.isInteger(missing) && Number.isInteger(this.busyCores);
    let kept = k;
    let busy = 0;
    let gainedUntilS = -Infinity;
    this.gains = 0;
    let i = k;
    for (; i < last && !(whole && missing === 0); i++) {
      const r = running[j];
      if (r !== undefined && r.expectedEndS === ends[i] && r.cores === cores[i]) {
        j++;
        ends[kept] = ends[i]!;
        cores[kept++] = cores[i]!;
        busy += cores[i]!;
      } else {
        this.profile!.give(nowS, ends[i]!, cores[i]!);
        if (ends[i]! > gainedUntilS) gainedUntilS = ends[i]!;
        if (this.gains === this.gainEndsS.length) {
          const capacity = 2 * this.gains;
          const gainEndsS = new Float64Array(capacity);
          const gainCores = new Float64Array(capacity);
          gainEndsS.set(this.gainEndsS);
          gainCores.set(this.gainCores);
          this.gainEndsS = gainEndsS;
          this.gainCores = gainCores;
        }
        this.gainEndsS[this.gains] = ends[i]!;
        this.gainCores[this.gains++] = cores[i]!;
        missing -= cores[i]!;
      }
    }
    if (running.length - j !== last - i) throw new Error('conservative backfilling: the machine runs a job this queue did not start');
    for (; i < last; i++) {
      ends[kept] = ends[i]!;
      cores[kept++] = cores[i]!;
      busy += cores[i]!;
    }
    this.heldHi = kept;
    this.busyCores = busy;
    return gainedUntilS;
  }
}

/**
 * The jobs that moved in one pass, in arrival order: arrival numbers, the part of its old slot each gave
 * back (from, until), and at least the most cores free in that part when it moved. toSuffixes() turns the
 * last three into suffix spans and maxima (over the m-th mover and those after it).
 */
class Movers {
  seqs: Float64Array = new Float64Array(16);
  fromS: Float64Array = new Float64Array(16);
  untilS: Float64Array = new Float64Array(16);
  free: Float64Array = new Float64Array(16);
  n = 0;

  push(seq: number, fromS: number, untilS: number, free: number): void {
    if (this.n === this.seqs.length) {
      this.seqs = doubled(this.seqs);
      this.fromS = doubled(this.fromS);
      this.untilS = doubled(this.untilS);
      this.free = doubled(this.free);
    }
    const m = this.n++;
    this.seqs[m] = seq;
    this.fromS[m] = fromS;
    this.untilS[m] = untilS;
    this.free[m] = free;
  }

  toSuffixes(): void {
    const { fromS, untilS, free } = this;
    for (let m = this.n - 2; m >= 0; m--) {
      if (fromS[m + 1]! < fromS[m]!) fromS[m] = fromS[m + 1]!;
      if (untilS[m + 1]! > untilS[m]!) untilS[m] = untilS[m + 1]!;
      if (free[m + 1]! > free[m]!) free[m] = free[m + 1]!;
    }
  }
}

export const conservative: BatchPolicy = {
  name: 'conservative',
  help: 'conservative backfilling: every waiting job holds a reservation no later job may delay',
  contiguous: false,
  createQueue: () => new ConservativeQueue(),
};
