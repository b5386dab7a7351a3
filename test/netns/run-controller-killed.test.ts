// The controller SIGKILLed while its tasks run on namespaced SSH hosts, then resumed: each host's agent
// outlives the connection that ended with the controller and lets its task finish; the resumed run
// collects those tasks (outputs fetched and verified) instead of running them again. Both transports:
// the agent's task, and the exec transport's shell script, leave how the task ended in its directory.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import { startNetnsGrid, type NetnsGrid } from '../support/netns.js';
import { expectedOutput, makeOrigin, runCli, type Origin } from '../support/run-support.js';

describe.each(['agent', 'exec'] as const)('gridsweep run (transport %s) killed and resumed', (transport) => {
  let grid: NetnsGrid;
  const origins: Origin[] = [];
  beforeAll(async () => {
    grid = await startNetnsGrid([{ name: 'c0', hosts: ['a0', 'a1'] }]);
  }, 60_000);
  afterAll(async () => {
    await grid?.stop();
    for (const o of origins) rmSync(o.dir, { recursive: true, force: true });
  }, 60_000);

  it('collects the tasks that finished while no controller ran', async () => {
    const o = makeOrigin(grid, 2, 3, { transport });
    origins.push(o);
    const args = ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue', '--no-watch'];
    let killed = false;
    const first = await runCli(args, (line, child) => {
      if (!killed && line.startsWith('start')) {
        killed = true;
        // one 3-s task has started on each host by then
        setTimeout(() => child.kill('SIGKILL'), 1500);
      }
    });
    expect(first.code).toBe(null);
    const startedBefore = readJournal(o.journalPath).flatMap((e) => (e.type === 'started' ? [e.work] : []));
    expect(startedBefore.length).toBe(2);
    await new Promise((r) => setTimeout(r, 4000));
    const second = await runCli([...args, '--resume'], () => undefined);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    for (const work of startedBefore) expect(second.stdout).toMatch(new RegExp(`collected task ${work} on a[01]: it finished while gridsweep was not running`));
    const journal = readJournal(o.journalPath);
    expect(journal.flatMap((e) => (e.type === 'started' ? [e.work] : [])).sort()).toEqual([0, 1, 2, 3]);
    expect(journal.flatMap((e) => (e.type === 'verified' ? [e.work] : [])).sort()).toEqual([0, 1, 2, 3]);
    for (const size of ['small', 'large']) {
      for (const seed of [1, 2]) expect(readFileSync(join(o.dir, 'results', `${size}-${seed}.txt`), 'utf8')).toBe(expectedOutput(o, seed, size));
    }
  }, 90_000);
});
