// An input's stored file deleted (a scratch purge) after a task has started but before it reads the input:
// the task still reads it. Inputs are hard links in the task's directory, which keep the file's data when
// its stored name goes; with symbolic links, as before, the task found a dangling link and failed (a
// failure counted against it, seen as a rare race in test/real/input-purged.test.ts).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../backends/transport/endpoint.js';
import { describeEachSshTransport, withLocalEndpoint, withSshEndpoint } from './support/connected-endpoint.js';

const CONTENT = 'the model parameters\n';

/** Starts a task that waits for a file `go` in its directory, then copies its input; deletes the stored input meanwhile. */
async function purgeWhileRunning(e: Endpoint, storage: string, runId: string, origin: string): Promise<void> {
  const local = join(origin, 'model.txt');
  writeFileSync(local, CONTENT);
  await e.putFile(local, 'f7', 30);
  const filesDir = join(storage, 'gridsweep', runId, 'files');
  const workDir = join(storage, 'gridsweep', runId, 'work', 'w1');
  const running = e.run({
    workKey: 'w1',
    argv: ['sh', '-c', 'while [ ! -e go ]; do sleep 0.02; done; cat in/model.txt > out.txt'],
    inputs: [{ storageName: 'f7', path: 'in/model.txt' }],
    outputs: ['out.txt'],
  });
  for (let i = 0; i < 500 && !existsSync(join(workDir, 'in', 'model.txt')); i++) await new Promise((r) => setTimeout(r, 20));
  rmSync(join(filesDir, 'f7'));
  writeFileSync(join(workDir, 'go'), '');
  const exit = await running;
  expect(exit.exitCode, exit.stderrTail).toBe(0);
  expect(readFileSync(join(workDir, 'out.txt'), 'utf8')).toBe(CONTENT);
}

describe('an input deleted from the storage while a task that reads it runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-purge-running-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('local slots (the agent): the task reads it all the same', async () => {
    await withLocalEndpoint(join(dir, 'local-storage'), 'purge', (e, storage) => purgeWhileRunning(e, storage, 'purge', dir));
  });

  describeEachSshTransport('an SSH host (transport %s)', (transport, farm) => {
    it('the task reads it all the same', async () => {
      await withSshEndpoint(farm(), transport, `purge-${transport}`, (e, storage) => purgeWhileRunning(e, storage, `purge-${transport}`, dir));
    });
  });
});
