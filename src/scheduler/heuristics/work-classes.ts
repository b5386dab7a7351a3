// Works that differ only by id (same estimated run times, same inputs, same estimated output size: the
// seeds of a sweep without private files) have the same completion times on every host at every step of
// a plan, so they score the same, and the lowest-id one ranks first among them. The engine keeps one set
// of cells per such class and places its Works in id order, one at a time: a plan of n identical Works
// costs what one of a few Works does, not n passes over n Works.
import type { WorkSpec } from '../../model/application.js';

/**
 * Per class, the indices of its Works in the given list, in increasing order; classes in order of their
 * first Work. `outputBytes` gives the estimated size of a Work's outputs (undefined: it has none). Plain
 * arrays, not typed ones: a plan of Works that all differ makes one class per Work, and as many typed
 * arrays would each carry a buffer of their own.
 */
export function workClasses(works: readonly WorkSpec[], outputBytes: (work: WorkSpec) => number | undefined): number[][] {
  const byKey = new Map<string, number[]>();
  works.forEach((w, i) => {
    // What Compl reads of a Work (GanttChart: computeEndS, inputSummary, outputDurationS). Numbers turn into
    // strings exactly, so equal keys mean equal values.
    const key = `${w.estRunTimeS.join(' ')}|${inputSetKey(w.inputs)}|${outputBytes(w)}`;
    const members = byKey.get(key);
    if (members === undefined) byKey.set(key, [i]);
    else members.push(i);
  });
  return [...byKey.values()];
}

/** The distinct inputs in increasing order, comma-separated (most Works read one or two files). */
function inputSetKey(inputs: readonly number[]): string {
  if (inputs.length === 1) return String(inputs[0]);
  if (inputs.length === 2) {
    const [a, b] = inputs as [number, number];
    return a === b ? String(a) : a < b ? `${a},${b}` : `${b},${a}`;
  }
  return [...new Set(inputs)].sort((a, b) => a - b).join(',');
}

/** Every Work a class of its own (randomized rules draw among Works, so they keep them apart). */
export function singletonClasses(count: number): number[][] {
  return Array.from({ length: count }, (_, i) => [i]);
}
