// Works that differ only by id (same estimated run times, same inputs, same estimated output size: the
// seeds of a sweep without private files) have the same completion times on every host at every step of
// a plan, so they score the same, and the lowest-id one ranks first among them. The engine keeps one set
// of cells per such class and places its Works in id order, one at a time: a plan of n identical Works
// costs what one of a few Works does, not n passes over n Works.
import type { WorkSpec } from '../../model/application.js';
import type { PlanArrays } from './plan-arrays.js';
import { numbersHash, sameNumbers } from './run-time-profiles.js';

/**
 * Per class, the indices of its Works in the given list, in increasing order; classes in order of their
 * first Work. `outputBytes` holds each Work's estimated output size (undefined: it has none). Plain
 * arrays, not typed ones: a plan of Works that all differ makes one class per Work, and as many typed
 * arrays would each carry a buffer of their own.
 */
export function workClasses(works: readonly WorkSpec[], outputBytes: readonly (number | undefined)[], arrays: PlanArrays): number[][] {
  // Works are found again through an open-addressing table of their classes, by a hash of what Compl reads of
  // them (GanttChart: computeEndS, inputSummary, outputDurationS), and compared in full: no string key, no map
  // (a map of thousands of entries would get its backing store straight in the old generation, as garbage
  // after every plan).
  const classes: number[][] = [];
  const size = 2 ** Math.ceil(Math.log2(2 * works.length + 2));
  const table = arrays.int32(size, -1);
  works.forEach((w, i) => {
    let at = numbersHash(w.estRunTimeS, inputsHash(w.inputs) ^ (outputBytes[i] ?? -1)) & (size - 1);
    for (; table[at]! >= 0; at = (at + 1) & (size - 1)) {
      const members = classes[table[at]!]!;
      const first = members[0]!;
      if (outputBytes[first] === outputBytes[i] && sameNumbers(works[first]!.estRunTimeS, w.estRunTimeS) && sameSet(works[first]!.inputs, w.inputs)) {
        members.push(i);
        return;
      }
    }
    table[at] = classes.length;
    classes.push([i]);
  });
  return classes;
}

/** The same for any order and repetition of the inputs. */
function inputsHash(inputs: readonly number[]): number {
  let sum = 0;
  inputs.forEach((f, k) => {
    if (inputs.indexOf(f) === k) sum = (sum + f) | 0;
  });
  return sum;
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  for (const f of a) if (!b.includes(f)) return false;
  for (const f of b) if (!a.includes(f)) return false;
  return true;
}

/** Every Work a class of its own (randomized rules draw among Works, so they keep them apart). */
export function singletonClasses(count: number): number[][] {
  return Array.from({ length: count }, (_, i) => [i]);
}
