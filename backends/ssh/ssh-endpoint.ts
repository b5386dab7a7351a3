// One SSH host: one persistent connection (node-ssh over ssh2) with keep-alives, host keys checked against
// known_hosts, SFTP for files (sftp-session.ts), and every remote command built from single-quoted arguments.
// Channels are bounded with p-queue (sshd allows 10 sessions per connection): running tasks in one queue (one
// per slot, at most 6 here), short operations in another (3), the load probe in a third (1). With the agent
// (agent-session.ts) every command goes through its one channel instead, under the same queues, and a host
// may have any number of slots. Every operation is abandoned with EndpointDownError the moment its connection
// is lost (ssh2 leaves some calls, such as an SFTP download cut mid-way, pending forever otherwise) or when
// it misses its deadline (backends/transport/deadline.ts): then the connection is dropped and the host counts
// as down, since a hung host keeps its connection open and answers nothing. A running task has no deadline:
// the load probe, which has one, is the heartbeat that notices its host hang. A host with a jump host is
// connected to through it (jump-hosts.ts).
import { NodeSSH } from 'node-ssh';
import PQueue from 'p-queue';
import { performance } from 'node:perf_hooks';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { posix } from 'node:path';
import type { ClusterId } from '../../src/model/grid.js';
import type { SshEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import {
  EndpointDownError,
  PermanentEndpointError,
  STDERR_TAIL_BYTES,
  type Endpoint,
  type LoadSample,
  type TaskExit,
  type TaskLaunch,
} from '../transport/endpoint.js';
import type { FileFacts } from '../transport/file-facts.js';
import { Batcher } from '../transport/batcher.js';
import { downloadInParts, uploadInParts } from '../transport/agent-parts.js';
import type { CommandShell } from '../transport/command-shell.js';
import { withDeadline } from '../transport/deadline.js';
import { agentTaskFor, filesDirOf, INLINE_BYTES, KILL_SCRIPT_S, killScript, parentDirs, parseProbe, PROBE_SCRIPT, runningScript, workDirOf } from '../transport/host-scripts.js';
import { AgentSession, agentCommand, taskExitOf, type Channel, type CommandResult, type ExecClient } from '../transport/agent-session.js';
import { knownHostsName } from './known-hosts.js';
import { throughJumpHost } from './jump-hosts.js';
import { agentSocketOf, connectAs, destroyConnection, lastingLoginRefusal, type LoginTerms } from './login-connection.js';
import { shellCommand, shellQuote } from '../transport/shell-quote.js';
import { LOGIN_SHELL_COMMAND, readLoginShellAnswer, takesPosixCommands, throughPosixShell } from './login-shell.js';
import { noSftpServer, SftpSession, type Sftp } from './sftp-session.js';

const SHORT_OPERATION_CHANNELS = 3;
const REMOVAL_BATCH_MS = 500;
const REMOVAL_BATCH_MAX = 200;

/**
 * Why the connection went, when `err` is ssh2's client reporting its own loss (a keep-alive timeout, a socket
 * error), which it also hands to the operations waiting for a channel; undefined for any other error.
 */
function connectionLoss(err: Error): string | undefined {
  const level = (err as { level?: unknown }).level;
  if (level !== 'client-timeout' && level !== 'client-socket') return undefined;
  return /keepalive/i.test(err.message) ? 'keep-alive timeout' : `connection error: ${err.message}`;
}

/**
 * Printed first by every command of the exec transport: what a chatty login shell prints before it (a
 * ~/.bashrc that echoes a welcome, a module system's notice) is cut off there instead of being read as the
 * command's answer. (The agent skips such lines itself: agent-session.ts.)
 */
const OUTPUT_MARK = '--gridsweep-output--';

function afterOutputMark(stdout: string): string {
  const at = stdout.indexOf(`${OUTPUT_MARK}\n`);
  return at < 0 ? stdout : stdout.slice(at + OUTPUT_MARK.length + 1);
}

/** A channel the server refused to open (sshd's MaxSessions reached, say): it answered, so the host is up. */
function channelRefused(err: unknown): boolean {
  return err instanceof Error && /\(SSH\) Channel open failure/.test(err.message);
}

/**
 * Runs `attempt` again while the server refuses it a channel, waiting 50 ms, doubling to 1 s, between tries:
 * the connection's other channels close in time. Each try has its own deadline.
 */
async function whileChannelsRefused<T>(attempt: () => Promise<T>, onRefused: () => void = () => undefined): Promise<T> {
  for (let waitMs = 50; ; waitMs = Math.min(1000, 2 * waitMs)) {
    try {
      return await attempt();
    } catch (err) {
      if (!channelRefused(err)) throw err;
    }
    onRefused();
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

/** How the exec transport's task script names an input gone from the storage, one line each on standard error. */
const MISSING_INPUT = 'gridsweep: missing input: ';

/** Errors that mean the connection itself is broken, even before ssh2 reports it closed. */
function isTransportError(err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EPIPE' || code === 'ECONNRESET' || /No response from server|Not connected/i.test(err.message);
}

/** Shell loop printing "SIZE SHA256" (or MISSING) for each path, one line each, in order. */
function factsLoop(paths: readonly string[]): string {
  if (paths.length === 0) return 'true';
  return `for f in ${shellCommand(paths)}; do if [ -f "$f" ]; then printf '%s %s\\n' "$(stat -c %s -- "$f")" "$(sha256sum < "$f" | cut -c1-64)"; else echo MISSING; fi; done`;
}

function parseFacts(out: string, count: number): (FileFacts | undefined)[] {
  if (count === 0) return [];
  const lines = out.trim().split('\n');
  if (lines.length !== count) throw new Error(`unexpected answer when checking outputs: ${out.slice(0, 200)}`);
  return lines.map((line) => {
    const m = /^(\d+) ([0-9a-f]{64})$/.exec(line.trim());
    return m ? { sizeBytes: Number(m[1]), sha256: m[2]! } : undefined;
  });
}

export interface SshEndpointOptions {
  /** Add unknown hosts to known_hosts (OpenSSH's StrictHostKeyChecking=accept-new). */
  readonly acceptNew: boolean;
  /** Replaces the grid file's login deadline. */
  readonly readyTimeoutMs?: number;
}

/** Why a command at login ended without an exit status: killed, or the connection went (which says nothing of the host). */
function loginCommandCut(signal: string | null, connectionError: string | undefined): string {
  return signal ? `the login command was killed (${signal})` : `the connection went down during the login command (${connectionError ?? 'connection closed'})`;
}

export class SshEndpoint implements Endpoint, CommandShell {
  private ssh: NodeSSH | undefined;
  /** A connection being set up; close() abandons it. */
  private connecting: NodeSSH | undefined;
  /** Why the current connection is going, as its client's last error said (a keep-alive timeout, say). */
  private connectionError: string | undefined;
  /** What the login shell printed on standard output before the first command's own (its start-up files'). */
  private loginOutput: string | undefined;
  /** The login shell takes commands written for a POSIX shell as they are (else they go encoded). */
  private posixLogin = true;
  /** With "transport": "agent", the agent on the current connection runs every command. */
  private agent: AgentSession | undefined;
  /** The current connection's SFTP session (an idle one is closed when a command needs its channel). */
  private readonly sftp = new SftpSession();
  /**
   * The agent's connection cannot have SFTP: sshd refused it a channel (MaxSessions 1, which the agent holds
   * for the whole connection) or has no SFTP server. Files too large for one request go through the agent
   * in parts.
   */
  private sftpRefused = false;
  /** Connections for long-lived channels (openChannel), beside the main one. */
  private sideConnections: NodeSSH[] = [];
  private readonly channelOpens = new PQueue({ concurrency: 1 });
  private up = false;
  private generation = 0;
  /** Rejects with EndpointDownError when the current connection is lost or closed. */
  private lost: Promise<never> = Promise.race([]);
  private loseConnection: (reason: string) => void = () => undefined;
  private readonly downListeners: ((reason: string) => void)[] = [];
  private readonly tasks: PQueue;
  private readonly ops = new PQueue({ concurrency: SHORT_OPERATION_CHANNELS });
  /** The load probe has a channel of its own: as the heartbeat, it must not wait behind slow operations. */
  private readonly heartbeat = new PQueue({ concurrency: 1 });
  /**
   * Finished tasks' directories, removed a batch at a time through the agent: one process on the host per
   * batch, not per task (what is left at the end goes with the run directory).
   */
  private readonly removals = new Batcher<string>(REMOVAL_BATCH_MS, REMOVAL_BATCH_MAX, (dirs) =>
    this.ops.add(() =>
      this.onConnection('removing working directories', this.spec.deadlines.commandS, () => this.agent?.remove(dirs) ?? Promise.reject(new EndpointDownError(`${this.label} is down`))),
    ),
  );
  private readonly runDir: string;

  constructor(
    readonly spec: SshEndpointSpec,
    readonly clusterId: ClusterId,
    storageDir: string,
    runId: string,
    private readonly options: SshEndpointOptions,
  ) {
    // A Slurm cluster's login node has no hosts of its own: it runs no task.
    this.tasks = new PQueue({ concurrency: Math.max(1, spec.hostIds.length) });
    this.runDir = posix.join(storageDir, 'gridsweep', runId);
  }

  private filesDir(): string {
    return filesDirOf(this.runDir);
  }

  private workDir(workKey: string): string {
    return workDirOf(this.runDir, workKey);
  }

  private get label(): string {
    return `${this.spec.name} (${this.spec.user}@${knownHostsName(this.spec.address, this.spec.port)})`;
  }

  /** A command line as this host's login shell must be given it (login-shell.ts). */
  private forLoginShell(command: string): string {
    return this.posixLogin ? command : throughPosixShell(command);
  }

  private get loginS(): number {
    return this.options.readyTimeoutMs !== undefined ? this.options.readyTimeoutMs / 1000 : this.spec.deadlines.loginS;
  }

  /** Opens an SSH connection to the host (key exchange and authentication); `keyProblem` hears a refused host key. */
  private async open(ssh: NodeSSH, keyProblem: (reason: string) => void): Promise<void> {
    const agent = agentSocketOf(this.spec);
    if (this.spec.agent && agent === undefined) {
      throw new PermanentEndpointError(`${this.label}: "agent": true but SSH_AUTH_SOCK is not set; start ssh-agent or use "identityFile"`);
    }
    const terms = this.loginTerms();
    const jump = this.spec.jump;
    const sock = jump && (await throughJumpHost(jump, this.spec.address, this.spec.port, { ...terms, label: this.label }));
    await connectAs(ssh, this.spec, agent, terms, keyProblem, sock).catch((err: unknown) => {
      sock?.destroy();
      throw err;
    });
  }

  private loginTerms(): LoginTerms {
    const { keepaliveIntervalMs, keepaliveCountMax } = this.spec;
    return { deadlineS: this.loginS, keepaliveIntervalMs, keepaliveCountMax, acceptNew: this.options.acceptNew };
  }

  async connect(): Promise<void> {
    if (this.up) return;
    const ssh = new NodeSSH();
    let keyProblem: string | undefined;
    this.connecting = ssh;
    this.connectionError = undefined;
    try {
      await this.open(ssh, (reason) => (keyProblem = reason));
      if (this.connecting !== ssh) throw new EndpointDownError(`${this.label}: closed while connecting`);
      // node-ssh stops listening for the client's errors once it is ready; from then on an error with no
      // listener (a keep-alive timeout during the login command, on a link that loses packets) would throw
      // out of the event loop and stop the run. Listened to from here on, for as long as the client lives.
      (ssh.connection as unknown as NodeJS.EventEmitter).on('error', (err: Error) => {
        if (this.connecting === ssh || this.ssh === ssh) this.connectionError = connectionLoss(err) ?? `connection error: ${err.message}`;
      });
      // The first command goes through the login shell, whose start-up files can hang (a network home); it
      // says which shell that is, and so how later commands are to be written (login-shell.ts).
      const loginS = this.loginS;
      const noAnswer = `${this.label}: no answer from its login shell within ${loginS} s (a start-up file or home directory that hangs?)`;
      // sshd frees a closed channel's session a moment after the client hears it closed: with MaxSessions
      // 1 the next command's channel may be refused meanwhile, so each waits for one, within the deadline.
      // Refused still at the deadline, nothing of this run's holding a channel: sshd gives it none.
      const atLogin = async <T>(step: () => Promise<T>, late: string): Promise<T> => {
        let refused = false;
        const attempt = (): Promise<T> => {
          refused = false;
          return step();
        };
        try {
          return await withDeadline(whileChannelsRefused(attempt, () => (refused = true)), loginS, late, () => destroyConnection(ssh));
        } catch (err) {
          if (!refused || !(err instanceof EndpointDownError)) throw err;
          throw new EndpointDownError(`${this.label}: its sshd refused every channel for ${loginS} s, with none of this run's open (MaxSessions 0 in its sshd_config?)`);
        }
      };
      const asked = await atLogin(() => ssh.execCommand(LOGIN_SHELL_COMMAND), noAnswer);
      const answer = readLoginShellAnswer(asked.stdout);
      if (asked.code === null) throw new EndpointDownError(`${this.label}: ${loginCommandCut(asked.signal, this.connectionError)}`);
      if (asked.code !== 0 || answer === undefined) {
        throw new PermanentEndpointError(`${this.label}: its login shell does not run the command \`${LOGIN_SHELL_COMMAND}\` (exit ${asked.code}): ${asked.stderr.trim().slice(0, 200)}`);
      }
      this.loginOutput = answer.printed;
      this.sftpRefused = false;
      this.posixLogin = takesPosixCommands(answer.shell);
      const mkdir = `mkdir -p ${shellQuote(this.filesDir())} ${shellQuote(posix.join(this.runDir, 'work'))}`;
      const r = await atLogin(() => ssh.execCommand(this.forLoginShell(mkdir)), noAnswer);
      // No exit status: the connection went during the command (or it was killed), which says nothing of
      // the host's storage.
      if (r.code === null) throw new EndpointDownError(`${this.label}: ${loginCommandCut(r.signal, this.connectionError)}`);
      if (r.code !== 0) throw new PermanentEndpointError(`${this.label}: cannot create the storage directory ${this.runDir}: ${r.stderr.trim()}`);
      // The exec transport moves every file by SFTP: a host without it can never serve (the agent
      // carries files itself). Asked once here, where the answer can set the host aside.
      if (this.spec.transport === 'exec') await atLogin(() => this.checkSftp(ssh), `${this.label}: no answer to opening SFTP within ${loginS} s`);
      if (this.spec.transport === 'agent') {
        const client = ssh.connection as unknown as ExecClient;
        this.agent = await atLogin(() => AgentSession.open(client, this.label, this.forLoginShell(agentCommand())), `${this.label}: the agent did not start within ${loginS} s`);
      }
    } catch (err) {
      destroyConnection(ssh);
      this.agent?.close();
      this.agent = undefined;
      if (err instanceof EndpointDownError || err instanceof PermanentEndpointError) throw err;
      if (this.connecting !== ssh) throw new EndpointDownError(`${this.label}: closed while connecting`);
      if (keyProblem !== undefined) throw new PermanentEndpointError(`${this.label}: ${keyProblem}`);
      const message = (err as Error).message;
      const refusal = lastingLoginRefusal(message, this.spec.identityFile);
      if (refusal !== undefined) throw new PermanentEndpointError(`${this.label}: ${refusal}`);
      throw new Error(`${this.label}: ${message}`);
    }
    this.connecting = undefined;
    const connection = ssh.connection as unknown as NodeJS.EventEmitter;
    const generation = ++this.generation;
    this.lost = new Promise<never>((_, reject) => {
      this.loseConnection = (reason) => reject(new EndpointDownError(`${this.label} went down: ${reason}`));
    });
    this.lost.catch(() => undefined); // only operations in flight care
    connection.on('close', () => this.wentDown(generation, this.connectionError ?? 'connection closed'));
    this.ssh = ssh;
    this.up = true;
    this.sftp.forget();
  }

  private wentDown(generation: number, reason: string): void {
    if (generation !== this.generation || !this.up) return;
    this.dropConnection(reason);
    for (const l of this.downListeners) l(reason);
  }

  /** Forgets the connection: the operations in flight on it fail (lost), and it is closed. */
  private dropConnection(reason: string): void {
    const ssh = this.ssh;
    this.up = false;
    this.ssh = undefined;
    this.sftp.forget();
    this.loseConnection(reason);
    this.agent?.close();
    this.agent = undefined;
    if (ssh) destroyConnection(ssh);
  }

  isUp(): boolean {
    return this.up;
  }

  onDown(listener: (reason: string) => void): void {
    this.downListeners.push(listener);
  }

  private connection(): NodeSSH {
    if (!this.up || !this.ssh) throw new EndpointDownError(`${this.label} is down`);
    return this.ssh;
  }

  /**
   * Runs `op` on the current connection. It rejects with EndpointDownError as soon as that connection is
   * lost, or `deadlineS` after it started (the connection is then dropped), whether or not `op` ever
   * settles; a transport error from `op` counts as that loss.
   */
  private async onConnection<T>(what: string, deadlineS: number, op: (ssh: NodeSSH) => Promise<T>): Promise<T> {
    const ssh = this.connection();
    const generation = this.generation;
    const lost = this.lost;
    const late = `no answer to ${what} within ${+deadlineS.toPrecision(3)} s`;
    try {
      return await withDeadline(Promise.race([op(ssh), lost]), deadlineS, `${this.label} went down: ${late}`, () => this.wentDown(generation, late));
    } catch (err) {
      if (err instanceof EndpointDownError) throw err;
      // The connection's own error, when it is what the operation met, says why better than the operation.
      const loss = connectionLoss(err as Error) ?? (isTransportError(err as Error) ? this.connectionError : undefined);
      if (generation === this.generation && this.up && loss === undefined && !isTransportError(err as Error)) throw err;
      this.wentDown(generation, loss ?? `${what}: ${(err as Error).message}`);
      throw new EndpointDownError(`${this.label} went down during ${what}: ${(err as Error).message}`);
    }
  }

  /** Runs a shell command line; rejects with EndpointDownError when the connection is lost meanwhile. */
  private async execOn(queue: PQueue, command: string, what: string, deadlineS: number): Promise<CommandResult> {
    const attempt = async (): Promise<CommandResult> =>
      (await queue.add(() =>
        this.onConnection(what, deadlineS, async (ssh) => {
          if (this.agent) return this.agent.run(command);
          const r = await ssh.execCommand(this.forLoginShell(`printf '%s\\n' ${OUTPUT_MARK}\n${command}`), { noTrim: true });
          if (r.code === null && r.signal === null && !ssh.isConnected()) throw new EndpointDownError(`${this.label} went down during a command`);
          return { ...r, stdout: afterOutputMark(r.stdout) };
        }),
      ))!;
    // A refused channel is an answer: the load probe, the heartbeat, takes it as one and tries next time;
    // anything else waits for a channel instead of failing (a task would count it as its own failure).
    return queue === this.heartbeat ? attempt() : whileChannelsRefused(attempt, () => this.sftp.closeIdle());
  }

  private exec(command: string, what: string, deadlineS = this.spec.deadlines.commandS): Promise<CommandResult> {
    return this.execOn(this.ops, command, what, deadlineS);
  }

  private async mustExec(command: string, what: string): Promise<string> {
    const r = await this.exec(command, what);
    if (r.code !== 0) throw new Error(`${this.label}: ${what} failed (exit ${r.code ?? r.signal}): ${r.stderr.trim().slice(-500)}`);
    return r.stdout;
  }

  private async sftpCall(what: string, deadlineS: number, call: (s: Sftp, cb: (err: Error | null | undefined) => void) => void): Promise<void> {
    // Under the agent nothing of this run's can free a channel: the agent holds its own for the whole
    // connection, and SFTP is the only other one. Its refusal is answered at once (refusedSftp).
    const tries = this.agent ? <T>(attempt: () => Promise<T>): Promise<T> => attempt() : whileChannelsRefused;
    try {
      await tries(() =>
        this.ops.add(() => this.onConnection(what, deadlineS, (ssh) => this.sftp.call(ssh, call))),
      );
    } catch (err) {
      if (err instanceof EndpointDownError) throw err;
      // A string code (ENOSPC...) is this machine's file system's (SFTP's own codes are numbers): kept, so
      // that a download the origin cannot hold is told from one the host cannot give (origin-failure.ts).
      const code = (err as { code?: unknown }).code;
      // SFTP's server is started through the login shell (unless sshd has it built in): what that shell
      // prints is read as SFTP's answer, and fails it.
      const hint =
        this.loginOutput !== undefined && typeof code !== 'string'
          ? ` (its login shell prints ${JSON.stringify(this.loginOutput.split('\n')[0])} on standard output, which breaks SFTP: make its start-up files print only in interactive shells)`
          : '';
      throw Object.assign(new Error(`${this.label}: ${what}: ${(err as Error).message}${hint}`), typeof code === 'string' ? { code } : {});
    }
  }

  async putFile(localPath: string, storageName: string, deadlineS: number): Promise<void> {
    const dest = posix.join(this.filesDir(), storageName);
    if (this.agent && statSync(localPath).size <= INLINE_BYTES) {
      const data = readFileSync(localPath);
      await this.ops.add(() => this.onConnection(`the upload of ${storageName}`, deadlineS, () => this.agent!.write(dest, data)));
      return;
    }
    if (this.agent && this.sftpUnusable()) {
      await this.ops.add(() => this.onConnection(`the upload of ${storageName}`, deadlineS, () => uploadInParts(this.agent!, localPath, dest)));
      return;
    }
    const tmp = `${dest}.part`;
    try {
      await this.sftpCall(`the upload of ${storageName}`, deadlineS, (s, cb) => s.fastPut(localPath, tmp, cb));
    } catch (err) {
      if (this.refusedSftp(err)) return this.putFile(localPath, storageName, deadlineS);
      throw await this.whyUploadFailed(err, statSync(localPath).size);
    }
    await this.sftpCall(`the rename of ${storageName}`, this.spec.deadlines.commandS, (s, cb) => s.ext_openssh_rename(tmp, dest, cb));
  }

  /**
   * An SFTP server answers a write it cannot do with a bare "Failure" (OpenSSH's sftp-server maps ENOSPC
   * to it). So the run can say why, the host is asked how much room its storage has; when too little for
   * the file, the error says so. Any other case, or a host that cannot tell, keeps the error as it was.
   */
  private async whyUploadFailed(err: unknown, sizeBytes: number): Promise<unknown> {
    if (err instanceof EndpointDownError || !(err instanceof Error) || !/: Failure$/.test(err.message)) return err;
    try {
      const r = await this.exec(`df -Pk ${shellQuote(this.filesDir())} | tail -n 1`, 'the free space of the storage');
      const freeKb = Number(r.stdout.trim().split(/\s+/)[3]);
      if (r.code === 0 && Number.isFinite(freeKb) && freeKb * 1024 < sizeBytes + 4096) {
        return Object.assign(new Error(`${err.message}: No space left on device (the storage's file system has ${freeKb} KB free, the file is ${Math.ceil(sizeBytes / 1024)} KB)`), { cause: err });
      }
    } catch {
      // the host cannot tell: the error stays as it was
    }
    return err;
  }

  async removeFile(storageName: string): Promise<void> {
    await this.mustExec(`rm -f -- ${shellQuote(posix.join(this.filesDir(), storageName))}`, 'removing a stored file');
  }

  /** The remote script that prepares a task's working directory and runs it in its own session. */
  taskScript(task: TaskLaunch): string {
    const wd = this.workDir(task.workKey);
    const lines = [`rm -rf ${shellQuote(wd)} && mkdir -p ${shellQuote(wd)} && cd ${shellQuote(wd)} || exit 200`];
    const dirs = parentDirs(task);
    if (dirs.length > 0) lines.push(`mkdir -p -- ${shellCommand(dirs)} || exit 200`);
    // Inputs are hard-linked, so that the task keeps them if their stored names go meanwhile (a scratch
    // purge); symbolic links where the file system has none. An input gone from the storage since it was
    // stored is named, and the task does not run.
    for (const i of task.inputs) {
      const target = shellQuote(posix.join(this.filesDir(), i.storageName));
      const path = shellQuote(i.path);
      lines.push(
        `if ln -- ${target} ${path} 2>/dev/null; then :; elif [ -e ${target} ]; then ln -s -- ${target} ${path} || exit 200; else printf '${MISSING_INPUT}%s\\n' ${path} >&2; gridsweep_missing=1; fi`,
      );
    }
    if (task.inputs.length > 0) lines.push('[ -z "$gridsweep_missing" ] || exit 200');
    // setsid makes the task a process-group leader whose id (written to .gridsweep.pid) cancel() kills.
    lines.push(
      `setsid -w sh -c 'echo $$ > .gridsweep.pid; exec "$@" < /dev/null > /dev/null 2> .gridsweep.stderr' gridsweep-task ${shellCommand(task.argv)}`,
      'code=$?',
      'echo "$code" > .gridsweep.exit',
      `tail -c ${STDERR_TAIL_BYTES} .gridsweep.stderr >&2`,
      // On success, report the outputs' sizes and hashes in the same round trip.
      `[ $code -eq 0 ] && ${factsLoop(task.outputs)}`,
      'exit $code',
    );
    return lines.join('\n');
  }

  async run(task: TaskLaunch): Promise<TaskExit> {
    if (this.agent) return this.runThroughAgent(task);
    const r = await this.execOn(this.tasks, this.taskScript(task), 'a task', Infinity);
    const missingInputs = r.code === 200 ? r.stderr.split('\n').flatMap((l) => (l.startsWith(MISSING_INPUT) ? [l.slice(MISSING_INPUT.length)] : [])) : [];
    if (missingInputs.length > 0) return { exitCode: r.code, signal: r.signal, stderrTail: r.stderr.slice(-STDERR_TAIL_BYTES), missingInputs };
    const exit = { exitCode: r.code, signal: r.signal, stderrTail: r.stderr.slice(-STDERR_TAIL_BYTES) };
    return r.code === 0 ? { ...exit, outputs: parseFacts(r.stdout, task.outputs.length) } : exit;
  }

  /** The agent prepares the working directory, runs the task and measures its outputs itself. */
  private async runThroughAgent(task: TaskLaunch): Promise<TaskExit> {
    const spec = agentTaskFor(task, this.runDir, INLINE_BYTES);
    return taskExitOf((await this.tasks.add(() => this.onConnection('a task', Infinity, () => this.agent!.task(spec))))!);
  }

  async kill(workKey: string): Promise<void> {
    await this.exec(killScript(this.workDir(workKey)), 'killing a task', this.spec.deadlines.commandS + KILL_SCRIPT_S);
  }

  async outputFacts(workKey: string, paths: readonly string[]): Promise<(FileFacts | undefined)[]> {
    if (paths.length === 0) return [];
    const out = await this.mustExec(`cd ${shellQuote(this.workDir(workKey))} && ${factsLoop(paths)}`, 'checking outputs');
    return parseFacts(out, paths.length);
  }

  async fetch(workKey: string, path: string, localPath: string, deadlineS: number): Promise<void> {
    const remote = posix.join(this.workDir(workKey), path);
    // Where SFTP cannot work, the agent brings the file whatever its size (a small one in one part).
    if (this.agent && this.sftpUnusable()) {
      await this.ops.add(() => this.onConnection(`the download of ${path}`, deadlineS, () => downloadInParts(this.agent!, remote, localPath)));
      return;
    }
    if (this.agent) {
      const data = await this.ops.add(() => this.onConnection(`the download of ${path}`, deadlineS, () => this.agent!.read(remote, INLINE_BYTES)));
      if (data !== undefined) {
        writeFileSync(localPath, data);
        return;
      }
    }
    try {
      await this.sftpCall(`the download of ${path}`, deadlineS, (s, cb) => s.fastGet(remote, localPath, cb));
    } catch (err) {
      if (this.refusedSftp(err)) return this.fetch(workKey, path, localPath, deadlineS);
      throw err;
    }
  }

  /** Opens and closes an SFTP session; throws PermanentEndpointError if sshd has no SFTP server. */
  private async checkSftp(ssh: NodeSSH): Promise<void> {
    try {
      ((await ssh.requestSFTP()) as unknown as Sftp).end();
    } catch (err) {
      if (channelRefused(err)) throw err; // waited for, as the login's commands are
      // Any other failure (a login shell whose output breaks SFTP, say) is for the transfers to report.
      if (!noSftpServer(err)) return;
      throw new PermanentEndpointError(`${this.label}: its sshd offers no SFTP (no "Subsystem sftp" in its sshd_config), through which the exec transport moves files: leave out "transport": "exec" (the agent carries files itself), or enable SFTP there`);
    }
  }

  /**
   * With the agent, SFTP needs a second channel on the connection. Where it cannot work (the login shell
   * prints on standard output, which breaks it, sshd refuses that channel, or has no SFTP server), files go
   * through the agent.
   */
  private sftpUnusable(): boolean {
    return this.loginOutput !== undefined || this.sftpRefused;
  }

  /** True, and remembered for the connection, if `err` is the agent's connection refusing SFTP. */
  private refusedSftp(err: unknown): boolean {
    if (!this.agent || !(channelRefused(err) || noSftpServer(err))) return false;
    this.sftpRefused = true;
    return true;
  }

  async adopt(runId: string, workKey: string): Promise<boolean> {
    const earlier = shellQuote(workDirOf(posix.join(posix.dirname(this.runDir), runId), workKey));
    const out = await this.mustExec(`if [ "$(cat ${earlier}/.gridsweep.exit 2>/dev/null)" = 0 ]; then mv ${earlier} ${shellQuote(this.workDir(workKey))} && echo adopted; fi`, 'adopting a finished task');
    return out.trim() === 'adopted';
  }

  async endedWell(workKey: string): Promise<boolean> {
    const exitFile = shellQuote(posix.join(this.workDir(workKey), '.gridsweep.exit'));
    return (await this.mustExec(`cat ${exitFile} 2>/dev/null; true`, 'checking how a task ended')).trim() === '0';
  }

  async stillRunning(workKey: string): Promise<boolean> {
    return (await this.mustExec(runningScript(this.workDir(workKey)), 'checking whether a task runs')).trim() === 'running';
  }

  async removeWork(workKey: string): Promise<void> {
    const dir = this.workDir(workKey);
    if (this.agent) await this.removals.add(dir);
    else await this.mustExec(`rm -rf -- ${shellQuote(dir)}`, 'removing a working directory');
  }

  async probe(): Promise<LoadSample> {
    const t0 = performance.now();
    const r = await this.execOn(this.heartbeat, PROBE_SCRIPT, 'the load probe', this.spec.deadlines.probeS);
    return parseProbe(r, performance.now() - t0, this.label);
  }

  async removeRunDir(): Promise<void> {
    await this.mustExec(`rm -rf -- ${shellQuote(this.runDir)}`, 'removing the run directory');
  }

  async close(): Promise<void> {
    this.generation++;
    const connecting = this.connecting;
    this.connecting = undefined;
    if (connecting) destroyConnection(connecting);
    this.dropConnection('closed');
    for (const side of this.sideConnections) destroyConnection(side);
    this.sideConnections = [];
  }

  /** Runs an argv on the host through the same quoting as tasks (a Slurm command, a test's, `probe`'s). */
  async runArgv(argv: readonly string[]): Promise<CommandResult> {
    return this.exec(shellCommand(argv), 'a command');
  }

  /**
   * Starts an argv on the host on an exec channel of its own (a Slurm pilot's agent, through srun). Such a
   * channel lives as long as its pilot, and sshd allows a connection MaxSessions channels (10 by default):
   * so these go on connections of their own, another opened when those have no room, and never take the
   * main connection's (its commands, transfers and agent would wait for a pilot to end).
   */
  async openChannel(argv: readonly string[]): Promise<Channel> {
    this.connection(); // the host is up
    const command = this.forLoginShell(shellCommand(argv));
    // One at a time: pilots starting together share a connection instead of each opening one (sshd
    // drops connections beyond MaxStartups that have not yet logged in).
    return (await this.channelOpens.add(() => this.openChannelNow(command)))!;
  }

  private async openChannelNow(command: string): Promise<Channel> {
    // Within the login deadline, or that connection is dropped: a host that hangs stalls no later pilot.
    const onto = (ssh: NodeSSH): Promise<Channel> => withDeadline(execChannel(ssh, command), this.loginS, `${this.label}: no answer to opening a channel within ${this.loginS} s`, () => destroyConnection(ssh));
    for (const ssh of [...this.sideConnections]) {
      try {
        return await onto(ssh);
      } catch (err) {
        // Full (MaxSessions): the next. Anything else: that connection is going; another replaces it.
        if (channelRefused(err)) continue;
        this.sideConnections = this.sideConnections.filter((c) => c !== ssh);
        destroyConnection(ssh);
      }
    }
    const side = new NodeSSH();
    try {
      await withDeadline(this.open(side, () => undefined), this.loginS, `${this.label}: no answer to another connection within ${this.loginS} s`, () => destroyConnection(side));
      const connection = side.connection as unknown as NodeJS.EventEmitter;
      connection.on('error', () => undefined); // its channels report its loss (node-ssh no longer listens)
      connection.on('close', () => (this.sideConnections = this.sideConnections.filter((c) => c !== side)));
      const channel = await onto(side);
      this.sideConnections.push(side);
      return channel;
    } catch (err) {
      destroyConnection(side);
      if (err instanceof EndpointDownError || err instanceof PermanentEndpointError) throw err;
      throw new EndpointDownError(`${this.label}: cannot open a channel on another connection: ${(err as Error).message}`);
    }
  }
}

/** Opens an exec channel running `command` on `ssh`'s connection. */
function execChannel(ssh: NodeSSH, command: string): Promise<Channel> {
  const client = ssh.connection as unknown as ExecClient;
  return new Promise((resolve, reject) => client.exec(command, (err, channel) => (err ? reject(err) : resolve(channel))));
}
