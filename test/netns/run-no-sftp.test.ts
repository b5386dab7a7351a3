// `gridsweep run` on hosts whose sshd offers no SFTP (no "Subsystem sftp" line: some hardened hosts). The
// agent carries files too large for one of its requests in parts, as where SFTP cannot work for other
// reasons; the exec transport, which moves every file by SFTP, sets the host aside at login, saying why.
// Before, each input the host could not take failed its cluster, offered again 2 s later, for ever.
import { describe, expect, it } from 'vitest';
import { gridForBlock } from '../support/netns-block.js';
import { runCli } from '../support/run-support.js';

const SEEDS = 2;

describe('gridsweep run on a host without SFTP', () => {
  const block = gridForBlock([{ name: 'c0', hosts: ['a0'] }], { noSftp: true });

  it('with the agent: runs every task once, a 240 kB input going through the agent in parts', async () => {
    const { stdout, log } = await block.runSweep(SEEDS, {}, { largeModelBytes: 240_000 });
    expect(stdout, log).toMatch(/^stored +input 2 in c0 \(240000 bytes/m);
    expect(stdout, log).not.toMatch(/^(failed|down|unusable) /m);
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
