// An SSH endpoint whose sshd dies while downloads and commands are in flight: every operation must settle
// promptly with EndpointDownError. ssh2 left an SFTP download cut mid-way pending forever, which once hung a
// whole `gridsweep run` (the cluster's link waited for that download).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndpointDownError } from '../../backends/transport/endpoint.js';
import { SshEndpoint } from '../../backends/ssh/ssh-endpoint.js';
import { parseRealGrid, type SshEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import { startSshdFarm, type SshdFarm } from '../support/sshd.js';

const LOOPS_PER_KIND = 4;
const SETTLE_LIMIT_MS = 5000;
// When sshd is killed, counted from the moment the operations start; spread so that kills land during
// session set-up, mid-download and between operations.
const KILL_AFTER_MS = [5, 40, 80, 120, 160, 200, 240, 280];

describe('an SSH endpoint losing its sshd mid-operation', () => {
  let farm: SshdFarm;
  let localDir: string;
  beforeAll(async () => {
    farm = await startSshdFarm({ c1: ['h1'] });
    localDir = mkdtempSync(join(tmpdir(), 'gridsweep-loss-'));
  });
  afterAll(async () => {
    await farm?.stop();
    rmSync(localDir, { recursive: true, force: true });
  });

  it('settles every download and command with EndpointDownError, whenever the kill lands', async () => {
    const spec = parseRealGrid(farm.realGridJson(farm.dir), 'grid.json').clusters[0]!.endpoints[0] as SshEndpointSpec;
    const storage = farm.clusters[0]!.storage;
    for (const killAfterMs of KILL_AFTER_MS) {
      const endpoint = new SshEndpoint(spec, 'c1', storage, 'loss', { acceptNew: false });
      await endpoint.connect();
      const made = await endpoint.runArgv(['sh', '-c', `mkdir -p ${storage}/gridsweep/loss/work/w && head -c 200000 /dev/urandom > ${storage}/gridsweep/loss/work/w/out`]);
      expect(made.code).toBe(0);

      // Each loop repeats its operation until one fails; that failure must be the endpoint going down.
      const failures: unknown[] = [];
      const repeat = async (op: () => Promise<unknown>): Promise<void> => {
        for (;;) {
          try {
            await op();
          } catch (err) {
            failures.push(err);
            return;
          }
        }
      };
      const loops: Promise<void>[] = [];
      for (let i = 0; i < LOOPS_PER_KIND; i++) {
        loops.push(repeat(() => endpoint.fetch('w', 'out', join(localDir, `out-${i}`), 60)));
        loops.push(repeat(() => endpoint.outputFacts('w', ['out'])));
      }
      await new Promise((r) => setTimeout(r, killAfterMs));
      farm.kill('h1');
      const settled = await Promise.race([
        Promise.all(loops).then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), SETTLE_LIMIT_MS)),
      ]);
      expect(settled, `operations still pending ${SETTLE_LIMIT_MS} ms after sshd was killed ${killAfterMs} ms in`).toBe(true);
      for (const err of failures) expect(err).toBeInstanceOf(EndpointDownError);
      expect(endpoint.isUp()).toBe(false);
      await endpoint.close();
      await farm.restart('h1');
    }
  }, 60_000);
});
