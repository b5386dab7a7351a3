// A connection that blinks: the link of a one-host cluster is cut while its tasks run and restored after
// they have finished there. The run reports the host down at once (the heartbeat) and takes its tasks back;
// the agent outlives the connection and lets them finish; when the host answers again, the run finds them
// finished (their exit and outputs in their directories) and brings their outputs back instead of running
// them again.
import { rmSync, writeFileSync } from 'node:fs';
import { readJournal } from '../../backends/real/journal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetnsGrid, type NetnsGrid } from '../support/netns.js';
import { expectEachTaskDoneOnce, makeOrigin, runCli, type Origin } from '../support/run-support.js';

describe('gridsweep run when a connection blinks mid-task', () => {
  let grid: NetnsGrid;
  const origins: Origin[] = [];

  beforeAll(async () => {
    grid = await startNetnsGrid([{ name: 'c0', hosts: ['a0'] }]);
  }, 60_000);
  afterAll(async () => {
    await grid?.stop();
    for (const o of origins) rmSync(o.dir, { recursive: true, force: true });
  }, 60_000);

  it('collects the tasks that finished while the link was down, and runs none of them again', async () => {
    const seeds = 1;
    const origin = makeOrigin(grid, seeds, 4);
    origins.push(origin);
    // Two slots: both tasks run at once on the only host. Short deadlines so that the cut is noticed,
    // and the host retried, within seconds.
    writeFileSync(origin.gridPath, grid.realGridJson(origin.dir, { deadlines: { probeS: 2, loginS: 3, commandS: 5 }, keepalive: { intervalS: 1, countMax: 2 } }, 2));
    let cut = false;
    let restored = false;
    const lines: string[] = [];
    const args = ['run', origin.sweepPath, '--grid', origin.gridPath, '--journal', origin.journalPath, '--record', origin.recordPath, '--sample-period', '1', '--no-watch'];
    const r = await runCli(args, (line) => {
      lines.push(line);
      if (!cut && line.startsWith('start')) {
        cut = true;
        setTimeout(() => {
          grid.cutLink('c0');
          setTimeout(() => {
            grid.restoreLink('c0');
            restored = true;
          }, 7000);
        }, 2000);
      }
    });
    if (!restored) grid.restoreLink('c0');
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^start +2 task\(s\) to run, 0 already verified, 2 host\(s\) up$/m);
    expect(lines.some((l) => /^down +a0/.test(l)), r.stdout).toBe(true);
    for (const work of [0, 1]) expect(r.stdout).toMatch(new RegExp(`recovered task ${work} on a0\\.[12]: it finished while the connection was down, not run again`));
    const journal = readJournal(origin.journalPath);
    // Each task was started once (sent to the host once): the run after the blink collected it.
    expect(journal.filter((e) => e.type === 'started').map((e) => e.work).sort()).toEqual([0, 1]);
    expect(journal.filter((e) => e.type === 'failed').map((e) => e.work).sort()).toEqual([0, 1]);
    expectEachTaskDoneOnce(origin, seeds);
  }, 90_000);
});
