// The controller SIGKILLed while its tasks run on namespaced SSH hosts, then resumed: each host's agent
// outlives the connection that ended with the controller and lets its task finish; the resumed run
// collects those tasks (outputs fetched and verified) instead of running them again. Both transports:
// the agent's task, and the exec transport's shell script, leave how the task ended in its directory.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startNetnsGrid, type NetnsGrid } from '../support/netns.js';
import { expectKilledRunCollected, makeOrigin, type Origin } from '../support/run-support.js';

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
    // 4 tasks of 3 s on 2 single-slot hosts: one is running on each when the controller is killed
    await expectKilledRunCollected(o, 2, 2, 'a[01]');
  }, 90_000);
});
