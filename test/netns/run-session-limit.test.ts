// `gridsweep run` with the exec transport on hosts whose sshd allows few channels per connection
// (MaxSessions 2, where OpenSSH's default is 10; some sites set it lower). The exec transport opens a
// channel per command, so the server refuses some: that is neither the task's failure nor the host's. Each
// waits for a channel instead, and the refused load probe counts as an answer. Before, a task refused a
// channel failed ("(SSH) Channel open failure: open failed"), and three of eight were given up.
import { describe, expect, it } from 'vitest';
import { gridForBlock } from '../support/netns-block.js';

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
