// The endpoint contract: what the real grid needs from one machine of a cluster (this machine, an SSH host,
// a Slurm pilot), whatever transport reaches it: put files into the cluster's storage, run a task in its own
// working directory with its inputs linked from storage, report the size and SHA-256 of its outputs, fetch
// them, kill a task's process group, and measure its load.
//
// Storage layout, under the cluster's storage directory:
//   gridsweep/<runId>/files/<storageName>     input files, each stored once per cluster
//   gridsweep/<runId>/work/<workKey>/         one working directory per task attempt (shared by the
//                                             cluster's hosts, so any of them can fetch the outputs)
import type { ClusterId } from '../../src/model/grid.js';
import type { EndpointSpec } from '../../src/realgrid/real-grid-file.js';
import type { FileFacts } from './file-facts.js';

export interface TaskLaunch {
  /** Name of the task's working directory (unique per attempt). */
  readonly workKey: string;
  readonly argv: readonly string[];
  /** Inputs to link into the working directory: stored name → relative path in the working directory. */
  readonly inputs: readonly { readonly storageName: string; readonly path: string }[];
  /** Relative output paths; their parent directories are created before the task starts. */
  readonly outputs: readonly string[];
  /**
   * Keep the task's standard output and error and bring back the last this-many bytes of each with its
   * exit (TaskExit.kept). Endpoints without the agent ("transport": "exec") bring back neither.
   */
  readonly keepOutputBytes?: number;
}

/** The ends of a task's standard output and error, as TaskLaunch.keepOutputBytes asked. */
export interface KeptOutput {
  /** The last bytes of its standard output, and how many it wrote in all. */
  readonly stdout: Buffer;
  readonly stdoutBytes: number;
  readonly stderr: Buffer;
  readonly stderrBytes: number;
}

export interface TaskExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The last few KB of the task's standard error. */
  readonly stderrTail: string;
  /** With TaskLaunch.keepOutputBytes, where the endpoint supports it. */
  readonly kept?: KeptOutput;
  /** Size and SHA-256 of each output (undefined where missing), when the endpoint measured them on exit 0. */
  readonly outputs?: readonly (FileFacts | undefined)[];
  /** The bytes of the outputs small enough to come back with the exit (through the agent), undefined for the others. */
  readonly outputData?: readonly (Buffer | undefined)[];
  /** Inputs (paths in the working directory) whose file was gone from the cluster's storage: the task did not run. */
  readonly missingInputs?: readonly string[];
}

export interface LoadSample {
  readonly load1: number;
  readonly cores: number;
  /** Round-trip time of the probe, milliseconds (the link latency for SSH hosts). */
  readonly rttMs: number;
}

/** The machine or the connection to it went away while an operation was in flight. */
export class EndpointDownError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EndpointDownError';
  }
}

/** A failure that retrying will not cure (e.g. a host key mismatch). */
export class PermanentEndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentEndpointError';
  }
}

export const STDERR_TAIL_BYTES = 4000;

export interface Endpoint {
  readonly spec: EndpointSpec;
  readonly clusterId: ClusterId;
  /** Connects (or reconnects) and prepares the run directories. Throws PermanentEndpointError when hopeless. */
  connect(): Promise<void>;
  isUp(): boolean;
  /** Called once each time the endpoint goes down after having been up. */
  onDown(listener: (reason: string) => void): void;
  /** Abandoned (EndpointDownError, the endpoint down) after `deadlineS`. */
  putFile(localPath: string, storageName: string, deadlineS: number): Promise<void>;
  removeFile(storageName: string): Promise<void>;
  run(task: TaskLaunch): Promise<TaskExit>;
  kill(workKey: string): Promise<void>;
  /** Size and SHA-256 of each output in the task's working directory, undefined where missing. */
  outputFacts(workKey: string, paths: readonly string[]): Promise<(FileFacts | undefined)[]>;
  /** Abandoned (EndpointDownError, the endpoint down) after `deadlineS`. */
  fetch(workKey: string, path: string, localPath: string, deadlineS: number): Promise<void>;
  removeWork(workKey: string): Promise<void>;
  /**
   * A task attempt of an earlier run of the same journal (its run directory `runId`) that exited 0 while
   * no controller was there: its working directory is moved into this run's under the same key, and true
   * returned. False when it did not end (yet) or did not exit 0.
   */
  adopt(runId: string, workKey: string): Promise<boolean>;
  /** This run's task attempt `workKey`, lost with its connection, has exited 0 since (its directory says so). */
  endedWell(workKey: string): Promise<boolean>;
  /**
   * This run's task attempt `workKey`, lost with its connection and not ended well: whether its process
   * group still runs (a machine killed or restarted leaves none). True where the endpoint cannot tell.
   */
  stillRunning(workKey: string): Promise<boolean>;
  probe(): Promise<LoadSample>;
  /** Removes this run's directory from the storage. */
  removeRunDir(): Promise<void>;
  close(): Promise<void>;
}

/** Availability (0–1) a new single-threaded task can expect on a host with this load. */
export function availabilityFromLoad(sample: LoadSample): number {
  return Math.max(0, Math.min(1, sample.cores / (sample.load1 + 1)));
}
