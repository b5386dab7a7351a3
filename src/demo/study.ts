// The demo's study: the Figure 11 setting of Berman et al. 1999, §8 (the bundled grid, the Figure 11 application for
// each shared file size), every registered heuristic, several seeds. It is written as an ordinary
// experiment specification, so that the experiment tool runs it (cache included) and a user can rerun or
// extend it with `gridsweep experiment OUT/study.json`.
//
// What a seed changes: the application is regenerated per seed (run times and unshared file sizes are
// drawn again), and the same seed drives the scheduler's randomized heuristics. The first seed is the one
// the shipped apps/fig11/*.app files were generated with, so seed FIG11_SEED is exactly the bundled files.
import { join, relative, sep } from 'node:path';
import { FIG11_GRID_PATH, FIG11_SEED, FIG11_SHARED_SIZES_KB } from '../generators/fig11.js';
import type { ExperimentSpec } from '../experiment/spec.js';
import { PACKAGE_ROOT } from '../util/package-root.js';

export const SWEEP_VARIABLE = 'sharedFileSizeKB';

export interface StudySize {
  /** Shared file sizes swept (KB), ascending. */
  readonly sizesKB: readonly number[];
  /** How many seeds, starting at FIG11_SEED. */
  readonly seedCount: number;
}

/**
 * The default study: 11 heuristics × 5 sizes × 3 seeds = 165 simulations, about 35 s of CPU in all
 * (`time node dist/src/cli/main.js demo`), so under a minute of wall time on 2 cores even with one of them
 * busy; all 8 shipped sizes (264 simulations, about 56 s of CPU) would not leave that margin. The sizes
 * span the shipped range, denser where the heuristics separate; `--sizes` and `--seeds` widen the study.
 */
export const DEFAULT_STUDY: StudySize = { sizesKB: [100, 1200, 2400, 4800, 9600], seedCount: 3 };

/** `--quick`: the smallest study that still shows the trend and a spread (for tests and a first look). */
export const QUICK_STUDY: StudySize = { sizesKB: [400, 9600], seedCount: 2 };

/** The sizes the shipped application files exist for (apps/fig11). */
export const SHIPPED_SIZES_KB: readonly number[] = FIG11_SHARED_SIZES_KB;

export function studySeeds(seedCount: number): number[] {
  return Array.from({ length: seedCount }, (_, i) => FIG11_SEED + i);
}

/** A path for the spec file: relative to the spec's folder, with forward slashes. */
function portablePath(fromDir: string, to: string): string {
  return relative(fromDir, to).split(sep).join('/');
}

/** The experiment specification of the study, to be saved in `specDir` (relative paths start there). */
export function demoExperimentSpec(size: StudySize, specDir: string): ExperimentSpec {
  return {
    name: 'fig11-demo',
    heuristics: 'all',
    grids: { fig11: { file: portablePath(specDir, join(PACKAGE_ROOT, FIG11_GRID_PATH)) } },
    applications: { mcell: { generator: 'fig11', sharedFileSizeKB: `\${${SWEEP_VARIABLE}}`, seed: '${seed}' } },
    sweep: { variable: SWEEP_VARIABLE, values: [...size.sizesKB] },
    seeds: { count: size.seedCount, first: FIG11_SEED },
  };
}
