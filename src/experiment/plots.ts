// The charts an experiment draws into its results folder when it ends (as AccaSim's experiment tool does):
// the median makespan against the swept variable (with the lower bound), and the makespan's spread over
// seeds as box plots against each dimension that varies — the swept variable, strategies, grids,
// applications — one box per heuristic. Each box's tooltip gives its median, quartiles, range, and mean ±
// sd; summary.txt holds the same medians and means as a table.
import { join } from 'node:path';
import { makespanBoxPlot, makespanLineChart, variedDimensions, type LoadedResults } from './results-plots.js';
import { writeFileAtomicSync } from '../util/atomic-write.js';

/** Writes the charts; returns the paths written. */
export function writeExperimentPlots(results: LoadedResults, outDir: string): string[] {
  if (results.rows.length === 0) return [];
  const charts: Array<[string, string]> = [];
  const varied = variedDimensions(results.rows);
  if (results.header.sweepVariable !== null && varied.includes('sweep')) charts.push(['makespan-line.svg', makespanLineChart(results)]);
  charts.push(['makespan-box.svg', makespanBoxPlot(results)]);
  for (const by of varied) if (by !== 'sweep') charts.push([`makespan-by-${by}.svg`, makespanBoxPlot(results, { by })]);
  return charts.map(([name, svg]) => {
    const path = join(outDir, name);
    writeFileAtomicSync(path, svg);
    return path;
  });
}
