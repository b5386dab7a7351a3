// An in-memory machine that keeps the Endpoint contract (backends/transport/endpoint.ts), for unit tests of the
// run controller: a cluster's storage is a map shared by its machines (inputs and attempt directories), a
// task runs until the test ends it (`finish`), and the test can take the machine down, make it refuse to
// connect, make its storage refuse files, corrupt or stall transfers. What the controller sees is what a
// real endpoint would give it: EndpointDownError for operations in flight when the machine goes down (and
// once it is down), onDown listeners called once per fall, a transfer past its deadline abandoned with the
// machine dropped (as withDeadline does for SSH), outputs hashed on exit 0.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Endpoint, LoadSample, TaskExit, TaskLaunch } from '../../../../backends/transport/endpoint.js';
import { EndpointDownError, PermanentEndpointError } from '../../../../backends/transport/endpoint.js';
import { bufferFacts, type FileFacts } from '../../../../backends/transport/file-facts.js';
import type { ClusterId, HostId } from '../../../../src/model/grid.js';
import type { LocalEndpointSpec } from '../../../../src/realgrid/real-grid-file.js';

/** One attempt directory in a cluster's storage. */
export interface FakeAttempt {
  readonly task: TaskLaunch;
  /** The machine that runs it. */
  readonly machine: string;
  state: 'running' | 'exited' | 'killed';
  exitCode?: number | null;
  readonly files: Map<string, Buffer>;
}

/** A cluster's storage, shared by its machines. */
export class FakeStorage {
  readonly files = new Map<string, Buffer>();
  readonly work = new Map<string, FakeAttempt>();
  /** Attempt directories of earlier runs: `runId/workKey`. */
  readonly earlier = new Map<string, FakeAttempt>();
  /** putFile fails with this message (a full disk, say) while set. */
  refuseFiles: string | undefined;
  /** fetch delivers these bytes instead of the output's (a corrupting link) while set. */
  corruptFetch: Buffer | undefined;
  /** fetch's write at the origin fails with this errno (ENOSPC: the origin is full) while set. */
  originRefuses: string | undefined;
}

interface Pending {
  readonly exit: (e: TaskExit) => void;
  readonly fail: (err: Error) => void;
}

export class FakeEndpoint implements Endpoint {
  readonly spec: LocalEndpointSpec;
  private up = false;
  private readonly downListeners: ((reason: string) => void)[] = [];
  private readonly pending = new Map<string, Pending>();
  private readonly stalled = new Set<() => void>();
  /** connect() fails with this (transient) message while set; `permanent` makes it a PermanentEndpointError. */
  refuseConnect: { message: string; permanent?: boolean } | undefined;
  /** putFile and fetch never finish by themselves (a hung host): they end at their deadline. */
  stallTransfers = false;
  /** Calls, in order, for the tests to check: `kill w0.a1`, `run w0.a1`, `put f0`... */
  readonly calls: string[] = [];
  closed = false;

  constructor(
    name: string,
    hostIds: readonly HostId[],
    readonly clusterId: ClusterId,
    readonly storage: FakeStorage,
  ) {
    this.spec = { kind: 'local', name, hostIds, arch: 0 };
  }

  async connect(): Promise<void> {
    await Promise.resolve();
    if (this.refuseConnect) {
      const { message, permanent } = this.refuseConnect;
      throw permanent ? new PermanentEndpointError(message) : new Error(message);
    }
    this.up = true;
  }

  isUp(): boolean {
    return this.up;
  }

  onDown(listener: (reason: string) => void): void {
    this.downListeners.push(listener);
  }

  /** The machine (or the connection to it) goes away: what is in flight fails, the listeners learn it. */
  goDown(reason: string): void {
    if (!this.up) return;
    this.up = false;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.fail(new EndpointDownError(reason));
    for (const s of [...this.stalled]) s();
    for (const l of this.downListeners) l(reason);
  }

  async putFile(localPath: string, storageName: string, deadlineS: number): Promise<void> {
    this.calls.push(`put ${storageName}`);
    this.mustBeUp();
    if (this.stallTransfers) await this.stall(deadlineS, `putFile ${storageName}`);
    await Promise.resolve();
    this.mustBeUp();
    if (this.storage.refuseFiles !== undefined) throw new Error(this.storage.refuseFiles);
    this.storage.files.set(storageName, readFileSync(localPath));
  }

  async removeFile(storageName: string): Promise<void> {
    this.storage.files.delete(storageName);
  }

  run(task: TaskLaunch): Promise<TaskExit> {
    this.calls.push(`run ${task.workKey}`);
    if (!this.up) return Promise.reject(new EndpointDownError(`${this.spec.name} is down`));
    this.storage.work.set(task.workKey, { task, machine: this.spec.name, state: 'running', files: new Map() });
    return new Promise((exit, fail) => this.pending.set(task.workKey, { exit, fail }));
  }

