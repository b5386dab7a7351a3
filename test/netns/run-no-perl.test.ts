// A host without perl (a minimal image): the agent, the default transport, cannot start there. Before,
// such a host was retried for the whole run, with the shell's "perl: not found" as its only explanation;
// now it is set aside as unusable at once with what to do, and the other cluster does the tasks.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gridForBlock } from '../support/netns-block.js';
import { runCli } from '../support/run-support.js';

/** A directory with every program of /usr/bin but perl's, for the hosts' PATH. */
function binWithoutPerl(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'gridsweep-no-perl-')), 'bin');
  mkdirSync(dir);
  for (const name of readdirSync('/usr/bin')) if (!name.startsWith('perl')) symlinkSync(join('/usr/bin', name), join(dir, name));
  return dir;
}

describe('gridsweep run with the agent on hosts without perl', () => {
  const bin = binWithoutPerl();
  const block = gridForBlock([{ name: 'c0', hosts: ['a0'] }], { sessionPath: bin });
  afterAll(() => rmSync(join(bin, '..'), { recursive: true, force: true }));

  it('sets the host aside as unusable, saying what to do', async () => {
    const o = block.origin(2, 1, { transport: 'agent' });
    const r = await runCli(['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--heuristic', 'workqueue'], () => undefined, 60);
    const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
    expect(r.killedAtLimit, log).toBe(false);
    expect(r.code, log).toBe(1);
    expect(r.stdout, log).toMatch(/^UNUSABLE a0: .*perl is not installed there, and the agent is a perl script: install perl, or \(an SSH host\) set "transport": "exec" for it \(.*perl: not found\)$/m);
  }, 90_000);

  it('runs with the exec transport, which needs no perl', async () => {
    await block.runSweep(2, { transport: 'exec' });
  }, 90_000);
});
