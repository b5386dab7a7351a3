// The SSH endpoint of a loopback farm's first host, connected with the given transport for the length of
// `use`, then closed: how the endpoint-level tests talk to a real sshd.
import { SshEndpoint } from '../../../backends/ssh/ssh-endpoint.js';
import { parseRealGrid, type SshEndpointSpec } from '../../../src/realgrid/real-grid-file.js';
import type { SshdFarm } from '../../support/sshd.js';

export async function withSshEndpoint(farm: SshdFarm, transport: 'agent' | 'exec', runId: string, use: (e: SshEndpoint, storage: string) => Promise<void>): Promise<void> {
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
