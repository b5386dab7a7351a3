// What the real-run tests give runReal alike: the origin's sweep file and the real grid file, each read as
// `gridsweep run` reads them, seed 1, a journal, and a fresh start (no --resume, no --accept-new).
import { readFileSync } from 'node:fs';
import type { RealRunInput } from '../../../backends/real/runner.js';
import { parseRealGrid } from '../../../src/realgrid/real-grid-file.js';
import { loadSweepFile } from '../../../src/sweep/sweep-file.js';
import type { Origin } from './origin.js';

export type FreshRunInput = Pick<RealRunInput, 'sweepPath' | 'sweep' | 'gridPath' | 'grid' | 'seed' | 'journalPath' | 'resume' | 'acceptNew'>;

export function freshRunInput(origin: Origin, gridPath: string, journalPath: string): FreshRunInput {
  return {
    sweepPath: origin.sweepPath,
    sweep: loadSweepFile(origin.sweepPath),
    gridPath,
    grid: parseRealGrid(readFileSync(gridPath, 'utf8'), gridPath),
    seed: 1,
    journalPath,
    resume: false,
    acceptNew: false,
  };
}
