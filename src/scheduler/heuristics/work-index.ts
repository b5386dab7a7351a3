// What the MctEngine's set-up reads of the Works' specifications alone, kept from one plan to the next: each
// Work's class of identical specifications (same estimated run times, same set of inputs), its run-time
// profile (same estimated run times), its inputs without repeats and its outputs; and the files' sizes. Every plan used to find these again by
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
import type { FileSpec, WorkSpec } from '../../model/application.js';
import { FileSizes } from './file-sizes.js';
import type { PlanArrays } from './plan-arrays.js';
import { numbersHash, sameNumbers } from './run-time-profiles.js';
import { inputsHash, sameSet, type WorkClasses } from './work-classes.js';

/** Per Work of a plan, its estimated output size (GanttChart.outputBytes): none[i] is 1 where it has no output. */
export interface OutputSizes {
  readonly bytes: Float64Array;
  readonly none: Uint8Array;
}

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
  /** Per Work id, its outputs as listed (repeats kept): outputList[outputStart[id]] up to outputStart[id] + outputCount[id]. */
  private outputStart: Int32Array = new Int32Array(0);
  private outputCount: Int32Array = new Int32Array(0);
  private outputList: Int32Array = new Int32Array(1024);
  private outputEnd = 0;
  /** The files' estimated sizes, kept between plans (file-sizes.ts). */
  readonly sizes = new FileSizes();
  /**
   * Per Work id, the sum outputBytes found, valid where outputBytesStamp[id] is filesStamp: filesStamp moves
   * on whenever outputBytes is given another files array, or one that is not frozen (its entries could have
   * been replaced since); an entry made again (enter) drops its sum. Both grow with the entries only when
   * outputBytes is called.
   */
  private outputBytesOf: Float64Array = new Float64Array(0);
  private outputBytesStamp: Int32Array = new Int32Array(0);
  private filesSeen: readonly FileSpec[] | undefined;
  private filesStamp = 0;
  /** The ids of the Works of the last refresh, in their order. */
  private planIds: Int32Array = new Int32Array(0);
  /** The index's classes and profiles. */
  private readonly classGroups = new SpecGroups();
  private readonly profileGroups = new SpecGroups();
  private stamp = 0;

  /** Makes sure each Work's entry is for this very specification object. */
  refresh(works: readonly WorkSpec[]): void {
    if (this.planIds.length < works.length) this.planIds = new Int32Array(Math.max(works.length, 2 * this.planIds.length));
    const planIds = this.planIds;
    for (let i = 0; i < works.length; i++) {
      const w = works[i]!;
      planIds[i] = w.id;
      if (this.specs[w.id] !== w) this.enter(w);
    }
  }

  /** The ids of the Works given to the last refresh, in their order (the first works.length entries). */
  get ids(): Int32Array {
    return this.planIds;
  }

  /**
   * GanttChart.outputBytes of each of the last refresh's Works (count of them), from the index's lists and the
   * files' sizes kept between plans: the same sums, added in the same order, without reading the Works. In
   * typed arrays (a number in a plain array is an object of its own): `none` is 1 where outputBytes is
   * undefined (no output), else `bytes` holds it.
   */
  outputBytes(count: number, files: readonly FileSpec[], arrays: PlanArrays): OutputSizes {
    // A frozen array handed again holds the same FileSpec objects (Beliefs.planFiles), and those are never
    // changed in place: the sums found with it still hold, without reading the files again.
    if (files !== this.filesSeen || !Object.isFrozen(files)) this.nextFilesStamp(files);
    // Made at the first call (a plan that needs no output sizes, the work queue's, leaves them out: 12 B per Work).
    if (this.outputBytesStamp.length < this.outputCount.length) {
      this.outputBytesOf = grown(this.outputBytesOf, this.outputCount.length);
      this.outputBytesStamp = grown(this.outputBytesStamp, this.outputCount.length);
    }
    const { planIds, outputStart, outputCount, outputList, sizes, outputBytesOf, outputBytesStamp, filesStamp } = this;
    const bytesOf = arrays.float64(count);
    const none = arrays.uint8(count);
    for (let i = 0; i < count; i++) {
      const id = planIds[i]!;
      const outputs = outputCount[id]!;
      if (outputs === 0) {
        none[i] = 1;
        continue;
      }
      if (outputBytesStamp[id] === filesStamp) {
        bytesOf[i] = outputBytesOf[id]!;
        continue;
      }
      const start = outputStart[id]!;
      let bytes = 0;
      for (let k = start; k < start + outputs; k++) bytes += sizes.estSizeBytes(files, outputList[k]!);
      bytesOf[i] = bytes;
      outputBytesOf[id] = bytes;
      outputBytesStamp[id] = filesStamp;
    }
    return { bytes: bytesOf, none };
  }

  private nextFilesStamp(files: readonly FileSpec[]): void {
    this.filesSeen = files;
    // Stamps start at 1 (0: no sum); after 2^31 − 1 arrays, clear and start again.
    if (this.filesStamp === 0x7fffffff) {
      this.filesStamp = 0;
      this.outputBytesStamp.fill(0);
    }
    this.filesStamp++;
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
   * The classes of the plan's Works (the Works of the last refresh, read by their ids from it): what workClasses(works, outputBytes) returns, from the
   * index's classes split by estimated output size (=== as workClasses compares them: NaN never equal).
   */
  classes(works: readonly WorkSpec[], outputBytes: readonly (number | undefined)[], arrays: PlanArrays): WorkClasses {
    const none = Uint8Array.from(outputBytes, (bytes) => (bytes === undefined ? 1 : 0));
    return this.planClasses(works.length, { bytes: Float64Array.from(outputBytes, (bytes) => bytes ?? 0), none }, arrays);
  }

  /** classes, for the first n Works of the last refresh, from their output sizes (outputBytes), without reading their objects. */
  planClasses(n: number, outputSizes: OutputSizes, arrays: PlanArrays): WorkClasses {
    const ids = this.planIds;
    const { bytes: bytesOf, none } = outputSizes;
    const stamp = this.nextStamp();
    const { stamp: classStamp, local: classLocal } = this.classGroups;
    const classOfWork = this.classOfWork;
    const classOf = arrays.int32(n);
    const firstOf = arrays.int32(n);
    /** Per plan class, the next one of the same index class (a different output size), or -1. */
    const sameSpec = arrays.int32(n, -1);
    const start = arrays.int32(n + 1);
    let count = 0;
    for (let i = 0; i < n; i++) {
      const g = classOfWork[ids[i]!]!;
      const bytes = bytesOf[i]!;
      const noOutput = none[i]!;
      let k = classStamp[g] === stamp ? classLocal[g]! : -1;
      let last = -1;
      // The same output size as workClasses compares them: both none, or both some and === (NaN never equal).
      while (k >= 0 && (none[firstOf[k]!] !== noOutput || (noOutput === 0 && bytesOf[firstOf[k]!] !== bytes))) {
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
    return this.profilesOf(Int32Array.from(works, (w) => w.id));
  }

  /** profiles, for the Works of the given ids (refreshed), without reading their objects. */
  profilesOf(ids: Int32Array): { profileOf: Int32Array; firstWork: Int32Array } {
    const stamp = this.nextStamp();
    const { stamp: profileStamp, local: profileLocal } = this.profileGroups;
    const profileOfWork = this.profileOfWork;
    const profileOf = new Int32Array(ids.length);
    const firstWork: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      const g = profileOfWork[ids[i]!]!;
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
      this.classGroups.stamp.fill(0);
      this.profileGroups.stamp.fill(0);
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
      this.outputStart = grown(this.outputStart, length);
      this.outputCount = grown(this.outputCount, length);
    }
    if (id < this.outputBytesStamp.length) this.outputBytesStamp[id] = 0;
    this.specs[id] = w;
    const inputs = w.inputs;
    if (this.inputEnd + inputs.length > this.inputList.length) this.inputList = grown(this.inputList, 2 * (this.inputEnd + inputs.length));
    this.inputStart[id] = this.inputEnd;
    for (let k = 0; k < inputs.length; k++) if (inputs.indexOf(inputs[k]!) === k) this.inputList[this.inputEnd++] = inputs[k]!;
    this.inputCount[id] = this.inputEnd - this.inputStart[id]!;
    const outputs = w.outputs;
    if (this.outputEnd + outputs.length > this.outputList.length) this.outputList = grown(this.outputList, 2 * (this.outputEnd + outputs.length));
    this.outputStart[id] = this.outputEnd;
    for (let k = 0; k < outputs.length; k++) this.outputList[this.outputEnd++] = outputs[k]!;
    this.outputCount[id] = outputs.length;

    this.profileOfWork[id] = this.profileGroups.groupOf(w, numbersHash(w.estRunTimeS, 0), (first) => sameNumbers(first.estRunTimeS, w.estRunTimeS));
    this.classOfWork[id] = this.classGroups.groupOf(
      w,
      numbersHash(w.estRunTimeS, inputsHash(w.inputs)),
      (first) => sameNumbers(first.estRunTimeS, w.estRunTimeS) && sameSet(first.inputs, w.inputs),
    );
  }
}

/**
 * Groups of equivalent specifications (classes, or profiles), each known by the first specification met,
 * found again by hash; with, per group, a plan's scratch: `local`, valid where `stamp` holds the plan's.
 */
class SpecGroups {
  private readonly firstSpecs: WorkSpec[] = [];
  private readonly buckets = new Map<number, number[]>();
  stamp: Int32Array = new Int32Array(0);
  local: Int32Array = new Int32Array(0);

  /** The group of `w` (whose hash is `hash`): the first whose first specification is `same`, or a new one. */
  groupOf(w: WorkSpec, hash: number, same: (first: WorkSpec) => boolean): number {
    const bucket = this.buckets.get(hash);
    if (bucket !== undefined) for (const g of bucket) if (same(this.firstSpecs[g]!)) return g;
    const g = this.firstSpecs.length;
    this.firstSpecs.push(w);
    if (bucket === undefined) this.buckets.set(hash, [g]);
    else bucket.push(g);
    if (g >= this.stamp.length) {
      this.stamp = grown(this.stamp, 2 * g + 64);
      this.local = grown(this.local, 2 * g + 64);
    }
    return g;
  }
}

function grown(array: Int32Array, length: number): Int32Array;
function grown(array: Float64Array, length: number): Float64Array;
function grown(array: Int32Array | Float64Array, length: number): Int32Array | Float64Array {
  const copy = array instanceof Float64Array ? new Float64Array(length) : new Int32Array(length);
  copy.set(array);
  return copy;
}
