// One running Slurm pilot as a machine of the real grid: its cores are hosts. The agent (backends/ssh/
// agent.pl) runs inside the pilot's allocation as a job step (`srun --jobid=J --overlap`, here or on the
// login node), its standard input and output carried by srun: the compute node needs no SSH server and
// no way back to this machine, only what Slurm itself uses. Tasks, cancels and the load probe (the
// heartbeat) go through the agent; files go through the cluster's storage endpoint (this machine, or the
// login node), which shares the storage with the nodes.
import { performance } from 'node:perf_hooks';
import type { ClusterId } from '../../src/model/grid.js';
import type { PilotEndpointSpec } from '../../src/realgrid/real-grid-file.js';
import { AgentLink } from '../transport/agent-link.js';
import type { Deadlines } from '../transport/deadline.js';
import type { Endpoint, LoadSample, TaskExit, TaskLaunch } from '../transport/endpoint.js';
import type { FileFacts } from '../transport/file-facts.js';
import { agentTaskFor, INLINE_BYTES, KILL_SCRIPT_S, killScript, parseProbe, PROBE_SCRIPT, workDirOf } from '../transport/host-scripts.js';
import { agentCommand, taskExitOf } from '../transport/agent-session.js';
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
  private readonly link: AgentLink;
  private firstTaskEnded = false;
  private ranToEnd = 0;

  constructor(
    readonly spec: PilotEndpointSpec,
    readonly clusterId: ClusterId,
    /** The cluster's storage endpoint (local, or the login node over SSH; no hosts of its own). */
    private readonly storage: Endpoint,
    /** The run's directory in that storage, the same path on the nodes. */
    private readonly runDir: string,
    private readonly launch: PilotLaunch,
  ) {
    this.link = new AgentLink(`${spec.name} (Slurm job ${spec.jobId})`, 'its agent (srun) ended');
  }

  connect(): Promise<void> {
    const script = [...this.launch.setup, agentCommand()].join('\n');
    const argv = ['srun', `--jobid=${this.spec.jobId}`, '--overlap', '--nodes=1', '--ntasks=1', `--cpus-per-task=${this.spec.hostIds.length}`, '--mem=0', '--quiet', '/bin/sh', '-c', script];
    return this.link.connect(() => this.launch.access.open(argv), this.launch.deadlines.loginS);
  }

  /** Tasks that ran here to their end, whatever their exit status (the pool gives a cluster up after pilots with none). */
  get tasksEnded(): number {
    return this.ranToEnd;
  }

  isUp(): boolean {
    return this.link.isUp();
  }

  onDown(listener: (reason: string) => void): void {
    this.link.onDown(listener);
  }

  putFile(localPath: string, storageName: string, deadlineS: number): Promise<void> {
    return this.storage.putFile(localPath, storageName, deadlineS);
  }

  removeFile(storageName: string): Promise<void> {
    return this.storage.removeFile(storageName);
  }

  async run(task: TaskLaunch): Promise<TaskExit> {
    const spec = agentTaskFor(task, this.runDir, INLINE_BYTES);
    try {
      const exit = taskExitOf(await this.link.on('a task', Infinity, (a) => a.task(spec)));
      this.ranToEnd++;
      return exit;
    } finally {
      if (!this.firstTaskEnded) {
        this.firstTaskEnded = true;
        this.launch.firstTaskEnded?.();
      }
    }
  }

  async kill(workKey: string): Promise<void> {
    await this.link.on('killing a task', this.launch.deadlines.commandS + KILL_SCRIPT_S, (a) => a.run(killScript(workDirOf(this.runDir, workKey))));
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

  endedWell(workKey: string): Promise<boolean> {
    return this.storage.endedWell(workKey);
  }

  /** Its tasks run on the pilot's node, whose processes this machine cannot see: it cannot tell. */
  stillRunning(): Promise<boolean> {
    return Promise.resolve(true);
  }

  async probe(): Promise<LoadSample> {
    const t0 = performance.now();
    const r = await this.link.on('the load probe', this.launch.deadlines.probeS, (a) => a.run(PROBE_SCRIPT));
    return parseProbe(r, performance.now() - t0, this.spec.name);
  }

  removeRunDir(): Promise<void> {
    return this.storage.removeRunDir();
  }

  /** The pilot's job ended (Slurm says so): down now, whether or not srun has noticed yet. */
  lost(reason: string): void {
    this.link.lost(reason);
  }

  /** Ends the agent: it lets what runs finish, then exits (srun is made to go after 5 s; the pool cancels the job). */
  async close(): Promise<void> {
    this.launch.closed();
    this.link.close(5);
  }
}
