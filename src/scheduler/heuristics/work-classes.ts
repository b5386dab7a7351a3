// Works that differ only by id (same estimated run times, same inputs, same estimated output size: the
// seeds of a sweep without private files) have the same completion times on every host at every step of
// a plan, so they score the same, and the lowest-id one ranks first among them. The engine keeps one set
// of cells per such class and places its Works in id order, one at a time: a plan of n identical Works
// costs what one of a few Works does, not n passes over n Works.
import type { WorkSpec } from '../../model/application.js';
import type { PlanArrays } from './plan-arrays.js';
import { numbersHash, sameNumbers } from './run-time-profiles.js';

/** Classes as flat arrays: class k's Works (indices in the given list, increasing) are list[start[k]] up to list[start[k + 1]]. */
export interface WorkClasses {
  readonly count: number;
  readonly start: Int32Array;
  readonly list: Int32Array;
}

/**
 * The classes of the given Works, in order of their first Work. `outputBytes` holds each Work's estimated
 * output size (undefined: it has none). Flat arrays from the plan's arrays: a plan of Works that all differ
 * makes one class per Work, and an array per class lived as long as the plan (promoted, then garbage).
 */
export function workClasses(works: readonly WorkSpec[], outputBytes: readonly (number | undefined)[], arrays: PlanArrays): WorkClasses {
  // Works are found again through an open-addressing table of their classes, by a hash of what Compl reads of
  // them (GanttChart: computeEndS, inputSummary, outputDurationS), and compared in full: no string key, no map
  // (a map of thousands of entries would get its backing store straight in the old generation, as garbage
  // after every plan).
  const n = works.length;
  const size = 2 ** Math.ceil(Math.log2(2 * n + 2));
  const table = arrays.int32(size, -1);
  const classOf = arrays.int32(n);
  const firstOf = arrays.int32(n);
  const start = arrays.int32(n + 1);
  let count = 0;
  works.forEach((w, i) => {
    let at = numbersHash(w.estRunTimeS, inputsHash(w.inputs) ^ (outputBytes[i] ?? -1)) & (size - 1);
    for (; table[at]! >= 0; at = (at + 1) & (size - 1)) {
      const k = table[at]!;
      const first = firstOf[k]!;
      if (outputBytes[first] === outputBytes[i] && sameNumbers(works[first]!.estRunTimeS, w.estRunTimeS) && sameSet(works[first]!.inputs, w.inputs)) {
        classOf[i] = k;
        start[k + 1]!++;
        return;
      }
    }
    table[at] = count;
    firstOf[count] = i;
    classOf[i] = count;
    start[++count]!++;
  });
  return listed(count, start, classOf, arrays);
}

/** Every Work a class of its own (randomized rules draw among Works, so they keep them apart). */
export function singletonClasses(count: number, arrays: PlanArrays): WorkClasses {
  const start = arrays.int32(count + 1);
  const classOf = arrays.int32(count);
  for (let i = 0; i < count; i++) {
    classOf[i] = i;
    start[i + 1] = 1;
  }
  return listed(count, start, classOf, arrays);
}

/** From each class's size (in start[k + 1]) and each Work's class, the classes' Works listed in order. */
function listed(count: number, start: Int32Array, classOf: Int32Array, arrays: PlanArrays): WorkClasses {
  for (let k = 0; k < count; k++) start[k + 1]! += start[k]!;
  const list = arrays.int32(classOf.length);
  const filled = arrays.int32(count);
  for (let i = 0; i < classOf.length; i++) {
    const k = classOf[i]!;
    list[start[k]! + filled[k]!++] = i;
  }
  return { count, start: start.subarray(0, count + 1), list };
}

/** The same for any order and repetition of the inputs. */
export function inputsHash(inputs: readonly number[]): number {
  let sum = 0;
  inputs.forEach((f, k) => {
    if (inputs.indexOf(f) === k) sum = (sum + f) | 0;
  });
  return sum;
}

/** The same files, in any order and repetition. */
export function sameSet(a: readonly number[], b: readonly number[]): boolean {
  for (const f of a) if (!b.includes(f)) return false;
  for (const f of b) if (!a.includes(f)) return false;
  return true;
}
