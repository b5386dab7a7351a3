// Typos on the command line through the real CLI: an unknown option or command gets the closest real
// one ("did you mean"), exit 2; `gridsweep help CMD` prints CMD's help.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const gridsweep = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: PACKAGE_ROOT });

describe('mistyped options and commands', () => {
  it('an unknown option names the closest one of the command, exit 2, before reading any file', () => {
    // '--heuristc' is one deletion away from '--heuristic'; the files named do not exist and are never read.
    const r = gridsweep('simulate', '--app', 'none.app', '--grid', 'none.grid', '--heuristc', 'minmin');
    expect(r.stderr.split('\n')[0]).toBe("gridsweep simulate: unknown option '--heuristc'; did you mean --heuristic?");
    expect(r.stderr).toContain('Usage: gridsweep simulate');
    expect(r.status).toBe(2);
  });

  it('--name=value spellings get the suggestion too; a far-off name gets none', () => {
    expect(gridsweep('trace', 'w.swf', '--polcy=easy').stderr).toContain("unknown option '--polcy'; did you mean --policy?");
    const far = gridsweep('trace', 'w.swf', '--zzzzzzzz');
    expect(far.stderr.split('\n')[0]).toBe("gridsweep trace: unknown option '--zzzzzzzz'");
    expect(far.status).toBe(2);
  });

  it('an unknown short option is named as given', () => {
    const r = gridsweep('simulate', '-z');
    expect(r.stderr.split('\n')[0]).toBe("gridsweep simulate: unknown option '-z'");
    expect(r.status).toBe(2);
  });

  it('gridsweep help CMD prints that command\'s help, the same as CMD --help', () => {
    const r = gridsweep('help', 'trace');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Usage: gridsweep trace WORKLOAD.swf [--policy P] [--machine M] [--allocator A] [--nodes N --cores-per-node C] [--json] [--schedule FILE.swf] [--allocation-log FILE] [--check] | gridsweep trace WORKLOAD.pwl|WORKLOAD.swf --timeshare STRATEGY [--nodes N --cores-per-node C] [--mpl N --slice S ...] [--json] [--check]');
    expect(r.stdout).toBe(gridsweep('trace', '--help').stdout);
  });

  it('gridsweep help NOPE: unknown command, with a suggestion when one is near, exit 2', () => {
    const near = gridsweep('help', 'simulat');
    expect(near.stderr.trim()).toBe("gridsweep: unknown command 'simulat' (did you mean 'simulate'?). Run 'gridsweep --help' for the list.");
    expect(near.status).toBe(2);
    const far = gridsweep('help', 'frobnicate');
    expect(far.stderr.trim()).toBe("gridsweep: unknown command 'frobnicate'. Run 'gridsweep --help' for the list.");
    expect(far.status).toBe(2);
    expect(gridsweep('expriment').stderr).toContain("(did you mean 'experiment'?)");
  });

  it('gridsweep help alone prints the general help', () => {
    const r = gridsweep('help');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(gridsweep('--help').stdout);
  });
});
