// Writes the shipped Figure 11 files: griddescs/fig11/fig11.grid with its behaviour files, and
// apps/fig11/fig11-<size>kb.app for every swept size. A test regenerates them and compares byte for byte.
import { dirname, join } from 'node:path';
import { saveApplication, writeGrid } from '../formats/index.js';
import { FIG11_GRID_PATH, FIG11_SHARED_SIZES_KB, fig11Application, fig11ApplicationPath, fig11Grid } from './fig11.js';

/** Writes every Figure 11 file under `rootDir` (the package root for the shipped ones); returns their paths. */
export function writeFig11Files(rootDir: string): string[] {
  const gridPath = join(rootDir, FIG11_GRID_PATH);
  const grid = fig11Grid();
  writeGrid(dirname(gridPath), 'fig11.grid', grid);
  const written = [gridPath, ...[...grid.linkBehaviors.keys(), ...grid.hostBehaviors.keys()].map((n) => join(dirname(gridPath), n))];
  for (const kb of FIG11_SHARED_SIZES_KB) {
    const path = join(rootDir, fig11ApplicationPath(kb));
    saveApplication(path, fig11Application(kb));
    written.push(path);
  }
  return written;
}
