// The "slurm" transport: a Slurm cluster's hosts are the cores of pilot jobs (pilot-pool.ts). Its storage
// machine is a "local" or "ssh" entry of the grid file, built by that transport; the Slurm commands run
// through that machine's command shell when it has one (the login node over SSH), else on this machine.
// The prober asks it what the cluster is (slurm-probe.ts: sinfo) to describe it as a batch cluster.
import type { SlurmSpec } from '../../src/realgrid/slurm-spec.js';
import { hasCommandShell } from '../transport/command-shell.js';
import type { Deadlines } from '../transport/deadline.js';
import type { Endpoint } from '../transport/endpoint.js';
import type { Transport } from '../transport/registry.js';
import { PilotPool } from './pilot-pool.js';
import { localSlurmAccess, shellSlurmAccess, type SlurmAccess } from './slurm-access.js';
import { probeSlurm } from './slurm-probe.js';

/** Where the cluster's Slurm commands run: the login node's shell (the storage machine over SSH), or here. */
function accessOf(slurm: SlurmSpec, storage: Endpoint, deadlines: Deadlines): SlurmAccess {
  return hasCommandShell(storage) ? shellSlurmAccess(storage, slurm.env) : localSlurmAccess(slurm.env, deadlines.commandS);
}

export const slurmTransport: Transport<'slurm'> = {
  kind: 'slurm',
  help: 'a Slurm cluster: pilot jobs whose cores join the run as hosts, its commands here or on the login node over SSH',
  hostPool(cluster, storage, ctx) {
    const slurm = cluster.slurm;
    if (slurm === undefined) return undefined;
    return new PilotPool({
      cluster: { ...cluster, slurm },
      storage,
      access: accessOf(slurm, storage, ctx.deadlines),
      runDir: ctx.runDir,
      jobName: ctx.jobName,
      grid: ctx.grid,
      clock: ctx.clock,
      record: ctx.record,
      log: ctx.log,
      deadlines: ctx.deadlines,
      ...(ctx.exhausted ? { exhausted: ctx.exhausted } : {}),
    });
  },
  async probeBatch(cluster, storage, ctx) {
    const slurm = cluster.slurm;
    if (slurm === undefined) return undefined;
    return probeSlurm(accessOf(slurm, storage, ctx.deadlines), slurm.partition, ctx.deadlines.commandS);
  },
};
