// A machine that runs commands for others: an argv to its end, or started on a channel of its own. An SSH
// host offers it (a Slurm cluster's login node runs sbatch, squeue and srun through it); a machine without
// it runs such commands on this machine. A capability found on the endpoint, not a kind of machine.
import type { Channel, CommandResult } from './agent-session.js';
import type { Endpoint } from './endpoint.js';

export interface CommandShell {
  /** Runs an argv on the machine, through the same quoting as tasks, to its end. */
  runArgv(argv: readonly string[]): Promise<CommandResult>;
  /** Starts an argv on the machine whose standard input and output are the channel. */
  openChannel(argv: readonly string[]): Promise<Channel>;
}

/** The endpoint runs commands for others (it implements CommandShell). */
export function hasCommandShell(e: Endpoint): e is Endpoint & CommandShell {
  const shell = e as Partial<CommandShell>;
  return typeof shell.runArgv === 'function' && typeof shell.openChannel === 'function';
}
