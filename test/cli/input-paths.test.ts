// An input that cannot be read, through the real CLI: each command given a folder, or a file that is not
// there, where it wants a file says so in one error naming the path (file:1:1), with exit 1: no stack, and
// not an internal error. (A folder opens like a file and fails only at its first read.)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'gs-inputs-'));
mkdirSync(join(dir, 'folder'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gridsweep = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir, timeout: 30_000 });

/** Each command line with INPUT where the unreadable path goes, and what the command calls that input. */
const CASES: [string[], string][] = [
  [['report', 'INPUT', '-o', 'out.html'], 'the run record'],
  [['dashboard', 'INPUT'], 'the run record'],
  [['trace', 'INPUT'], 'the workload'],
  [['experiment', 'INPUT'], 'the experiment specification'],
  [['plot', 'INPUT', '-o', 'out.svg'], 'the results'],
  [['map', 'INPUT', '--pattern', 'ring'], 'the allocation log'],
  [['generate', 'swf', 'INPUT', '-o', 'out.swf'], 'the generator specification'],
  [['describe', 'INPUT'], 'the sweep file'],
  [['run', 'INPUT', '--grid', 'INPUT'], 'the sweep file'],
  [['validate', 'INPUT'], 'the description'],
  [['simulate', '--app', 'INPUT', '--grid', join(PACKAGE_ROOT, 'griddescs/fig11/fig11.grid')], 'the application description'],
];

describe('an input path that cannot be read', () => {
  for (const [reason, input] of [
    ['it is a folder', 'folder'],
    ['no such file', 'missing.txt'],
  ] as const) {
    it(`${reason}: one error naming the file, exit 1`, () => {
      for (const [args, what] of CASES) {
        const r = gridsweep(...args.map((a) => (a === 'INPUT' ? input : a)));
        const line = args.join(' ');
        expect(r.status, line).toBe(1);
        expect(r.stderr.split('\n')[0], line).toBe(`${input}:1:1: error: cannot read ${what} (${reason})`);
        expect(r.stderr, line).not.toMatch(/internal error|\n\s+at /);
      }
    });
  }
});
