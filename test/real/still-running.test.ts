// Whether a lost task attempt still runs, as a run asks when its machine answers again (recovery.ts adopts
// only those that do): its process group, named by the pid file in its directory, is alive. Asked of local
// slots and of an SSH host through both transports, with a live group, the group of a process that has
// exited (as after the machine was killed or restarted), and no pid file.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../backends/transport/endpoint.js';
import { workDirOf } from '../../backends/transport/host-scripts.js';
import { describeEachSshTransport, withLocalEndpoint, withSshEndpoint } from './support/connected-endpoint.js';

const RUN_ID = 'still-running';

/** A process group of its own: a live one (`sleep`, killed after the tests), or one already gone. */
async function group(live: boolean): Promise<number> {
  const child = spawn(live ? 'sleep' : 'true', live ? ['60'] : [], { detached: true, stdio: 'ignore' });
  const pid = child.pid!;
  if (live) groups.push(pid);
  else await new Promise((r) => child.once('exit', r));
  return pid;
}
const groups: number[] = [];

async function expectAnswers(e: Endpoint, storage: string): Promise<void> {
  const attempt = (workKey: string, pid?: number): string => {
    const dir = workDirOf(join(storage, 'gridsweep', RUN_ID), workKey);
    mkdirSync(dir, { recursive: true });
    if (pid !== undefined) writeFileSync(join(dir, '.gridsweep.pid'), `${pid}\n`);
    return workKey;
  };
  expect(await e.stillRunning(attempt('w0.a1', await group(true)))).toBe(true);
  expect(await e.stillRunning(attempt('w1.a1', await group(false)))).toBe(false);
  expect(await e.stillRunning(attempt('w2.a1'))).toBe(false);
}

describe('whether a lost attempt still runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-still-running-'));
  afterAll(() => {
    for (const pid of groups) process.kill(-pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('on local slots', async () => {
    await withLocalEndpoint(join(dir, 'local'), RUN_ID, expectAnswers);
  });

  describeEachSshTransport('on an SSH host (transport %s)', (transport, farm) => {
    it('asks the host', async () => {
      // The loopback host is this machine: the groups started here are its own.
      await withSshEndpoint(farm(), transport, RUN_ID, expectAnswers);
    });
  });
});
