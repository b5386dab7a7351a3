// `gridsweep run` on hosts whose sshd offers no SFTP (no "Subsystem sftp" line: some hardened hosts). The
// agent carries files too large for one of its requests in parts, as where SFTP cannot work for other
// reasons; the exec transport, which moves every file by SFTP, sets the host aside at login, saying why.
// Before, each input the host could not take failed its cluster, offered again 2 s later, for ever.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gridForBlock } from '../support/netns-block.js';
import { expectEachTaskDoneOnce, runCli } from '../support/run-support.js';

const SEEDS = 2;

describe('gridsweep run on a host without SFTP', () => {
  const block = gridForBlock([{ name: 'c0', hosts: ['a0'] }], { noSftp: true });

  it('with the agent: runs every task once, a 240 kB input and its outputs going through the agent', async () => {
    const o = block.origin(SEEDS, 1);
    writeFileSync(join(o.dir, 'models', 'large.txt'), 'large model\n'.repeat(20_000));
    const r = await runCli(['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue'], () => undefined, 60);
    const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
    expect(r.killedAtLimit, log).toBe(false);
    expect(r.code, log).toBe(0);
    expectEachTaskDoneOnce(o, SEEDS);
    expect(r.stdout, log).toMatch(/^stored +input 2 in c0 \(240000 bytes/m);
    expect(r.stdout, log).not.toMatch(/^(failed|down|unusable) /m);
  }, 90_000);

  it('with the exec transport: the host is set aside at once, saying why and what to do', async () => {
    const o = block.origin(SEEDS, 1, { transport: 'exec' });
    const r = await runCli(['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath], () => undefined, 60);
    expect(r.killedAtLimit).toBe(false);
    expect(r.stdout).toMatch(
      /^UNUSABLE a0: a0 \(root@[\d.]+\): its sshd offers no SFTP \(no "Subsystem sftp" in its sshd_config\), through which the exec transport moves files: leave out "transport": "exec" \(the agent carries files itself\), or enable SFTP there$/m,
    );
    expect(r.stderr).toContain('no host of the real grid could be reached');
  }, 90_000);
});
