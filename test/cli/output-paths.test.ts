// Where outputs go: a folder named in an output path is made when missing (the README's examples write
// into out/ on a fresh clone), and a path that cannot be written is one clear error, not a stack.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'gs-outputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gridsweep = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });
const app = join(PACKAGE_ROOT, 'apps/appendix-b.app');
const grid = join(PACKAGE_ROOT, 'griddescs/appendix-a/appendix-a.grid');

describe('output paths', () => {
  it('makes the folders an output path names: simulate --record, report -o, generate -o, trace --schedule and --allocation-log', () => {
    expect(gridsweep('simulate', '--app', app, '--grid', grid, '--record', 'out/a/run.jsonl').status).toBe(0);
    expect(gridsweep('report', 'out/a/run.jsonl', '-o', 'out/b/run.html').status).toBe(0);
    expect(gridsweep('generate', 'swf', join(PACKAGE_ROOT, 'griddescs/batch/small.json'), '-o', 'out/c/w.swf').status).toBe(0);
    expect(gridsweep('trace', 'out/c/w.swf', '--machine', 'mesh:8x8', '--schedule', 'out/d/s.swf', '--allocation-log', 'out/e/w.alloc').status).toBe(0);
    for (const f of ['a/run.jsonl', 'b/run.html', 'c/w.swf', 'd/s.swf', 'e/w.alloc']) expect(existsSync(join(dir, 'out', f)), f).toBe(true);
  });

  it('a path that cannot be written: one line saying why, exit 1, nothing left behind', () => {
    writeFileSync(join(dir, 'plain-file'), 'x');
    const r = gridsweep('simulate', '--app', app, '--grid', grid, '--record', 'plain-file/run.jsonl');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^gridsweep simulate: (EEXIST|ENOTDIR): .*'plain-file'$/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
