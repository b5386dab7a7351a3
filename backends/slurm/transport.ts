// The "slurm" transport: a Slurm cluster's hosts are the cores of pilot jobs (pilot-pool.ts). Its storage
// machine is a "local" or "ssh" entry of the grid file, built by that transport; the Slurm commands run
// through that machine's command shell when it has one (the login node over SSH), else on this machine.
import { hasCommandShell } from '../transport/command-shell.js';
import type { Transport } from '../transport/registry.js';
import { PilotPool } from './pilot-pool.js';
import { localSlurmAccess, shellSlurmAccess } from './slurm-access.js';

export const slurmTransport: Transport<'slurm'> = {
  kind: 'slurm',
  help: 'a Slurm cluster: pilot jobs whose cores join the run as hosts, its commands here or on the login node over SSH',
  hostPool(cluster, storage, ctx) {
    const slurm = cluster.slurm;
    if (slurm === undefined) return undefined;
    return new PilotPool({
      cluster: { ...cluster, slurm },
      storage,
      access: hasCommandShell(storage) ? shellSlurmAccess(storage, slurm.env) : localSlurmAccess(slurm.env, ctx.deadlines.commandS),
      runDir: ctx.runDir,
      jobName: ctx.jobName,
      grid: ctx.grid,
      clock: ctx.clock,
      record: ctx.record,
      log: ctx.log,
      deadlines: ctx.deadlines,
    });
  },
};
