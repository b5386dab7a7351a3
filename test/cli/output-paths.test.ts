// Where outputs go: a folder named in an output path is made when missing (the README's examples write
// into out/ on a fresh clone), and a path that cannot be written is one clear error, not a stack.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moveIntoPlace, temporaryName } from '../../src/util/atomic-write.js';
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
    expect(r.stderr).toMatch(/^gridsweep simulate: cannot write plain-file\/run\.jsonl \(a part of its path is a file, not a folder\)$/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('an output path that is a folder: refused before the run, in one line naming it, exit 1, nothing left behind', () => {
    const swf = join(PACKAGE_ROOT, 'test/fixtures/swf/hand.swf');
    expect(gridsweep('simulate', '--app', app, '--grid', grid, '--record', 'out/a/run.jsonl').status).toBe(0);
    const cases: [string, string[]][] = [
      ['trace', ['trace', swf, '--schedule', 'taken']],
      ['trace', ['trace', swf, '--machine', 'mesh:4x4', '--allocation-log', 'taken']],
      ['simulate', ['simulate', '--app', app, '--grid', grid, '--record', 'taken']],
      ['report', ['report', join(dir, 'out/a/run.jsonl'), '-o', 'taken']],
      ['generate', ['generate', 'swf', join(PACKAGE_ROOT, 'griddescs/batch/small.json'), '-o', 'taken']],
    ];
    for (const [command, args] of cases) {
      const folder = mkdtempSync(join(dir, 'outputs-'));
      const taken = join(folder, 'taken');
      mkdirSync(taken);
      const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: folder });
      expect(r.status, args.join(' ')).toBe(1);
      // (The appendix grid's warning comes first.)
      expect(r.stderr.trimEnd().split('\n').at(-1), args.join(' ')).toBe(`gridsweep ${command}: cannot write taken (it is a folder)`);
      expect(r.stderr, args.join(' ')).not.toMatch(/error|\n\s+at /);
      expect(readdirSync(folder), args.join(' ')).toEqual(['taken']);
      expect(readdirSync(taken), args.join(' ')).toEqual([]);
    }
  });
});

describe('moving a complete output into place', () => {
  it('removes the temporary file and names the output when the rename fails', () => {
    const folder = mkdtempSync(join(dir, 'move-'));
    const path = join(folder, 'result.txt');
    const tmp = temporaryName(path);
    writeFileSync(tmp, 'complete');
    // The path became a folder (with something in it) after the output was begun.
    mkdirSync(path);
    writeFileSync(join(path, 'inside'), 'x');
    let thrown: NodeJS.ErrnoException | undefined;
    try {
      moveIntoPlace(tmp, path);
    } catch (err) {
      thrown = err as NodeJS.ErrnoException;
    }
    expect(thrown?.message).toMatch(new RegExp(`^cannot write ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\((it is a folder|ENOTEMPTY|EEXIST)\\)$`));
    expect(thrown?.code).toMatch(/^(EISDIR|ENOTEMPTY|EEXIST)$/);
    expect(readdirSync(folder)).toEqual(['result.txt']);
  });
});
