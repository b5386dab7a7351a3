// `gridsweep` in a child process, started from its TypeScript source (node --import tsx src/cli/main.ts) so
// that the real-grid tests need no build first.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { PACKAGE_ROOT } from '../../../src/util/package-root.js';

/** Starts `gridsweep ARGS` in the package root, stdout and stderr piped (`env`: its environment). */
export function spawnGridsweep(args: readonly string[], env: NodeJS.ProcessEnv = process.env): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, ['--import', 'tsx', join(PACKAGE_ROOT, 'src', 'cli', 'main.ts'), ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
}

/** Runs `gridsweep ARGS` to its end: its exit code and all it wrote. */
export function runGridsweep(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnGridsweep(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
