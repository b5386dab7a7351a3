// The controller's side of the agent (agent.pl): one channel per host (an SSH exec channel, a local child's
// standard input and output, srun in a Slurm pilot) carrying every command of the run as a line of JSON
// each way, instead of a channel per command. The agent's source travels as the
// channel's command line (perl -e), so nothing is installed on the host.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { EndpointDownError, PermanentEndpointError, type TaskExit } from './endpoint.js';
import { shellQuote } from './shell-quote.js';

/** What a command on a host gave: its standard output and error, and how it ended. */
export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  readonly signal: string | null;
}

/** A byte stream each way to the agent: an ssh2 exec channel (which ships without types), or a child process's pipes. */
export interface Channel {
  write(data: string): boolean;
  end(): void;
  close(): void;
  on(event: 'data', fn: (data: Buffer) => void): void;
  on(event: 'close', fn: () => void): void;
  stderr: { on(event: 'data', fn: (data: Buffer) => void): void };
}

/** The little of an ssh2 client used here. */
export interface ExecClient {
  exec(command: string, callback: (err: Error | undefined, channel: Channel) => void): void;
}

/** A task as the agent prepares, runs and measures it (agent.pl's "task" request). */
export interface AgentTask {
  /** The working directory, made afresh. */
  readonly dir: string;
  readonly argv: readonly string[];
  /** [target, path in the working directory] for each input. */
  readonly links: readonly (readonly [string, string])[];
  /** Directories to make in the working directory (the inputs' and outputs' parents). */
  readonly dirs: readonly string[];
  readonly outputs: readonly string[];
  /** The outputs come back whole with the exit while their sizes add up to at most this many bytes. */
  readonly inline?: number;
  /** Keep the task's standard output too, and send back the last this-many bytes of it and of its standard error. */
  readonly keep?: number;
}

/** An output as the agent reports it: size and SHA-256, and its bytes (base64) when it came inline. */
type AgentOutput = [number, string] | [number, string, string];

export interface AgentTaskExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** The last 4000 bytes of the task's standard error. */
  readonly stderr: string;
  /** On exit 0: [size, sha256(, base64 bytes)] of each output, null where it is missing. */
  readonly outputs?: readonly (AgentOutput | null)[];
  /** With `keep`: [size in all, base64 of the last `keep` bytes] of its standard output, then of its standard error. */
  readonly kept?: readonly (readonly [number, string])[];
  /** The inputs (paths in the working directory) whose stored file was gone: the task did not run. */
  readonly missing?: readonly string[];
}

/** A task's exit as the agent reports it, as endpoints report it. */
export function taskExitOf(r: AgentTaskExit): TaskExit {
  const [out, err] = r.kept ?? [];
  const kept =
    out && err
      ? { kept: { stdout: Buffer.from(out[1], 'base64'), stdoutBytes: out[0], stderr: Buffer.from(err[1], 'base64'), stderrBytes: err[0] } }
      : {};
  const exit = { exitCode: r.code, signal: r.signal, stderrTail: r.stderr, ...kept, ...(r.missing ? { missingInputs: r.missing } : {}) };
  if (r.code !== 0) return exit;
  const outputs = r.outputs ?? [];
  const outputData = outputs.map((f) => (f?.[2] !== undefined ? Buffer.from(f[2], 'base64') : undefined));
  return {
    ...exit,
    outputs: outputs.map((f) => (f === null ? undefined : { sizeBytes: f[0], sha256: f[1] })),
    ...(outputData.some((d) => d !== undefined) ? { outputData } : {}),
  };
}

interface AgentAnswer {
  readonly id: number;
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout?: string;
  readonly stderr: string;
  readonly outputs?: readonly (AgentOutput | null)[];
  readonly kept?: readonly (readonly [number, string])[];
  readonly data?: string;
  readonly missing?: readonly string[];
  /** A ranged read's file size. */
  readonly size?: number;
}

