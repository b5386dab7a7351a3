// What an endpoint asks a host to do, the same whoever carries it there (an SSH channel, the agent over
// SSH, the agent in a Slurm pilot): the layout of a task's working directory, the cancel script, the load
// probe and how its answer reads.
import { posix } from 'node:path';
import type { AgentTask, CommandResult } from './agent-session.js';
import { shellQuote } from './shell-quote.js';
import type { LoadSample, TaskLaunch } from './endpoint.js';

const KILL_GRACE_S = 2;

/** A cancelled task's process group gets SIGTERM, then SIGKILL this many seconds later. */
export const KILL_SCRIPT_S = KILL_GRACE_S;

/** The storage layout of a run (see endpoint.ts), from the run's directory in a cluster's storage. */
export function filesDirOf(runDir: string): string {
  return posix.join(runDir, 'files');
}

export function workDirOf(runDir: string, workKey: string): string {
  return posix.join(runDir, 'work', workKey);
}

/** The directories a task's inputs and outputs go in, relative to its working directory. */
export function parentDirs(task: TaskLaunch): string[] {
  const dirs = new Set<string>();
  for (const p of [...task.inputs.map((i) => i.path), ...task.outputs]) {
    const d = posix.dirname(p);
    if (d !== '.') dirs.add(d);
  }
  return [...dirs];
}

/**
 * Through the agent, files up to this size travel inline (base64 in its JSON lines), in one round trip
 * instead of SFTP's several, and a task's outputs up to this size in all come back with its exit.
 */
export const INLINE_BYTES = 64 * 1024;

/** A task as the agent runs it, in the run directory `runDir`; outputs adding up to `inlineBytes` come back with its exit. */
export function agentTaskFor(task: TaskLaunch, runDir: string, inlineBytes = 0): AgentTask {
  return {
    ...(inlineBytes > 0 ? { inline: inlineBytes } : {}),
    ...(task.keepOutputBytes !== undefined && task.keepOutputBytes > 0 ? { keep: task.keepOutputBytes } : {}),
    dir: workDirOf(runDir, task.workKey),
    argv: task.argv,
    links: task.inputs.map((i) => [posix.join(filesDirOf(runDir), i.storageName), i.path] as const),
    dirs: parentDirs(task),
    outputs: task.outputs,
  };
}

/** Kills the process group whose id the task wrote in .gridsweep.pid (dash's kill takes no `--`). */
export function killScript(workDir: string): string {
  const pidFile = shellQuote(posix.join(workDir, '.gridsweep.pid'));
  return `p=$(cat ${pidFile} 2>/dev/null) && [ -n "$p" ] && { kill -TERM -"$p" 2>/dev/null; sleep ${KILL_GRACE_S}; kill -KILL -"$p" 2>/dev/null; }; true`;
}

/** Prints "running" while the task in `workDir` has a live process group (its pid file names it). */
export function runningScript(workDir: string): string {
  const pidFile = shellQuote(posix.join(workDir, '.gridsweep.pid'));
  return `p=$(cat ${pidFile} 2>/dev/null) && [ -n "$p" ] && kill -0 -"$p" 2>/dev/null && echo running; true`;
}

export const PROBE_SCRIPT = 'cat /proc/loadavg; nproc';

/** The load probe's answer (`rttMs`: how long it took), or why it is no answer. */
export function parseProbe(r: CommandResult, rttMs: number, label: string): LoadSample {
  if (r.code !== 0) throw new Error(`${label}: the load probe failed (exit ${r.code ?? r.signal}): ${r.stderr.trim().slice(-500)}`);
  const [loadLine, coresLine] = r.stdout.trim().split('\n');
  const load1 = Number(loadLine?.split(' ')[0]);
  const cores = Number(coresLine);
  if (!Number.isFinite(load1) || !Number.isFinite(cores) || cores <= 0) throw new Error(`${label}: unexpected load probe answer`);
  return { load1, cores, rttMs };
}
