// The Slurm client commands gridsweep uses (where they run and their deadline: slurm-access.ts): sbatch to
// submit a pilot, squeue to see what became of the run's jobs (one call for all of them), scancel to end
// them. They find the cluster as any Slurm command does (SLURM_CONF, or the system's slurm.conf).
import type { SlurmAccess } from './slurm-access.js';

export interface SlurmJobState {
  readonly jobId: string;
  /** PENDING, RUNNING, COMPLETING, COMPLETED, CANCELLED, TIMEOUT, PREEMPTED, NODE_FAIL, FAILED, … */
  readonly state: string;
  /** Start time (expected start while pending), seconds since the epoch, when Slurm knows it. */
  readonly startEpochS?: number;
  /** End time (the walltime's end while running), seconds since the epoch, when Slurm knows it. */
  readonly endEpochS?: number;
  /** Why it waits (Resources, Priority, …) or None. */
  readonly reason: string;
}

/** States in which a job still holds, or will hold, its cores. */
export function jobIsAlive(state: string): boolean {
  return ['PENDING', 'CONFIGURING', 'RUNNING', 'RESIZING', 'SUSPENDED', 'REQUEUED', 'REQUEUE_HOLD', 'REQUEUE_FED', 'SIGNALING', 'STAGE_OUT'].includes(state);
}

export class SlurmCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SlurmCommandError';
  }
}

/** Slurm prints local times without a zone, e.g. 2026-11-25T09:30:40; Unknown and N/A mean none. */
function epochOf(text: string): number | undefined {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(text)) return undefined;
  const ms = new Date(text).getTime();
  return Number.isFinite(ms) ? ms / 1000 : undefined;
}

export class SlurmCommands {
  constructor(private readonly access: SlurmAccess) {}

  private async run(command: string, args: readonly string[]): Promise<string> {
    let r;
    try {
      r = await this.access.run([command, ...args]);
    } catch (err) {
      throw new SlurmCommandError(`${command}: ${(err as Error).message}`);
    }
    if (r.code !== 0) throw new SlurmCommandError(`${command} ${args.join(' ')}: ${r.stderr.trim() || `exit ${r.code ?? r.signal}`}`);
    return r.stdout;
  }

  /** Submits a batch job; resolves with its id. */
  async sbatch(args: readonly string[]): Promise<string> {
    const out = await this.run('sbatch', ['--parsable', ...args]);
    const jobId = out.trim().split(';')[0] ?? '';
    if (!/^\d+$/.test(jobId)) throw new SlurmCommandError(`sbatch answered "${out.trim()}" instead of a job id`);
    return jobId;
  }

  /** Every job of this user with that name that Slurm still remembers, ended ones included. */
  async jobsNamed(name: string): Promise<SlurmJobState[]> {
    const out = await this.run('squeue', ['--noheader', '--states=all', `--name=${name}`, '--me', '--format=%i|%T|%S|%e|%r']);
    const jobs: SlurmJobState[] = [];
    for (const line of out.split('\n')) {
      const [jobId, state, start, end, reason] = line.trim().split('|');
      if (!jobId || !state) continue;
      const startEpochS = epochOf(start ?? '');
      const endEpochS = epochOf(end ?? '');
      jobs.push({ jobId, state, reason: reason ?? '', ...(startEpochS !== undefined ? { startEpochS } : {}), ...(endEpochS !== undefined ? { endEpochS } : {}) });
    }
    return jobs;
  }

  async scancel(jobIds: readonly string[]): Promise<void> {
    if (jobIds.length > 0) await this.run('scancel', [...jobIds]);
  }
}
