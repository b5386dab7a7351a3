// `gridsweep run` on hosts whose sshd allows few channels per connection (MaxSessions 2 or 1, where
// OpenSSH's default is 10; some sites set it lower). The exec transport opens a channel per command, so the
// server refuses some: that is neither the task's failure nor the host's. Each waits for a channel instead,
// and the refused load probe counts as an answer. Before, a task refused a channel failed ("(SSH) Channel
// open failure: open failed"), and three of eight were given up.
// With a limit of 1: sshd frees a closed channel a moment after the client hears it closed, so the login's
// second command was refused and the host given up as down; and an idle SFTP session kept the only channel,
// so every command after the first upload waited for ever. The agent transport keeps the one channel for the
// agent, and files too large for one of its requests went by SFTP, on a second: the run waited for ever
// there too. They now go through the agent in parts.
import { describe, expect, it } from 'vitest';
import { gridForBlock } from '../support/netns-block.js';
import { runCli } from '../support/run-support.js';

const SEEDS = 4;

describe('gridsweep run (transport exec) on hosts that allow 2 channels per connection', () => {
  const block = gridForBlock(
    [
      { name: 'c0', hosts: ['a0'] },
      { name: 'c1', hosts: ['b0'] },
    ],
    { maxSessions: 2 },
  );

  it('runs every task once, none counted failed, no host down', async () => {
    const { stdout, log } = await block.runSweep(SEEDS, { transport: 'exec' });
    expect(stdout, log).not.toMatch(/^(failed|down|unusable) /m);
  }, 90_000);
});

describe('gridsweep run on hosts that allow 1 channel per connection', () => {
  const block = gridForBlock(
    [
      { name: 'c0', hosts: ['a0'] },
      { name: 'c1', hosts: ['b0'] },
    ],
    { maxSessions: 1 },
  );

  it('runs every task once with the exec transport, none counted failed, no host down', async () => {
    const { stdout, log } = await block.runSweep(SEEDS, { transport: 'exec' });
    expect(stdout, log).not.toMatch(/^(failed|down|unusable) /m);
  }, 90_000);

  it('with the agent, runs every task once, an input too large for one request going through the agent in parts', async () => {
    const { stdout, log } = await block.runSweep(SEEDS, {}, { largeModelBytes: 240_000 });
    expect(stdout, log).toMatch(/^stored +input 2 in c0 \(240000 bytes/m);
    expect(stdout, log).not.toMatch(/^(failed|down|unusable) /m);
  }, 90_000);
});

describe('gridsweep run on a host whose sshd allows no session (MaxSessions 0)', () => {
  const block = gridForBlock([{ name: 'c0', hosts: ['a0'] }], { maxSessions: 0 });

  // Since the login waits for channels (above), a refusal that lasts blamed the login shell ("no answer
  // from its login shell within 2 s (a start-up file or home directory that hangs?)").
  it('waits for a channel until the login deadline, then says why the host is down', async () => {
    const o = block.origin(1, 1, { deadlines: { loginS: 2 } });
    const r = await runCli(['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath], () => undefined, 60);
    expect(r.killedAtLimit).toBe(false);
    expect(r.stdout).toMatch(/^down +a0: cannot connect: a0 \(root@[\d.]+\): its sshd refused every channel for 2 s, with none of this run's open \(MaxSessions 0 in its sshd_config\?\)$/m);
    expect(r.stderr).toContain('no host of the real grid could be reached');
  }, 90_000);
});
