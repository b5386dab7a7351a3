// One running Slurm pilot as a machine of the real grid: its cores are hosts. The agent (backends/ssh/
// agent.pl) runs inside the pilot's allocation as a job step (`srun --jobid=J --overlap`, here or on the
// login node), its standard input and output carried by srun: the compute node needs no SSH server and
// no way back to this machine, only what Slurm itself uses. Tasks, cancels and the load probe (the heartbeat) go through the agent;
// files go through the cluster's storage, which this machine shares with the nodes.
import { performance } from 'node:perf_hooks';
import type { ClusterId } from '../../src/model/grid.js';
import type { PilotEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import { withDeadline, type Deadlines } from '../real/deadline.js';
import { EndpointDownError, type Endpoint, type LoadSample, type TaskExit, type TaskLaunch } from '../real/endpoint.js';
import type { FileFacts } from '../real/file-facts.js';
import { agentTaskFor, KILL_SCRIPT_S, killScript, parseProbe, PROBE_SCRIPT, workDirOf } from '../real/host-scripts.js';
import { agentCommand, AgentSession, taskExitOf, type Channel, type CommandResult } from '../ssh/agent-session.js';
import type { SlurmAccess } from './slurm-access.js';

export interface PilotLaunch {
  /** Where srun runs (this machine, or the login node). */
  readonly access: SlurmAccess;
  /** Shell lines run before the agent starts (`module load …`). */
  readonly setup: readonly string[];
  readonly deadlines: Deadlines;
  /** Called once the grid has closed this pilot (its hosts all left). */
  readonly closed: () => void;
  /** Called once, when the first task run here ends, before its exit is handed back (per-Work jobs). */
  readonly firstTaskEnded?: () => void;
}

export class PilotEndpoint implements Endpoint {
  private agent: AgentSession | undefined;
  /** srun's standard input and output, the agent's channel. */
  private srun: Channel | undefined;
  private up = false;
  private generation = 0;
  private readonly downListeners: ((reason: string) => void)[] = [];

  constructor(
    readonly spec: PilotEndpointSpec,
    readonly clusterId: ClusterId,
    /** The cluster's storage as this machine sees it (a local endpoint with no hosts). */
    private readonly storage: Endpoint,
    /** The run's directory in that storage, the same path on the nodes. */
    private readonly runDir: string,
    private launch: PilotLaunch,
  ) {}

  private get label(): string {
    return `${this.spec.name} (Slurm job ${this.spec.jobId})`;
  }

  async connect(): Promise<void> {
    if (this.up) return;
    const script = [...this.launch.setup, agentCommand()].join('\n');
    const argv = ['srun', `--jobid=${this.spec.jobId}`, '--overlap', '--nodes=1', '--ntasks=1', `--cpus-per-task=${this.spec.hostIds.length}`, '--mem=0', '--quiet', '/bin/sh', '-c', script];
    const generation = ++this.generation;
    const loginS = this.launch.deadlines.loginS;
    let channel: Channel | undefined;
    try {
      channel = await withDeadline(this.launch.access.open(argv), loginS, `${this.label}: srun did not start within ${loginS} s`, () => undefined);
      const opened = channel;
      this.agent = await withDeadline(AgentSession.attach(opened, this.label), loginS, `${this.label}: the agent did not start within ${loginS} s`, () => opened.close());
    } catch (err) {
      channel?.close();
      throw err instanceof EndpointDownError ? err : new EndpointDownError(`${this.label}: ${(err as Error).message}`);
    }
    this.srun = channel;
    channel.on('close', () => this.wentDown(generation, 'its agent (srun) ended'));
    this.up = true;
  }

  private wentDown(generation: number, reason: string): void {
    if (generation !== this.generation || !this.up) return;
    this.drop();
    for (const l of this.downListeners) l(reason);
  }

  private drop(): void {
    this.up = false;
    this.agent?.close();
    this.agent = undefined;
    this.srun?.close();
    this.srun = undefined;
  }

  isUp(): boolean {
    return this.up;
  }

  onDown(listener: (reason: string) => void): void {
    this.downListeners.push(listener);
  }

  /** Runs `op` on the agent; past `deadlineS` the pilot counts as down (a hung node answers nothing). */
  private async onAgent<T>(what: string, deadlineS: number, op: (agent: AgentSession) => Promise<T>): Promise<T> {
    const agent = this.agent;
    if (!this.up || !agent) throw new EndpointDownError(`${this.label} is down`);
    const generation = this.generation;
    const late = `no answer to ${what} within ${deadlineS} s`;
    return withDeadline(op(agent), deadlineS, `${this.label} went down: ${late}`, () => this.wentDown(generation, late));
  }

  putFile(localPath: string, storageName: string, deadlineS: number): Promise<void> {
    return this.storage.putFile(localPath, storageName, deadlineS);
  }

  removeFile(storageName: string): Promise<void> {
    return this.storage.removeFile(storageName);
  }

  async run(task: TaskLaunch): Promise<TaskExit> {
    const spec = agentTaskFor(task, this.runDir);
    try {
      return taskExitOf(await this.onAgent('a task', Infinity, (a) => a.task(spec)));
    } finally {
      const hook = this.launch.firstTaskEnded;
      this.launch = { ...this.launch, firstTaskEnded: undefined };
      hook?.();
    }
  }

  async kill(workKey: string): Promise<void> {
    await this.onAgent('killing a task', this.launch.deadlines.commandS + KILL_SCRIPT_S, (a) => a.run(killScript(workDirOf(this.runDir, workKey))));
  }

  outputFacts(workKey: string, paths: readonly string[]): Promise<(FileFacts | undefined)[]> {
    return this.storage.outputFacts(workKey, paths);
  }

  fetch(workKey: string, path: string, localPath: string, deadlineS: number): Promise<void> {
    return this.storage.fetch(workKey, path, localPath, deadlineS);
  }

  removeWork(workKey: string): Promise<void> {
    return this.storage.removeWork(workKey);
  }

  adopt(runId: string, workKey: string): Promise<boolean> {
    return this.storage.adopt(runId, workKey);
  }

  async probe(): Promise<LoadSample> {
    const t0 = performance.now();
    const r: CommandResult = await this.onAgent('the load probe', this.launch.deadlines.probeS, (a) => a.run(PROBE_SCRIPT));
    if (r.code !== 0) throw new Error(`${this.label}: the load probe failed (exit ${r.code ?? r.signal}): ${r.stderr.trim().slice(-500)}`);
    return parseProbe(r.stdout, performance.now() - t0, this.label);
  }

  removeRunDir(): Promise<void> {
    return this.storage.removeRunDir();
  }

  /** The pilot's job ended (Slurm says so): down now, whether or not srun has noticed yet. */
  lost(reason: string): void {
    this.wentDown(this.generation, reason);
  }

  /** Ends the agent: it lets what runs finish, then exits (the pilot pool cancels the job). */
  async close(): Promise<void> {
    this.launch.closed();
    this.generation++;
    const srun = this.srun;
    this.up = false;
    this.agent?.close();
    this.agent = undefined;
    this.srun = undefined;
    if (srun) {
      // the agent exits once its input ends; srun is made to go if it has not after 5 s
      const closeLater = setTimeout(() => srun.close(), 5000).unref();
      srun.on('close', () => clearTimeout(closeLater));
    }
  }
}
