// The study's setting in words, read from the Figure 11 generator parameters (not retyped): the grid's
// clusters and links, and the application's shape and distributions.
import { lawOf, type Distribution } from '../generators/distribution.js';
import type { SeriesSpec } from '../generators/grid.js';
import { FIG11_GRID_PATH, FIG11_GRID_SPEC, KB, fig11ApplicationSpec } from '../generators/fig11.js';

function describeDistribution(given: Distribution, scale = 1, unit = ''): string {
  const n = (x: number): string => `${+(x / scale).toFixed(2)}`;
  const d = lawOf(given);
  switch (d.kind) {
    case 'constant':
      return `${n(d.value)}${unit}`;
    case 'uniform':
      return `U[${n(d.min)}, ${n(d.max)}]${unit}`;
    case 'normal':
      return `N(${n(d.mean)}, ${n(d.stddev)})${unit}`;
  }
}

function describeSeries(s: SeriesSpec, scale: number, unit: string): string {
  return typeof s === 'number' ? `${+(s / scale).toFixed(2)}${unit}` : `${describeDistribution(s.distribution, scale, unit)} (${s.samples} samples)`;
}

/** [label, description] pairs for the report's parameter table. */
export function fig11Setting(sizesKB: readonly number[], seeds: readonly number[]): Array<readonly [string, string]> {
  const app = fig11ApplicationSpec(sizesKB[0] ?? 0);
  const clusters = FIG11_GRID_SPEC.clusters.map((c, i) => {
    const hosts = c.hosts.map((h) => `${h.count} host(s) at ${describeSeries(h.availabilityPct, 1, ' %')} availability`).join(', ');
    return `${c.name ?? `cluster${i + 1}`}: ${hosts}, link ${describeSeries(c.bandwidthBps, KB, ' KB/s')}, latency ${describeSeries(c.latencyMs, 1, ' ms')}`;
  });
  return [
    ['grid', `${FIG11_GRID_PATH} (bundled): ${clusters.join('; ')}`],
    [
      'application',
      `${app.chunks * app.tasksPerChunk} tasks in ${app.chunks} chunks of ${app.tasksPerChunk}; each chunk shares one input file of the swept size; ` +
        `each task also reads ${app.unsharedInputsPerTask} unshared input(s) of ${describeDistribution(app.unsharedInputSizeBytes, KB, ' KB')} ` +
        `and writes one output of ${describeDistribution(app.outputSizeBytes, KB, ' KB')}; run times ${describeDistribution(app.runTimeS, 1, ' s')}; ` +
        (app.runTimeEstimateErrorPct || app.sizeEstimateErrorPct ? `estimates off by up to ${app.runTimeEstimateErrorPct ?? 0} % (run times), ${app.sizeEstimateErrorPct ?? 0} % (sizes)` : 'exact estimates'),
    ],
    ['shared file sizes', sizesKB.map((kb) => `${kb.toLocaleString('en-US')} KB`).join(', ')],
    ['seeds', `${seeds.join(', ')}: each seed draws the application again (generator "fig11") and drives the randomized heuristics; seed ${seeds[0]} gives exactly the bundled apps/fig11 files`],
  ];
}
