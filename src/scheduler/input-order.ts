// The order in which a Work's missing inputs go on a link (Berman et al. 1999, §5.6.4): distinct files, the
// most used first (usage: the number of not-started Works reading the file), then by increasing file id.
// Used when a host takes a Work itself (the scheduler) and when a plan places one (the Gantt chart).
import type { FileId } from '../model/application.js';

/** The Work's inputs without repeats, by decreasing usage then increasing id; one or two without a Set or a sort. */
export function byDecreasingUsage(inputs: readonly FileId[], usage: ReadonlyMap<FileId, number>): readonly FileId[] {
  if (inputs.length <= 1) return inputs;
  if (inputs.length === 2) {
    const a = inputs[0]!;
    const b = inputs[1]!;
    if (a === b) return [a];
    const usageA = usage.get(a) ?? 0;
    const usageB = usage.get(b) ?? 0;
    return usageA > usageB || (usageA === usageB && a < b) ? [a, b] : [b, a];
  }
  return [...new Set(inputs)].sort((a, b) => (usage.get(b) ?? 0) - (usage.get(a) ?? 0) || a - b);
}
