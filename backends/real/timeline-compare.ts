// Predicted versus actual: a simulation's timeline against a real run's (makespan, and how far each Work's
// computation started from when the simulation said it would).
import type { WorkId } from '../../src/model/application.js';
import type { HostId } from '../../src/model/grid.js';
import type { PredictionComparison } from '../../src/record/events.js';

type Starts = ReadonlyMap<WorkId, { readonly t: number; readonly host: HostId }>;

function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return 0;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function compareTimelines(
  predicted: { readonly record: string; readonly makespanS: number; readonly starts: Starts },
  actual: { readonly makespanS: number; readonly starts: Starts },
): PredictionComparison {
  const deviations: number[] = [];
  let sameHostWorks = 0;
  for (const [work, p] of predicted.starts) {
    const a = actual.starts.get(work);
    if (!a) continue;
    deviations.push(Math.abs(a.t - p.t));
    if (a.host === p.host) sameHostWorks++;
  }
  deviations.sort((x, y) => x - y);
  return {
    record: predicted.record,
    predictedMakespanS: predicted.makespanS,
    actualMakespanS: actual.makespanS,
    tasksCompared: deviations.length,
    startDeviationMedianS: median(deviations),
    startDeviationMaxS: deviations.at(-1) ?? 0,
    sameHostWorks,
  };
}

export function formatComparison(c: PredictionComparison): string {
  const ratio = c.predictedMakespanS > 0 ? ` (actual/predicted ${(c.actualMakespanS / c.predictedMakespanS).toFixed(2)})` : '';
  return [
    `predicted (${c.record}) vs actual:`,
    `  makespan: predicted ${c.predictedMakespanS.toFixed(2)} s, actual ${c.actualMakespanS.toFixed(2)} s${ratio}`,
    `  task start deviation over ${c.tasksCompared} task(s): median ${c.startDeviationMedianS.toFixed(2)} s, max ${c.startDeviationMaxS.toFixed(2)} s`,
    `  tasks on the predicted host: ${c.sameHostWorks} of ${c.tasksCompared}`,
  ].join('\n');
}
