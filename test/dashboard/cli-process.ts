// The built `gridsweep` in a child process, as a user starts it with --dashboard: its output, the URL it
// prints, and cleanup of whatever a test left running.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

export const CLI = join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js');

export interface Spawned {
  readonly child: ChildProcess;
  readonly exit: Promise<number | null>;
  out(): string;
  err(): string;
}

const children: Spawned[] = [];

/** Fails when dist/ is missing or older than `source` (a path under the package root). */
export function requireFreshBuild(source: string): void {
  if (!existsSync(CLI) || statSync(CLI).mtimeMs < statSync(join(PACKAGE_ROOT, source)).mtimeMs) {
    throw new Error(`${CLI} is missing or older than its source: run \`npm run build\` before these tests`);
  }
}

export function gridsweep(args: string[], cwd = PACKAGE_ROOT): Spawned {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const spawned = { child, exit, out: () => stdout, err: () => stderr };
  children.push(spawned);
  return spawned;
}

/** The URL the command printed as `dashboard: URL`. */
export async function dashboardUrl(run: Spawned): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const m = /dashboard: (http\S+)/.exec(run.out());
    if (m) return m[1]!;
    if (run.child.exitCode !== null) throw new Error(`gridsweep exited with ${run.child.exitCode}; stderr: ${run.err()}`);
    if (Date.now() > deadline) throw new Error(`no URL printed; stderr: ${run.err()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Kills (SIGKILL) every child still running; for afterEach. */
export async function killChildren(): Promise<void> {
  for (const run of children.splice(0)) {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    await run.exit;
  }
}

/** Runs `use` with a loopback port that another server holds meanwhile. */
export async function withPortInUse(use: (port: number) => Promise<void>): Promise<void> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  try {
    await use((holder.address() as AddressInfo).port);
  } finally {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
  }
}
