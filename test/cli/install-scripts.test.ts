// package.json's allowScripts decides, for every dependency with an install script in the lockfile,
// whether npm runs it, so that `npm ci` (npm 11) lists no unreviewed install script. A new dependency
// with one fails this test until it is approved or denied (and the README's note says why).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

describe('install scripts', () => {
  it('allowScripts names exactly the locked packages that have install scripts', () => {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };
    const lock = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect([...new Set(withScripts)].sort()).toEqual(Object.keys(pkg.allowScripts).sort());
    // esbuild's postinstall checks its platform binary (tsx, vitest); the others build optional native code.
    expect(pkg.allowScripts).toEqual({ esbuild: true, ssh2: false, 'cpu-features': false });
  });
});
