// The controller killed (SIGKILL) while tasks run, then resumed: the agent lets the running tasks finish
// without it, and the resumed run collects them (their outputs fetched and verified) instead of running
// them again. On local slots, whose agent is a child process that outlives the controller as an SSH
// host's agent outlives its connection.
import { rmSync } from 'node:fs';
import { afterAll, describe, it } from 'vitest';
import { expectKilledRunCollected, makeOrigin, type Origin } from '../support/run-support.js';

const origins: Origin[] = [];
afterAll(() => origins.forEach((o) => rmSync(o.dir, { recursive: true, force: true })));

describe('a resumed run collects what finished while no controller ran', () => {
  it('tasks running when the controller was killed are collected, not run again', async () => {
    const o = makeOrigin({ realGridJson: (dir) => JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: `${dir}/storage`, hosts: { type: 'local', slots: 2 } }] }) }, 2, 3);
    origins.push(o);
    // 4 tasks of 3 s on 2 slots: two are running when the controller is killed
    await expectKilledRunCollected(o, 2, 2, 'here\\.[12]');
  }, 60_000);
});
