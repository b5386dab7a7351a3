// `gridsweep run` with the exec transport on hosts whose sshd allows few channels per connection
// (MaxSessions 2, where OpenSSH's default is 10; some sites set it lower). The exec transport opens a
// channel per command, so the server refuses some: that is neither the task's failure nor the host's. Each
// waits for a channel instead, and the refused load probe counts as an answer. Before, a task refused a
// channel failed ("(SSH) Channel open failure: open failed"), and three of eight were given up.
import { describe, expect, it } from 'vitest';
import { gridForBlock } from '../support/netns-block.js';
import { expectEachTaskDoneOnce, runCli } from '../support/run-support.js';

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
    const origin = block.origin(SEEDS, 1, { transport: 'exec' });
    const args = ['run', origin.sweepPath, '--grid', origin.gridPath, '--journal', origin.journalPath, '--record', origin.recordPath, '--heuristic', 'workqueue'];
    const r = await runCli(args, () => undefined, 60);
    const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
    expect(r.killedAtLimit, log).toBe(false);
    expect(r.code, log).toBe(0);
    expect(r.stdout, log).not.toMatch(/^(failed|down|unusable) /m);
    expectEachTaskDoneOnce(origin, SEEDS);
  }, 90_000);
});
