// The project's root folder, found from this file whether it runs from src/ (tests) or dist/src/ (built).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('gridsweep: package.json not found above the installed files');
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT: string = findRoot();
