// What the MctEngine's set-up reads of the Works' specifications alone, kept from one plan to the next: each
// Work's class of identical specifications (same estimated run times, same set of inputs), its run-time
// profile (same estimated run times) and its inputs without repeats. Every plan used to find these again by
// hashing and comparing the specifications of all the Works it considers, a cost repeated every plan for
// every Work still to do; with the index, a plan reads them by Work id.
//
// Exactness: an entry is for one WorkSpec object (specifications are never changed in place, only replaced:
// Beliefs makes new objects), and a plan first checks that each of its Works is the object its entry was
// made from; a Work whose object is new gets its entry made again. Classes and profiles are equivalence
// classes, so a plan's classes are the index's classes restricted to its Works, split by what can change
// between plans (the estimated output size: files' believed sizes change as outputs are observed), and
// numbered in the order of their first Work: exactly what work-classes.ts and run-time-profiles.ts find
// afresh (test/scheduler/work-index.test.ts compares them after random sequences of plans).
import type { WorkSpec } from '../../model/application.js';
import type { PlanArrays } from './plan-arrays.js';
import { numbersHash, sameNumbers } from './run-time-profiles.js';
import { inputsHash, sameSet, type WorkClasses } from './work-classes.js';

export class WorkIndex {
  /** Per Work id, the specification object its entry was made from (undefined: none yet). */
  private readonly specs: (WorkSpec | undefined)[] = [];
  /** Per Work id, its class and its profile (ids of this index, not of a plan). */
  private classOfWork: Int32Array = new Int32Array(0);
  private profileOfWork: Int32Array = new Int32Array(0);
  /**
   * Per Work id, its inputs without repeats, first occurrences in order: inputList[inputStart[id]] up to
   * inputList[inputStart[id] + inputCount[id]]. One flat list (a Work entered again gets a new stretch at its
   * end): a plan reads it in any order without a cache miss per Work.
   */
  private inputStart: Int32Array = new Int32Array(0);
  private inputCount: Int32Array = new Int32Array(0);
  private inputList: Int32Array = new Int32Array(1024);
  private inputEnd = 0;
  /** Per class and per profile, the specification it was made from; found again by hash. */
  private readonly classSpecs: WorkSpec[] = [];
  private readonly classBuckets = new Map<number, number[]>();
  private readonly profileSpecs: WorkSpec[] = [];
  private readonly profileBuckets = new Map<number, number[]>();
  /** Scratch per class and per profile of the index: the plan-local one, valid when its stamp is the plan's. */
  private classStamp: Int32Array = new Int32Array(0);
  private classLocal: Int32Array = new Int32Array(0);
  private profileStamp: Int32Array = new Int32Array(0);
  private profileLocal: Int32Array = new Int32Array(0);
  private stamp = 0;

  /** Makes sure each Work's entry is for this very specification object. */
  refresh(works: readonly WorkSpec[]): void {
    for (let i = 0; i < works.length; i++) {
      const w = works[i]!;
      if (this.specs[w.id] !== w) this.enter(w);
    }
  }

  /** Where Work `id`'s inputs without repeats start in `inputs` (after refresh). */
  inputsStart(id: number): number {
    return this.inputStart[id]!;
  }

  /** How many inputs Work `id` has, without repeats (after refresh). */
  inputsCount(id: number): number {
    return this.inputCount[id]!;
  }

  /** Every Work's inputs without repeats (valid until the next refresh). */
  get inputs(): Int32Array {
    return this.inputList;
  }

  /**
   * The classes of the plan's Works (after refresh): what workClasses(works, outputBytes) returns, from the
   * index's classes split by estimated output size (=== as workClasses compares them: NaN never equal).
   */
  classes(works: readonly WorkSpec[], outputBytes: readonly (number | undefined)[], arrays: PlanArrays): WorkClasses {
    const n = works.length;
    const stamp = this.nextStamp();
    const { classStamp, classLocal, classOfWork } = this;
    const classOf = arrays.int32(n);
    const firstOf = arrays.int32(n);
    /** Per plan class, the next one of the same index class (a different output size), or -1. */
    const sameSpec = arrays.int32(n, -1);
    const start = arrays.int32(n + 1);
    let count = 0;
    for (let i = 0; i < n; i++) {
      const g = classOfWork[works[i]!.id]!;
      const bytes = outputBytes[i];
      let k = classStamp[g] === stamp ? classLocal[g]! : -1;
      let last = -1;
      while (k >= 0 && outputBytes[firstOf[k]!] !== bytes) {
        last = k;
        k = sameSpec[k]!;
      }
      if (k < 0) {
        k = count++;
        firstOf[k] = i;
        if (last >= 0) sameSpec[last] = k;
        else {
          classStamp[g] = stamp;
          classLocal[g] = k;
        }
      }
      classOf[i] = k;
      start[k + 1]!++;
    }
    for (let k = 0; k < count; k++) start[k + 1]! += start[k]!;
    const list = arrays.int32(n);
    const filled = arrays.int32(count);
    for (let i = 0; i < n; i++) {
      const k = classOf[i]!;
      list[start[k]! + filled[k]!++] = i;
    }
    return { count, start: start.subarray(0, count + 1), list };
  }

