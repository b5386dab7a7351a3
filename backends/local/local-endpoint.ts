// A cluster on this machine: its storage is a local directory, its hosts are process slots. Tasks run
// through execa with an argv (no shell), each in its own working directory with its inputs symlinked from
// storage, in their own process group so that cancel kills everything they started.
import { execa } from 'execa';
import { copyFile, mkdir, open, rename, rm, symlink } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import type { ClusterId } from '../../src/model/grid.js';
import type { LocalEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import { STDERR_TAIL_BYTES, type Endpoint, type LoadSample, type TaskExit, type TaskLaunch } from '../real/endpoint.js';
import { fileFactsIfPresent, type FileFacts } from '../real/file-facts.js';

const KILL_GRACE_MS = 2000;

async function tail(path: string, bytes: number): Promise<string> {
  try {
    const fh = await open(path, 'r');
    try {
      const { size } = await fh.stat();
      const start = Math.max(0, size - bytes);
      const buf = Buffer.alloc(size - start);
      await fh.read(buf, 0, buf.length, start);
      return buf.toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return '';
  }
}

export class LocalEndpoint implements Endpoint {
  private readonly runDir: string;
  private readonly pids = new Map<string, number>();

  constructor(
    readonly spec: LocalEndpointSpec,
    readonly clusterId: ClusterId,
    storageDir: string,
    runId: string,
  ) {
    this.runDir = join(storageDir, 'gridsweep', runId);
  }

  private filesDir(): string {
    return join(this.runDir, 'files');
  }

  private workDir(workKey: string): string {
    return join(this.runDir, 'work', workKey);
  }

  async connect(): Promise<void> {
    await mkdir(this.filesDir(), { recursive: true });
    await mkdir(join(this.runDir, 'work'), { recursive: true });
  }

  isUp(): boolean {
    return true;
  }

  onDown(): void {
    // this machine does not go away while the controller runs on it
  }

  async putFile(localPath: string, storageName: string): Promise<void> {
    const dest = join(this.filesDir(), storageName);
    const tmp = `${dest}.part`;
    await copyFile(localPath, tmp);
    await rename(tmp, dest);
  }

  async removeFile(storageName: string): Promise<void> {
    await rm(join(this.filesDir(), storageName), { force: true });
  }

  async run(task: TaskLaunch): Promise<TaskExit> {
    const wd = this.workDir(task.workKey);
    await rm(wd, { recursive: true, force: true });
    await mkdir(wd, { recursive: true });
    for (const input of task.inputs) {
      const link = join(wd, input.path);
      await mkdir(dirname(link), { recursive: true });
      await symlink(join(this.filesDir(), input.storageName), link);
    }
    for (const out of task.outputs) await mkdir(dirname(join(wd, out)), { recursive: true });
    const stderrPath = join(wd, '.gridsweep.stderr');
    const child = execa(task.argv[0]!, task.argv.slice(1), {
      cwd: wd,
      shell: false,
      detached: true,
      reject: false,
      stdin: 'ignore',
      stdout: { file: join(wd, '.gridsweep.stdout') },
      stderr: { file: stderrPath },
    });
    if (child.pid !== undefined) this.pids.set(task.workKey, child.pid);
    const result = await child;
    this.pids.delete(task.workKey);
    const stderrTail = await tail(stderrPath, STDERR_TAIL_BYTES);
    if (result.exitCode === undefined && result.signal === undefined) {
      // could not start (command not found, not executable): report like a shell would
      return { exitCode: 127, signal: null, stderrTail: `${stderrTail}${result.shortMessage}`.trim() };
    }
    return { exitCode: result.exitCode ?? null, signal: result.signal ?? null, stderrTail };
  }

  async kill(workKey: string): Promise<void> {
    const pid = this.pids.get(workKey);
    if (pid === undefined) return;
    const signalGroup = (sig: NodeJS.Signals): void => {
      try {
        process.kill(-pid, sig);
      } catch {
        // already gone
      }
    };
    signalGroup('SIGTERM');
    await new Promise((r) => setTimeout(r, KILL_GRACE_MS));
    signalGroup('SIGKILL');
  }

  async outputFacts(workKey: string, paths: readonly string[]): Promise<(FileFacts | undefined)[]> {
    return Promise.all(paths.map((p) => fileFactsIfPresent(join(this.workDir(workKey), p))));
  }

  async fetch(workKey: string, path: string, localPath: string): Promise<void> {
    await copyFile(join(this.workDir(workKey), path), localPath);
  }

  async removeWork(workKey: string): Promise<void> {
    await rm(this.workDir(workKey), { recursive: true, force: true });
  }

  async probe(): Promise<LoadSample> {
    const t0 = performance.now();
    const load1 = loadavg()[0]!;
    return { load1, cores: availableParallelism(), rttMs: performance.now() - t0 };
  }

  async removeRunDir(): Promise<void> {
    await rm(this.runDir, { recursive: true, force: true });
  }

  async close(): Promise<void> {
    await Promise.all([...this.pids.keys()].map((k) => this.kill(k)));
  }
}
