// A connection that blinks while long tasks run: the link of a one-host cluster is cut 2 s into the run
// and restored 5 s later, while the tasks (24 s each) still run there. The run reports the host down and
// plans its tasks again; when the host answers, the tasks still running are adopted, not killed: their
// exit is watched on disk, and when they end their outputs are brought back (recovered), the copies the
// scheduler started meanwhile cancelled. So the run ends about when the first attempts end, not a whole
// task length after the host came back.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecordEvent } from '../../src/record/events.js';
import { startNetnsGrid, type NetnsGrid } from '../support/netns.js';
import { expectEachTaskDoneOnce, makeOrigin, runCli, type Origin } from '../support/run-support.js';

const TASK_S = 24;

describe('gridsweep run when a connection blinks while its tasks go on', () => {
  let grid: NetnsGrid;
  const origins: Origin[] = [];

  beforeAll(async () => {
    grid = await startNetnsGrid([{ name: 'c0', hosts: ['a0'] }]);
  }, 60_000);
  afterAll(async () => {
    await grid?.stop();
    for (const o of origins) rmSync(o.dir, { recursive: true, force: true });
  }, 60_000);

  it('adopts the tasks still running when the host answers again, and brings their outputs back', async () => {
    const seeds = 1;
    const origin = makeOrigin(grid, seeds, TASK_S);
    origins.push(origin);
    writeFileSync(origin.gridPath, grid.realGridJson(origin.dir, { deadlines: { probeS: 2, loginS: 3, commandS: 5 }, keepalive: { intervalS: 1, countMax: 2 } }, 2));
    let cut = false;
    let restored = false;
    const args = ['run', origin.sweepPath, '--grid', origin.gridPath, '--journal', origin.journalPath, '--record', origin.recordPath, '--sample-period', '1', '--no-watch'];
    const r = await runCli(
      args,
      (line) => {
        if (!cut && line.startsWith('start')) {
          cut = true;
          setTimeout(() => {
            grid.cutLink('c0');
            setTimeout(() => {
              grid.restoreLink('c0');
              restored = true;
            }, 5000);
          }, 2000);
        }
      },
      90,
    );
    if (!restored) grid.restoreLink('c0');
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^down +a0/m);
    for (const work of [0, 1]) {
      expect(r.stdout).toMatch(new RegExp(`^adopted task ${work} on a0\\.[12]: still running when the connection came back`, 'm'));
      expect(r.stdout).toMatch(new RegExp(`^recovered task ${work} on a0\\.[12]: adopted when the connection came back, it has finished`, 'm'));
    }
    expectEachTaskDoneOnce(origin, seeds);
    // Killed at the reconnection, the tasks would have run again from then: the host answers again at the
    // earliest ~7 s into the run (cut at 2 s for 5 s), so the run would end after 7 + 24 = 31 s. Adopted,
    // it ends about when the first attempts do, 24 s after the start and a little more.
    const record = readFileSync(origin.recordPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecordEvent);
    const end = record.at(-1) as { type: string; makespanS: number };
    expect(end.type).toBe('run-end');
    expect(end.makespanS).toBeLessThan(TASK_S + 5);
  }, 120_000);
});
