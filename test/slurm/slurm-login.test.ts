// `gridsweep run` on a Slurm cluster reached through its login node over SSH, as from a laptop: the login
// node is a namespaced sshd host (test/support/netns.ts) whose sessions are Slurm clients of a test Slurm
// listening on the root namespace's address on that host's link; sbatch, squeue, scancel and srun (the
// pilots' agents) run there, and files go through it to the cluster's storage. Every task is verified
// at the origin exactly once, and the pilots are cancelled at the end.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetnsGrid, type NetnsGrid } from '../support/netns.js';
import { expectEachTaskDoneOnce, makeOrigin, runCli, type Origin } from '../support/run-support.js';
import { startSlurm, type TestSlurm } from '../support/slurm.js';
import { recordOf } from './slurm-run-support.js';

describe('gridsweep run on a Slurm cluster through its login node', () => {
  let net: NetnsGrid;
  let slurm: TestSlurm;
  let origin: Origin | undefined;

  beforeAll(async () => {
    net = await startNetnsGrid([{ name: 'site', hosts: ['login'] }]);
    slurm = await startSlurm({ cpus: 4, address: net.clusters[0]!.originAddress });
  }, 90_000);
  afterAll(async () => {
    await slurm?.stop();
    await net?.stop();
    if (origin) rmSync(origin.dir, { recursive: true, force: true });
  }, 90_000);

  it('submits the pilots, runs their agents and moves the files through the login node', async () => {
    const login = net.clusters[0]!.hosts[0]!;
    origin = makeOrigin(
      {
        realGridJson: (dir) =>
          JSON.stringify({
            realgrid: 1,
            knownHosts: net.knownHosts,
            clusters: [
              {
                name: 'hpc',
                storage: `${dir}/hpc-storage`,
                hosts: {
                  type: 'slurm',
                  pilots: 2,
                  pilotCores: 2,
                  pilotWalltimeS: 600,
                  env: { SLURM_CONF: slurm.conf },
                  login: { address: login.address, port: login.port, user: net.user, identityFile: net.identityFile },
                },
              },
            ],
          }),
      },
      4,
      1,
    );
    const o = origin;
    // this process has no SLURM_CONF: only the login node's sessions reach the Slurm
    const env = { ...process.env };
    delete env['SLURM_CONF'];
    const r = await runCli(['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue', '--no-watch'], () => undefined, 150, env);
    expect(r.killedAtLimit, r.stdout + r.stderr).toBe(false);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expectEachTaskDoneOnce(o, 4);
    expect(r.stdout).toMatch(/pilots on hpc: 2 submitted, 2 started/);
    const hosts = new Set(recordOf(o).flatMap((e) => (e.type === 'start' && e.kind === 'compute' && e.resource.type === 'host' ? [e.resource.host] : [])));
    expect([...hosts].every((h) => /^hpc\.\d+\.[12]$/.test(h))).toBe(true);
    const live = await slurm.command('squeue', ['--noheader', '--states=PENDING,RUNNING,CONFIGURING']);
    expect(live.trim()).toBe('');
  }, 180_000);
});