let agentSource: string | undefined;

/** What a POSIX shell says when `exec perl` finds no perl (dash and bash: "exec: perl: not found"; zsh: "command not found: perl"). */
const PERL_MISSING = /\bperl: (?:command )?not found|\bperl: No such file or directory|command not found: perl\b/i;

/** The shell command that starts the agent: its perl source, with its comments left out (it travels on every connection). */
export function agentCommand(): string {
  agentSource ??= readFileSync(join(PACKAGE_ROOT, 'backends/transport/agent.pl'), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*#/.test(line) && line.trim() !== '')
    .join('\n');
  return `exec perl -e ${shellQuote(agentSource)}`;
}

/** The agent sends bytes above 127 as \u00XX: back to the bytes, read as UTF-8. */
function bytesOf(text: string): string {
  return /[\u0080-\u00ff]/.test(text) ? Buffer.from(text, 'latin1').toString('utf8') : text;
}

/** The agent's answer on `line`, or undefined when the line is not one. */
function answerIn(line: string): AgentAnswer | undefined {
  try {
    const answer = JSON.parse(line) as unknown;
    return typeof answer === 'object' && answer !== null && typeof (answer as { id?: unknown }).id === 'number' ? (answer as AgentAnswer) : undefined;
  } catch {
    return undefined;
  }
}

export class AgentSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (a: AgentAnswer) => void; reject: (err: Error) => void }>();
  private received = '';
  private unsent = '';
  private agentStderr = '';
  private closedBecause: string | undefined;
  /** Until the agent's first answer, lines that are not JSON are what the login shell printed: skipped. */
  private answered = false;

  private constructor(
    private readonly channel: Channel,
    private readonly label: string,
  ) {
    channel.on('data', (data) => this.receive(data));
    channel.stderr.on('data', (data) => {
      this.agentStderr = (this.agentStderr + data.toString('utf8')).slice(-2000);
    });
    channel.on('close', () => this.closed(`the agent's channel closed${this.agentStderr ? `: ${this.agentStderr.trim()}` : ''}`));
  }

  /**
   * Opens the channel and starts the agent; the first command answered proves it runs. `command` is
   * agentCommand() as the host's login shell must be given it.
   */
  static open(client: ExecClient, label: string, command = agentCommand()): Promise<AgentSession> {
    return new Promise((resolve, reject) => {
      client.exec(command, (err, channel) => {
        if (err) {
          reject(new EndpointDownError(`${label}: cannot start the agent: ${err.message}`));
          return;
        }
        AgentSession.attach(channel, label).then(resolve, reject);
      });
    });
  }

  /** Talks to an agent started on `channel`; the first command answered proves it runs. */
  static async attach(channel: Channel, label: string): Promise<AgentSession> {
    const session = new AgentSession(channel, label);
    const r = await session.run('true').catch((err: Error) => {
      // The shell found no perl: trying again would find none either (a minimal image, say).
      if (!session.answered && PERL_MISSING.test(session.agentStderr)) {
        throw new PermanentEndpointError(`${label}: perl is not installed there, and the agent is a perl script: install perl, or (an SSH host) set "transport": "exec" for it (${session.agentStderr.trim().slice(0, 200)})`);
      }
      throw err;
    });
    if (r.code !== 0) throw new EndpointDownError(`${label}: the agent does not run commands (exit ${r.code ?? r.signal}): ${r.stderr}`);
    return session;
  }

  /** Runs a shell script on the host; rejects with EndpointDownError if the agent goes away first. */
  async run(script: string): Promise<CommandResult> {
    const a = await this.request({ script });
    return { stdout: bytesOf(a.stdout ?? ''), stderr: bytesOf(a.stderr), code: a.code, signal: a.signal };
  }

  /** Runs a task (see AgentTask); rejects with EndpointDownError if the agent goes away first. */
  async task(task: AgentTask): Promise<AgentTaskExit> {
    const a = await this.request({ task });
    return { code: a.code, signal: a.signal, stderr: bytesOf(a.stderr), ...(a.outputs ? { outputs: a.outputs } : {}), ...(a.kept ? { kept: a.kept } : {}), ...(a.missing ? { missing: a.missing } : {}) };
  }

  /**
   * Writes a small file on the host whole (to path.part, then renamed), or one part of a larger one: a part
   * after the first has `append`, a part before the last `more` (path.part is renamed after the last).
   */
  async write(path: string, data: Buffer, part: { readonly append?: boolean; readonly more?: boolean } = {}): Promise<void> {
    const a = await this.request({ write: { path, data: data.toString('base64'), ...(part.append ? { append: true } : {}), ...(part.more ? { more: true } : {}) } });
    if (a.code !== 0) throw new Error(`${this.label}: ${a.stderr}`);
  }

  /** Reads at most `max` bytes of a file on the host from `offset` on, and the file's size. */
  async readPart(path: string, offset: number, max: number): Promise<{ readonly data: Buffer; readonly sizeBytes: number }> {
    const a = await this.request({ read: { path, offset, max } });
    if (a.code !== 0) throw new Error(`${this.label}: ${a.stderr}`);
    return { data: Buffer.from(a.data ?? '', 'base64'), sizeBytes: a.size ?? 0 };
  }

  /** Reads a file on the host whole, or undefined when it is larger than `max` bytes. */
  async read(path: string, max: number): Promise<Buffer | undefined> {
    const a = await this.request({ read: { path, max } });
    if (a.code === 0) return Buffer.from(a.data ?? '', 'base64');
    if (/ is larger than \d+ bytes$/.test(a.stderr)) return undefined;
    throw new Error(`${this.label}: ${a.stderr}`);
  }

  /** Removes directory trees on the host (in one child of the agent's); rejects with what could not be removed. */
  async remove(paths: readonly string[]): Promise<void> {
    const a = await this.request({ remove: { paths } });
    if (a.code !== 0) throw new Error(`${this.label}: ${bytesOf(a.stderr).trim() || `removing ${paths.length} director(ies) failed`}`);
  }

  private request(body: object): Promise<AgentAnswer> {
    if (this.closedBecause !== undefined) return Promise.reject(new EndpointDownError(`${this.label}: ${this.closedBecause}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send(`${JSON.stringify({ id, ...body })}\n`);
    });
  }

  /** Requests made in one turn of the event loop leave together: one SSH packet and one system call, not one each. */
  private send(line: string): void {
    this.unsent += line;
    if (this.unsent.length > line.length) return;
    setImmediate(() => {
      const lines = this.unsent;
      this.unsent = '';
      if (this.closedBecause === undefined) this.channel.write(lines);
    });
  }

  close(): void {
    this.closed('closed');
    this.channel.end();
  }

  private receive(data: Buffer): void {
    this.received += data.toString('latin1');
    let newline: number;
    while ((newline = this.received.indexOf('\n')) >= 0) {
      const line = this.received.slice(0, newline);
      this.received = this.received.slice(newline + 1);
      // A ~/.bashrc that echoes a welcome prints it before the shell execs the agent (without a newline
      // of its own, on the agent's first line).
      const answer = answerIn(this.answered ? line : line.slice(Math.max(0, line.indexOf('{"'))));
      if (answer === undefined) {
        if (!this.answered) continue;
        this.closed(`the agent sent something that is not JSON: ${line.slice(0, 200)}`);
        return;
      }
      this.answered = true;
      const waiting = this.pending.get(answer.id);
      if (waiting === undefined) continue;
      this.pending.delete(answer.id);
      waiting.resolve(answer);
    }
  }

  private closed(reason: string): void {
    if (this.closedBecause !== undefined) return;
    this.closedBecause = reason;
    const err = new EndpointDownError(`${this.label}: ${reason}`);
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