  /**
   * The run-time profiles of the given Works (after refresh), numbered in the order of their first Work:
   * what runTimeProfiles(works) returns.
   */
  profiles(works: readonly WorkSpec[]): { profileOf: Int32Array; firstWork: Int32Array } {
    const stamp = this.nextStamp();
    const { profileStamp, profileLocal, profileOfWork } = this;
    const profileOf = new Int32Array(works.length);
    const firstWork: number[] = [];
    for (let i = 0; i < works.length; i++) {
      const g = profileOfWork[works[i]!.id]!;
      if (profileStamp[g] !== stamp) {
        profileStamp[g] = stamp;
        profileLocal[g] = firstWork.length;
        firstWork.push(i);
      }
      profileOf[i] = profileLocal[g]!;
    }
    return { profileOf, firstWork: Int32Array.from(firstWork) };
  }

  private nextStamp(): number {
    // Stamps start at 1 (the arrays' 0 means never); after 2^31 − 1 plans, clear and start again.
    if (this.stamp === 0x7fffffff) {
      this.stamp = 0;
      this.classStamp.fill(0);
      this.profileStamp.fill(0);
    }
    return ++this.stamp;
  }

  /** Makes Work w's entry: its class and profile (found by hash, compared in full, or new), its distinct inputs. */
  private enter(w: WorkSpec): void {
    const id = w.id;
    if (id >= this.classOfWork.length) {
      const length = Math.max(id + 1, 2 * this.classOfWork.length, 64);
      this.classOfWork = grown(this.classOfWork, length);
      this.profileOfWork = grown(this.profileOfWork, length);
      this.inputStart = grown(this.inputStart, length);
      this.inputCount = grown(this.inputCount, length);
    }
    this.specs[id] = w;
    const inputs = w.inputs;
    if (this.inputEnd + inputs.length > this.inputList.length) this.inputList = grown(this.inputList, 2 * (this.inputEnd + inputs.length));
    this.inputStart[id] = this.inputEnd;
    for (let k = 0; k < inputs.length; k++) if (inputs.indexOf(inputs[k]!) === k) this.inputList[this.inputEnd++] = inputs[k]!;
    this.inputCount[id] = this.inputEnd - this.inputStart[id]!;

    const profileHash = numbersHash(w.estRunTimeS, 0);
    let profile = find(this.profileBuckets, profileHash, (p) => sameNumbers(this.profileSpecs[p]!.estRunTimeS, w.estRunTimeS));
    if (profile < 0) {
      profile = this.profileSpecs.length;
      this.profileSpecs.push(w);
      add(this.profileBuckets, profileHash, profile);
      if (profile >= this.profileStamp.length) {
        this.profileStamp = grown(this.profileStamp, 2 * profile + 64);
        this.profileLocal = grown(this.profileLocal, 2 * profile + 64);
      }
    }
    this.profileOfWork[id] = profile;

    const classHash = numbersHash(w.estRunTimeS, inputsHash(w.inputs));
    let cls = find(this.classBuckets, classHash, (k) => {
      const first = this.classSpecs[k]!;
      return sameNumbers(first.estRunTimeS, w.estRunTimeS) && sameSet(first.inputs, w.inputs);
    });
    if (cls < 0) {
      cls = this.classSpecs.length;
      this.classSpecs.push(w);
      add(this.classBuckets, classHash, cls);
      if (cls >= this.classStamp.length) {
        this.classStamp = grown(this.classStamp, 2 * cls + 64);
        this.classLocal = grown(this.classLocal, 2 * cls + 64);
      }
    }
    this.classOfWork[id] = cls;
  }
}

function find(buckets: Map<number, number[]>, hash: number, same: (k: number) => boolean): number {
  const bucket = buckets.get(hash);
  if (bucket !== undefined) for (const k of bucket) if (same(k)) return k;
  return -1;
}

function add(buckets: Map<number, number[]>, hash: number, k: number): void {
  const bucket = buckets.get(hash);
  if (bucket === undefined) buckets.set(hash, [k]);
  else bucket.push(k);
}

function grown(array: Int32Array, length: number): Int32Array {
  const copy = new Int32Array(length);
  copy.set(array);
  return copy;
}
