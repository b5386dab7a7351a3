// The setting of the paper's Figure 11 (Berman et al. 1999, §8): three clusters of identical hosts under different
// loads (4 at 100 %, 6 at 70 %, 12 at 30 % availability), every link a constant 10 KB/s; 400 tasks in 8
// chunks of 50, each chunk sharing one large input, each task with two unshared inputs and one output of
// U[8, 12] KB and a run time of U[90, 110] s; the shared file's size is the swept variable.
import type { Application } from '../model/application.js';
import type { GridDescription } from '../model/grid.js';
import { Rng } from '../util/rng.js';
import { constant, uniform } from './distribution.js';
import { generateMcellApplication, type McellSpec } from './application.js';
import { generateGrid, type GridSpec } from './grid.js';

export const KB = 1024;

/** Shared file sizes swept (KB); the paper names 4800 and 9600 KB among them. */
export const FIG11_SHARED_SIZES_KB: readonly number[] = [100, 200, 400, 800, 1200, 2400, 4800, 9600];

/** The seed the shipped Figure 11 application files were generated with. */
export const FIG11_SEED = 1999;

/** The paper gives no latency; a small constant one. */
export const FIG11_LATENCY_MS = 1;
export const FIG11_BANDWIDTH_BPS = 10 * KB;

export const FIG11_GRID_SPEC: GridSpec = {
  clusters: [
    { name: 'cluster1', hosts: [{ count: 4, availabilityPct: 100 }], bandwidthBps: FIG11_BANDWIDTH_BPS, latencyMs: FIG11_LATENCY_MS },
    { name: 'cluster2', hosts: [{ count: 6, availabilityPct: 70 }], bandwidthBps: FIG11_BANDWIDTH_BPS, latencyMs: FIG11_LATENCY_MS },
    { name: 'cluster3', hosts: [{ count: 12, availabilityPct: 30 }], bandwidthBps: FIG11_BANDWIDTH_BPS, latencyMs: FIG11_LATENCY_MS },
  ],
};

export function fig11ApplicationSpec(sharedFileSizeKB: number): McellSpec {
  return {
    chunks: 8,
    tasksPerChunk: 50,
    sharedFileSizeBytes: constant(sharedFileSizeKB * KB),
    unsharedInputsPerTask: 2,
    unsharedInputSizeBytes: uniform(8 * KB, 12 * KB),
    outputSizeBytes: uniform(8 * KB, 12 * KB),
    runTimeS: uniform(90, 110),
    architectures: 1,
  };
}

/** The Figure 11 grid; constant, so the seed changes nothing (kept for a uniform generator signature). */
export function fig11Grid(seed = FIG11_SEED): GridDescription {
  return generateGrid(FIG11_GRID_SPEC, new Rng(seed));
}

/**
 * The Figure 11 application for one shared file size. The shared size draws nothing from the generator, so
 * every size gives the same tasks, inputs, outputs and run times; only the shared files differ.
 */
export function fig11Application(sharedFileSizeKB: number, seed = FIG11_SEED): Application {
  if (!(sharedFileSizeKB >= 0)) throw new Error(`shared file size must be >= 0 KB, got ${sharedFileSizeKB}`);
  return generateMcellApplication(fig11ApplicationSpec(sharedFileSizeKB), new Rng(seed));
}

/** Shipped file names, relative to the package root. */
export const FIG11_GRID_PATH = 'griddescs/fig11/fig11.grid';
export function fig11ApplicationPath(sharedFileSizeKB: number): string {
  return `apps/fig11/fig11-${sharedFileSizeKB}kb.app`;
}
