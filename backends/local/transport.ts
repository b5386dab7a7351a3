// The "local" transport: slots on this machine, each task through a local agent (local-endpoint.ts).
import type { Transport } from '../transport/registry.js';
import { LocalEndpoint } from './local-endpoint.js';

export const localTransport: Transport<'local'> = {
  kind: 'local',
  help: 'slots on this machine: every task through one local agent, the storage a directory here',
  endpoint(cluster, spec, ctx) {
    return new LocalEndpoint(spec, cluster.id, cluster.storageDir, ctx.runId);
  },
};