  /** Whether attempt `workKey` is running here now (its run() not settled). */
  running(workKey: string): boolean {
    return this.pending.has(workKey);
  }

  /**
   * Attempt `workKey` ends: with `exitCode` 0 it writes `outputs` (path → content; by default every output
   * it was asked for, holding its work key) first. Its run() resolves only if this machine is still
   * connected; otherwise the directory alone says how it ended (endedWell).
   */
  finish(workKey: string, exitCode: number, outputs?: Readonly<Record<string, string>>, stderrTail = ''): void {
    const a = this.storage.work.get(workKey);
    if (!a) throw new Error(`fake: no attempt ${workKey}`);
    const contents = outputs ?? Object.fromEntries(a.task.outputs.map((p) => [p, `${workKey} ${p}\n`]));
    if (exitCode === 0) for (const [p, text] of Object.entries(contents)) a.files.set(p, Buffer.from(text));
    a.state = 'exited';
    a.exitCode = exitCode;
    const p = this.pending.get(workKey);
    this.pending.delete(workKey);
    p?.exit({ exitCode, signal: null, stderrTail });
  }

  async kill(workKey: string): Promise<void> {
    this.calls.push(`kill ${workKey}`);
    this.mustBeUp();
    const a = this.storage.work.get(workKey);
    if (a && a.state === 'running') {
      a.state = 'killed';
      a.exitCode = null;
    }
    const p = this.pending.get(workKey);
    this.pending.delete(workKey);
    p?.exit({ exitCode: null, signal: 'SIGTERM', stderrTail: '' });
  }

  async outputFacts(workKey: string, paths: readonly string[]): Promise<(FileFacts | undefined)[]> {
    this.mustBeUp();
    const a = this.storage.work.get(workKey);
    return paths.map((p) => {
      const data = a?.files.get(p);
      return data ? bufferFacts(data) : undefined;
    });
  }

  async fetch(workKey: string, path: string, localPath: string, deadlineS: number): Promise<void> {
    this.calls.push(`fetch ${workKey} ${path}`);
    this.mustBeUp();
    if (this.stallTransfers) await this.stall(deadlineS, `fetch ${workKey}`);
    const data = this.storage.work.get(workKey)?.files.get(path);
    if (!data) throw new Error(`fake: ${workKey}/${path}: no such file`);
    const errno = this.storage.originRefuses;
    if (errno !== undefined) throw Object.assign(new Error(`${errno}: cannot write, write '${localPath}'`), { code: errno });
    writeFileSync(localPath, this.storage.corruptFetch ?? data);
  }

  async removeWork(workKey: string): Promise<void> {
    this.calls.push(`removeWork ${workKey}`);
    this.storage.work.delete(workKey);
  }

  async adopt(runId: string, workKey: string): Promise<boolean> {
    this.mustBeUp();
    const a = this.storage.earlier.get(`${runId}/${workKey}`);
    if (!a || a.state !== 'exited' || a.exitCode !== 0) return false;
    this.storage.earlier.delete(`${runId}/${workKey}`);
    this.storage.work.set(workKey, a);
    return true;
  }

  async endedWell(workKey: string): Promise<boolean> {
    this.mustBeUp();
    const a = this.storage.work.get(workKey);
    return a !== undefined && a.state === 'exited' && a.exitCode === 0;
  }

  async stillRunning(workKey: string): Promise<boolean> {
    this.mustBeUp();
    return this.storage.work.get(workKey)?.state === 'running';
  }

  async probe(): Promise<LoadSample> {
    this.mustBeUp();
    return { load1: 0, cores: this.spec.hostIds.length, rttMs: 1 };
  }

  async removeRunDir(): Promise<void> {
    this.calls.push('removeRunDir');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.up = false;
  }

  private mustBeUp(): void {
    if (!this.up) throw new EndpointDownError(`${this.spec.name} is down`);
  }

  /** Waits for ever (a hung host) until `deadlineS`, then drops the machine as a real endpoint does. */
  private stall(deadlineS: number, what: string): Promise<never> {
    return new Promise((_, reject) => {
      const timer = setTimeout(() => {
        this.stalled.delete(wake);
        this.goDown(`${what}: no answer within ${deadlineS} s`);
        reject(new EndpointDownError(`${what}: no answer within ${deadlineS} s`));
      }, deadlineS * 1000);
      const wake = (): void => {
        clearTimeout(timer);
        this.stalled.delete(wake);
        reject(new EndpointDownError(`${this.spec.name} is down`));
      };
      this.stalled.add(wake);
    });
  }
}
