// (d) The scheduler is written once for every grid: nothing under src/scheduler imports from backends/.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const schedulerDir = join(root, 'src', 'scheduler');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every module specifier in `import … from`, `export … from`, `import(…)` and `require(…)`. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /\bimport\s+['"]([^'"]+)['"]/g, /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of source.matchAll(re)) found.push(m[1]!);
  return found;
}

describe('src/scheduler imports', () => {
  it('the scan sees a backends import when there is one', () => {
    expect(specifiers(`import { x } from '../../backends/sim/engine.js';\nconst y = await import("../backends/ssh/x.js");`)).toEqual([
      '../../backends/sim/engine.js',
      '../backends/ssh/x.js',
    ]);
  });

  it('no file under src/scheduler imports from backends/', () => {
    const files = tsFiles(schedulerDir);
    expect(files.length).toBeGreaterThan(10);
    const offending = files.flatMap((f) =>
      specifiers(readFileSync(f, 'utf8'))
        .filter((s) => /(^|\/)backends(\/|$)/.test(s))
        .map((s) => `${relative(root, f)} imports ${s}`),
    );
    expect(offending).toEqual([]);
  });
});
