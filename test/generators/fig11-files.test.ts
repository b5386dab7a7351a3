import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadApplication, loadGrid } from '../../src/formats/index.js';
import { FIG11_GRID_PATH, FIG11_SHARED_SIZES_KB, fig11Application, fig11ApplicationPath, fig11Grid } from '../../src/generators/fig11.js';
import { writeFig11Files } from '../../src/generators/fig11-files.js';
import { hashApplication, hashGrid } from '../../src/experiment/inputs.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const tmp = mkdtempSync(join(tmpdir(), 'gridsweep-fig11-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('shipped Figure 11 files', () => {
  it('regenerating them gives byte-identical files', () => {
    const written = writeFig11Files(tmp);
    expect(written.length).toBe(1 + 4 + FIG11_SHARED_SIZES_KB.length);
    for (const path of written) {
      const rel = relative(tmp, path);
      expect(readFileSync(join(PACKAGE_ROOT, rel), 'utf8'), rel).toBe(readFileSync(path, 'utf8'));
    }
  });

  it('they parse back to the generated models', () => {
    const { grid, warnings } = loadGrid(join(PACKAGE_ROOT, FIG11_GRID_PATH));
    expect(warnings).toEqual([]);
    expect(hashGrid(grid)).toBe(hashGrid(fig11Grid()));
    for (const kb of [100, 9600]) {
      const app = loadApplication(join(PACKAGE_ROOT, fig11ApplicationPath(kb)));
      expect(hashApplication(app)).toBe(hashApplication(fig11Application(kb)));
      expect(app.files[0]!.sizeBytes).toBe(kb * 1024);
    }
  });
});
