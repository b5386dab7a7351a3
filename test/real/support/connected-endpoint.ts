// Endpoints connected for the length of `use`, then closed: local slots, and the SSH endpoint of a loopback
// farm's first host with a given transport; and a describe block per SSH transport, each with its farm.
// How the endpoint-level tests ask the same question of every kind of machine.
import { afterAll, beforeAll, describe } from 'vitest';
import { LocalEndpoint } from '../../../backends/local/local-endpoint.js';
import { SshEndpoint } from '../../../backends/ssh/ssh-endpoint.js';
import { parseRealGrid, type SshEndpointSpec } from '../../../src/realgrid/real-grid-file.js';
import { startSshdFarm, type SshdFarm } from '../../support/sshd.js';

export type SshTransport = 'agent' | 'exec';

export async function withSshEndpoint(farm: SshdFarm, transport: SshTransport, runId: string, use: (e: SshEndpoint, storage: string) => Promise<void>): Promise<void> {
  const grid = parseRealGrid(farm.realGridJson(farm.dir), 'grid.json');
  const spec = { ...(grid.clusters[0]!.endpoints[0] as SshEndpointSpec), transport };
  const storage = farm.clusters[0]!.storage;
  const e = new SshEndpoint(spec, 'c1', storage, runId, { acceptNew: false });
  await e.connect();
  try {
    await use(e, storage);
  } finally {
    await e.close();
  }
}

/** Local slots (one) whose storage is `storage`. */
export async function withLocalEndpoint(storage: string, runId: string, use: (e: LocalEndpoint, storage: string) => Promise<void>): Promise<void> {
  const e = new LocalEndpoint({ kind: 'local', name: 'here', hostIds: ['here.1'], arch: 0 }, 'here', storage, runId);
  await e.connect();
  try {
    await use(e, storage);
  } finally {
    await e.close();
  }
}

/** `title` once per SSH transport (%s names it), its tests given the transport and a farm of one host, c1: h1. */
export function describeEachSshTransport(title: string, tests: (transport: SshTransport, farm: () => SshdFarm) => void): void {
  describe.each(['agent', 'exec'] as const)(title, (transport) => {
    let farm: SshdFarm;
    beforeAll(async () => {
      farm = await startSshdFarm({ c1: ['h1'] });
    });
    afterAll(async () => {
      await farm?.stop();
    });
    tests(transport, () => farm);
  });
}
