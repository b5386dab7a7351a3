// A benchmark's measurement of a whole command: wall time from spawn to exit, its output, and, when
// /usr/bin/time is there, its process tree's peak resident set (GNU time's %M) and CPU time (%U, %S: the
// command and every descendant it waited for).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const GNU_TIME = '/usr/bin/time';

export interface Timed {
  readonly seconds: number;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Largest resident set of the command's process tree, MB, when measurable. */
  readonly peakMb?: number;
  /** User + system CPU seconds of the command's process tree, when measurable. */
  readonly treeCpuS?: number;
}

/** Runs a command in `cwd` with `env`, timing it from spawn to exit. */
export async function timed(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Timed> {
  const useTime = existsSync(GNU_TIME);
  const full = useTime ? [GNU_TIME, '-f', 'gridsweep-bench-peak-kb %M %U %S', ...argv] : [...argv];
  const t0 = performance.now();
  const child = spawn(full[0]!, full.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seconds = (performance.now() - t0) / 1000;
  const m = /gridsweep-bench-peak-kb (\d+) ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
  if (m) stderr = stderr.slice(0, m.index);
  return { seconds, code, stdout, stderr, ...(m ? { peakMb: Number(m[1]) / 1024, treeCpuS: Number(m[2]) + Number(m[3]) } : {}) };
}
