// The "ssh" transport: hosts over SSH (ssh-endpoint.ts), every command through the agent on one channel or
// one exec channel per command, as the grid file's "transport" says.
import type { Transport } from '../transport/registry.js';
import { SshEndpoint } from './ssh-endpoint.js';

export const sshTransport: Transport<'ssh'> = {
  kind: 'ssh',
  help: 'hosts over SSH: the agent on one channel per host (or an exec channel per command), the storage on the hosts',
  endpoint(cluster, spec, ctx) {
    return new SshEndpoint(spec, cluster.id, cluster.storageDir, ctx.runId, {
      acceptNew: ctx.acceptNew,
      ...(ctx.connectTimeoutMs !== undefined ? { readyTimeoutMs: ctx.connectTimeoutMs } : {}),
    });
  },
};
