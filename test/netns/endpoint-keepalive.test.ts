// An SSH endpoint whose host stops answering (every process of it stopped with SIGSTOP, its connection
// left open): SSH's keep-alive times out, and every operation in flight then fails as the endpoint going
// down (EndpointDownError), with either transport. A task whose channel was being opened at that moment
// once failed with a plain "Keepalive timeout" error instead, which the run counted as the task's own
// failure (three of them give a task up); seen on links losing 30 % of their packets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SshEndpoint } from '../../backends/ssh/ssh-endpoint.js';
import { EndpointDownError } from '../../backends/transport/endpoint.js';
import { parseRealGrid, type SshEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import { startNetnsGrid, type NetnsGrid } from '../support/netns.js';

/** Keep-alives every second, two missed: down within about 3 s; every other deadline far beyond. */
const KEEPALIVE = { intervalS: 1, countMax: 2 };
const SETTLE_LIMIT_MS = 10_000;

describe.each(['exec', 'agent'] as const)('an SSH endpoint (transport %s) whose host stops answering', (transport) => {
  let grid: NetnsGrid;
  let originDir: string;

  beforeAll(async () => {
    grid = await startNetnsGrid([{ name: 'c0', hosts: ['h0'] }]);
    originDir = mkdtempSync(join(tmpdir(), 'gridsweep-keepalive-'));
  });
  afterAll(async () => {
    grid?.continueHost('h0');
    await grid?.stop();
    if (originDir) rmSync(originDir, { recursive: true, force: true });
  });

  it('fails every operation in flight, a task being started included, as the endpoint going down', async () => {
    const gridJson = grid.realGridJson(originDir, { transport, keepalive: KEEPALIVE, deadlines: { commandS: 60, probeS: 60 } });
    const spec = parseRealGrid(gridJson, 'grid.json').clusters[0]!.endpoints[0] as SshEndpointSpec;
    const endpoint = new SshEndpoint(spec, 'c0', grid.cluster('c0').storage, 'keepalive', { acceptNew: false });
    await endpoint.connect();
    const downReasons: string[] = [];
    endpoint.onDown((reason) => downReasons.push(reason));
    try {
      expect(grid.hangHost('h0')).toBeGreaterThan(0);
      const outcomes = await Promise.race([
        Promise.allSettled([
          endpoint.run({ workKey: 'w0', argv: ['true'], inputs: [], outputs: [] }),
          endpoint.run({ workKey: 'w1', argv: ['true'], inputs: [], outputs: [] }),
          endpoint.outputFacts('w0', ['out']),
          endpoint.probe(),
        ]),
        new Promise<'pending'>((r) => setTimeout(() => r('pending'), SETTLE_LIMIT_MS)),
      ]);
      expect(outcomes, `operations still pending ${SETTLE_LIMIT_MS} ms after the host stopped`).not.toBe('pending');
      for (const o of outcomes as PromiseSettledResult<unknown>[]) {
        expect(o.status).toBe('rejected');
        const reason = (o as PromiseRejectedResult).reason as Error;
        expect(reason, String(reason)).toBeInstanceOf(EndpointDownError);
      }
      expect(endpoint.isUp()).toBe(false);
      expect(downReasons).toEqual(['keep-alive timeout']);
    } finally {
      grid.continueHost('h0');
      await endpoint.close();
    }
  }, 60_000);
});
