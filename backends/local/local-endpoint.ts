// A cluster on this machine: its storage is a local directory, its hosts are process slots. Tasks run
// through a local agent (backends/transport/agent.pl, the one SSH hosts and Slurm pilots run), started as a
// child process: each task with an argv (no shell) in its own working directory with its inputs linked
// from storage, in a session of its own that cancel kills whole, its outputs hashed by the agent and, when
// small, sent back with its exit (as over SSH: no copy, no second hash, no round trip per output). So one
// code path runs tasks everywhere. Finished tasks' directories are removed by the agent a batch at a time;
// larger files are copied by this process directly.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import type { ClusterId } from '../../src/model/grid.js';
import type { LocalEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import { channelOf } from '../transport/child-channel.js';
import { AgentLink } from '../transport/agent-link.js';
import { Batcher } from '../transport/batcher.js';
import type { Endpoint, LoadSample, TaskExit, TaskLaunch } from '../transport/endpoint.js';
import { fileFactsIfPresent, type FileFacts } from '../transport/file-facts.js';
import { agentTaskFor, INLINE_BYTES, KILL_SCRIPT_S, killScript, workDirOf } from '../transport/host-scripts.js';
import { agentCommand, taskExitOf } from '../transport/agent-session.js';

/** How long the local agent may take to start, a cancel to finish, and the agent to exit once closed. */
const AGENT_START_S = 30;
const KILL_DEADLINE_S = 30 + KILL_SCRIPT_S;
const AGENT_CLOSE_GRACE_S = 5;
/** Finished tasks' directories wait this long (or for this many more) to be removed together. */
const REMOVAL_BATCH_MS = 500;
const REMOVAL_BATCH_MAX = 200;

export class LocalEndpoint implements Endpoint {
  private readonly runDir: string;
  private readonly link: AgentLink;
  /** Working directories of the tasks running now (close() cancels them). */
  private readonly running = new Set<string>();
  /** A cluster's storage seen from here (no slots) is up once its directories exist. */
  private storageReady = false;
  /**
   * Finished tasks' directories, removed a batch at a time by the agent (one child process per batch,
   * not a tree walk in this process per task); what is left at the end goes with the run directory.
   */
  private readonly removals = new Batcher<string>(REMOVAL_BATCH_MS, REMOVAL_BATCH_MAX, (dirs) => this.link.on('removing working directories', KILL_DEADLINE_S, (a) => a.remove(dirs)));

  constructor(
    readonly spec: LocalEndpointSpec,
    readonly clusterId: ClusterId,
    storageDir: string,
    runId: string,
  ) {
    this.runDir = join(storageDir, 'gridsweep', runId);
    this.link = new AgentLink(`${spec.name} (local agent)`, 'the local agent ended');
  }

  private filesDir(): string {
    return join(this.runDir, 'files');
  }

  private workDir(workKey: string): string {
    return workDirOf(this.runDir, workKey);
  }

  /** Makes the run's directories and, if this machine has slots here, starts the local agent. */
  async connect(): Promise<void> {
    await mkdir(this.filesDir(), { recursive: true });
    await mkdir(join(this.runDir, 'work'), { recursive: true });
    this.storageReady = true;
    if (this.spec.hostIds.length > 0) {
      await this.link.connect(async () => channelOf(spawn('/bin/sh', ['-c', agentCommand()], { stdio: ['pipe', 'pipe', 'pipe'] })), AGENT_START_S);
    }
  }

  isUp(): boolean {
    return this.spec.hostIds.length > 0 ? this.link.isUp() : this.storageReady;
  }

  onDown(listener: (reason: string) => void): void {
    this.link.onDown(listener);
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
    const spec = agentTaskFor(task, this.runDir, INLINE_BYTES);
    this.running.add(task.workKey);
    try {
      return taskExitOf(await this.link.on('a task', Infinity, (a) => a.task(spec)));
    } finally {
      this.running.delete(task.workKey);
    }
  }

  async kill(workKey: string): Promise<void> {
    await this.link.on('cancelling a task', KILL_DEADLINE_S, (a) => a.run(killScript(this.workDir(workKey))));
  }

  async outputFacts(workKey: string, paths: readonly string[]): Promise<(FileFacts | undefined)[]> {
    return Promise.all(paths.map((p) => fileFactsIfPresent(join(this.workDir(workKey), p))));
  }

  async fetch(workKey: string, path: string, localPath: string): Promise<void> {
    await copyFile(join(this.workDir(workKey), path), localPath);
  }

  async adopt(runId: string, workKey: string): Promise<boolean> {
    const earlier = workDirOf(join(dirname(this.runDir), runId), workKey);
    const exit = await readFile(join(earlier, '.gridsweep.exit'), 'utf8').catch(() => '');
    if (exit.trim() !== '0') return false;
    await rename(earlier, this.workDir(workKey));
    return true;
  }

  async endedWell(workKey: string): Promise<boolean> {
    return (await readFile(join(this.workDir(workKey), '.gridsweep.exit'), 'utf8').catch(() => '')).trim() === '0';
  }

  async stillRunning(workKey: string): Promise<boolean> {
    const group = Number((await readFile(join(this.workDir(workKey), '.gridsweep.pid'), 'utf8').catch(() => '')).trim());
    if (!Number.isInteger(group) || group <= 0) return false;
    try {
      process.kill(-group, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  async removeWork(workKey: string): Promise<void> {
    if (this.link.isUp()) await this.removals.add(this.workDir(workKey));
    else await rm(this.workDir(workKey), { recursive: true, force: true });
  }

  async probe(): Promise<LoadSample> {
    const t0 = performance.now();
    const load1 = loadavg()[0]!;
    return { load1, cores: availableParallelism(), rttMs: performance.now() - t0 };
  }

  async removeRunDir(): Promise<void> {
    await rm(this.runDir, { recursive: true, force: true });
  }

  /** Cancels the tasks still running, then lets the agent go (it exits once its input ends). */
  async close(): Promise<void> {
    if (this.link.isUp()) await Promise.all([...this.running].map((k) => this.kill(k).catch(() => undefined)));
    this.storageReady = false;
    this.link.close(AGENT_CLOSE_GRACE_S);
  }
}
