// Where a Slurm cluster's commands run: on this machine (gridsweep runs on a login node), or on the login
// node through the command shell of the cluster's storage endpoint (its SSH connection). Either way a command is an argv, run
// with the cluster's "env" and a deadline, or started on a channel of its own (a pilot's agent).
import { execFile, spawn } from 'node:child_process';
import { channelOf } from '../transport/child-channel.js';
import type { Channel, CommandResult } from '../transport/agent-session.js';
import type { CommandShell } from '../transport/command-shell.js';

export interface SlurmAccess {
  /** Runs a short command (sbatch, squeue, scancel) to its end. */
  run(argv: readonly string[]): Promise<CommandResult>;
  /** Starts a long-lived command whose standard input and output are the channel (srun and the agent). */
  open(argv: readonly string[]): Promise<Channel>;
}

/** argv preceded by `env NAME=value …` when the cluster names environment variables. */
function withEnv(env: Readonly<Record<string, string>>, argv: readonly string[]): readonly string[] {
  const pairs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return pairs.length > 0 ? ['env', ...pairs, ...argv] : argv;
}

export function localSlurmAccess(env: Readonly<Record<string, string>>, deadlineS: number): SlurmAccess {
  return {
    run: (argv) => {
      const [cmd, ...args] = withEnv(env, argv);
      return new Promise((resolve) => {
        execFile(cmd!, args, { timeout: deadlineS * 1000, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
          if (!err) return resolve({ stdout, stderr, code: 0, signal: null });
          const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
          const why = e.code === 'ENOENT' ? `${cmd} is not installed here (is this a Slurm login node?)` : e.killed ? `no answer within ${deadlineS} s` : stderr;
          resolve({ stdout, stderr: why, code: typeof e.code === 'number' ? e.code : 127, signal: null });
        });
      });
    },
    open: async (argv) => {
      const [cmd, ...args] = withEnv(env, argv);
      return channelOf(spawn(cmd!, args, { stdio: ['pipe', 'pipe', 'pipe'] }));
    },
  };
}

/** Through the command shell of the cluster's storage machine (the login node over SSH). */
export function shellSlurmAccess(login: CommandShell, env: Readonly<Record<string, string>>): SlurmAccess {
  return {
    run: (argv) => login.runArgv(withEnv(env, argv)),
    open: (argv) => login.openChannel(withEnv(env, argv)),
  };
}
