// The transport registry: the run controller and the prober reach every machine of a real grid file
// through it, by the file's host kind. Real grid files parsed for real, real endpoint objects built (none
// connected): a "local" cluster gets local endpoints, an "ssh" cluster SSH endpoints, a Slurm cluster a
// pilot pool whose commands go through its login node's command shell when the storage is reached over SSH,
// and only a Slurm cluster is asked by the prober what its batch system is.
import { describe, expect, it } from 'vitest';
import { LocalEndpoint } from '../../backends/local/local-endpoint.js';
import { localTransport } from '../../backends/local/transport.js';
import { PilotPool } from '../../backends/slurm/pilot-pool.js';
import { SshEndpoint } from '../../backends/ssh/ssh-endpoint.js';
import { TRANSPORTS } from '../../backends/transports.js';
import { hasCommandShell } from '../../backends/transport/command-shell.js';
import { DEFAULT_DEADLINES } from '../../backends/transport/deadline.js';
import { TransportRegistry, type HostPoolContext } from '../../backends/transport/registry.js';
import { WallClock } from '../../backends/real/wall-clock.js';
import { parseRealGrid } from '../../src/realgrid/real-grid-file.js';

const grid = parseRealGrid(
  JSON.stringify({
    realgrid: 1,
    origin: '/o',
    clusters: [
      { name: 'here', storage: 'store', hosts: { type: 'local', slots: 2 } },
      { name: 'far', storage: '/s', hosts: [{ name: 'h1', address: '10.0.0.1', user: 'me', identityFile: '/k', arch: 0 }] },
      { name: 'hpc', storage: 'scratch', hosts: { type: 'slurm' } },
      { name: 'remote-hpc', storage: '/scratch/me', hosts: { type: 'slurm', login: { address: 'login.example.org', user: 'me', identityFile: '/k' } } },
    ],
  }),
  '/g/grid.json',
);
const cluster = (name: string) => grid.clusters.find((c) => c.id === name)!;
const ctx = { runId: 'run-test', acceptNew: false };

describe('the transport registry', () => {
  it('lists local, ssh and slurm, each kind once', () => {
    expect(TRANSPORTS.list().map((t) => t.kind)).toEqual(['local', 'ssh', 'slurm']);
    expect(() => new TransportRegistry([localTransport, localTransport])).toThrow(/transport "local" is registered twice/);
    expect(() => TRANSPORTS.get('condor')).toThrow(/no transport for host kind "condor"; registered: local, ssh, slurm/);
  });

  it('builds each machine of the grid file with the transport of its kind', () => {
    const here = cluster('here');
    const local = TRANSPORTS.endpoint(here, here.endpoints[0]!, ctx);
    expect(local).toBeInstanceOf(LocalEndpoint);
    expect(local.spec.hostIds).toHaveLength(2);
    const far = cluster('far');
    const ssh = TRANSPORTS.endpoint(far, far.endpoints[0]!, ctx);
    expect(ssh).toBeInstanceOf(SshEndpoint);
    expect(ssh.clusterId).toBe('far');
    // a Slurm cluster's storage machine is a "local" or an "ssh" entry: built by that transport
    expect(TRANSPORTS.endpoint(cluster('hpc'), cluster('hpc').endpoints[0]!, ctx)).toBeInstanceOf(LocalEndpoint);
    expect(TRANSPORTS.endpoint(cluster('remote-hpc'), cluster('remote-hpc').endpoints[0]!, ctx)).toBeInstanceOf(SshEndpoint);
  });

  it('gives a pilot pool to Slurm clusters only; the login node over SSH offers its command shell', () => {
    const poolCtx: HostPoolContext = {
      runDir: '/s/gridsweep/run-test',
      jobName: 'gridsweep-test',
      grid: { join: () => undefined, retire: () => undefined, worksLeft: () => 0 },
      clock: new WallClock(),
      record: () => undefined,
      log: () => undefined,
      deadlines: DEFAULT_DEADLINES,
    };
    for (const name of ['here', 'far']) {
      const c = cluster(name);
      expect(TRANSPORTS.hostPool(c, TRANSPORTS.endpoint(c, c.endpoints[0]!, ctx), poolCtx)).toBeUndefined();
    }
    for (const name of ['hpc', 'remote-hpc']) {
      const c = cluster(name);
      const pool = TRANSPORTS.hostPool(c, TRANSPORTS.endpoint(c, c.endpoints[0]!, ctx), poolCtx);
      expect(pool).toBeInstanceOf(PilotPool);
      expect(pool!.clusterId).toBe(name);
      expect(pool!.submitted).toBe(0);
    }
    // where the Slurm commands run: this machine for a local storage, the login node for an SSH one
    expect(hasCommandShell(TRANSPORTS.endpoint(cluster('hpc'), cluster('hpc').endpoints[0]!, ctx))).toBe(false);
    expect(hasCommandShell(TRANSPORTS.endpoint(cluster('remote-hpc'), cluster('remote-hpc').endpoints[0]!, ctx))).toBe(true);
  });

  it('the prober asks Slurm clusters only what their batch system is (probeBatch: sinfo, test/slurm/slurm-probe.test.ts)', async () => {
    expect(TRANSPORTS.list().filter((t) => t.probeBatch !== undefined).map((t) => t.kind)).toEqual(['slurm']);
    for (const name of ['here', 'far']) {
      const c = cluster(name);
      await expect(TRANSPORTS.probeBatch(c, TRANSPORTS.endpoint(c, c.endpoints[0]!, ctx), { deadlines: DEFAULT_DEADLINES })).resolves.toBeUndefined();
    }
  });
});
