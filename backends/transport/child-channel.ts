// A child process's standard input and output as a channel to an agent (agent-session.ts): the local
// agent of this machine's slots, or srun carrying a Slurm pilot's agent.
import type { ChildProcess } from 'node:child_process';
import type { Channel } from './agent-session.js';

export function channelOf(child: ChildProcess): Channel {
  child.on('error', () => undefined); // reported through 'close'
  child.stdin!.on('error', () => undefined);
  return {
    write: (data) => child.stdin!.write(data),
    end: () => child.stdin!.end(),
    close: () => child.kill('SIGKILL'),
    on: ((event: 'data' | 'close', fn: (data?: Buffer) => void) => {
      if (event === 'data') child.stdout!.on('data', fn);
      else child.on('close', () => fn());
    }) as Channel['on'],
    stderr: { on: (_event, fn) => child.stderr!.on('data', fn) },
  };
}
