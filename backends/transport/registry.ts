// The transport registry: how the run controller and the prober reach the machines of a real grid file,
// keyed by the file's host kind ("local", "ssh", "slurm"). Each transport is one object in its own folder
// (backends/<kind>/transport.ts): its kind, one line of help, how to build an endpoint for a machine the
// grid file names, and, for a cluster whose hosts come as batch jobs, the pool that brings them and what its
// batch system says of the cluster (for the prober, which describes it as a simulated batch cluster). The one
// list of transports is backends/transports.ts; the controller and the prober find a transport there and
// nowhere else, so a new transport is one file and one line in that list.
import type { Clock } from '../../src/interfaces/clock.js';
import type { ClusterId } from '../../src/model/grid.js';
import type { RecordSink } from '../../src/record/events.js';
import type { GridEndpointSpec, RealClusterSpec } from '../../src/realgrid/real-grid-file.js';
import type { Deadlines } from './deadline.js';
import type { Endpoint } from './endpoint.js';
import type { ProgressEvent } from './progress-events.js';

/** A real grid file's host kind: the key of the registry. */
export type HostKind = RealClusterSpec['kind'];

/** The machine entries of the grid file that a transport of kind K builds endpoints for. */
export type MachineSpecOf<K extends HostKind> = Extract<GridEndpointSpec, { readonly kind: K }>;

/** What building an endpoint needs beyond the grid file's entry. */
export interface EndpointContext {
  /** This run's (or probe's) id: its files go under gridsweep/<runId>/ in the cluster's storage. */
  readonly runId: string;
  /** Accept and remember a host key not yet known (SSH). */
  readonly acceptNew: boolean;
  /** How long a machine may take to accept the connection, ms (the prober's; default: the grid file's login deadline). */
  readonly connectTimeoutMs?: number;
}

/** What a host pool needs of the run: bring machines in and out, and know whether Works remain. */
export interface PoolGrid {
  /** Brings a machine into the run (connect, then offer its hosts to the scheduler). */
  join(clusterId: ClusterId, e: Endpoint, quiet: boolean): void;
  /** Takes a machine out: idle hosts leave now, a computing one after its task. */
  retire(clusterId: ClusterId, name: string, quiet: boolean): void;
  /** Works not yet verified at the origin nor given up. */
  worksLeft(): number;
}

/** What building a host pool needs of the run. */
export interface HostPoolContext {
  /** This run's directory in the cluster's storage. */
  readonly runDir: string;
  /** Every batch job of the run carries this name (a resumed run finds those of the run it continues). */
  readonly jobName: string;
  readonly grid: PoolGrid;
  readonly clock: Clock;
  readonly record: RecordSink;
  readonly log: (event: ProgressEvent) => void;
  readonly deadlines: Deadlines;
  /**
   * The pool gave up (its jobs kept ending with no task run on them: the rule of src/batch/submission.ts)
   * and none of its jobs is left: it brings no more hosts. `why` says so in a sentence.
   */
  readonly exhausted?: (clusterId: ClusterId, why: string) => void;
}

/** The hosts of a batch cluster: batch jobs whose cores join the run while they run. */
export interface HostPool {
  readonly clusterId: ClusterId;
  /** Jobs submitted so far, and the queue wait of each that started, seconds. */
  readonly submitted: number;
  readonly queueWaitsS: readonly number[];
  /** Why it submits no more jobs (its jobs kept ending with no task run on them); undefined while it submits. */
  readonly gaveUp: string | undefined;
  /** Submits jobs while Works remain; resolves once the first submissions are made. */
  start(): Promise<void>;
  /** Cancels the jobs still queued or running; `atS` is the run's end on its clock. */
  stop(atS?: number): Promise<void>;
  /** A resumed run: cancels the jobs the run it continues left behind; how many. */
  cancelLeftovers(): Promise<number>;
}

/** What a batch cluster's own batch system says of it: the prober writes it as a simulated batch cluster. */
export interface BatchClusterFacts {
  /** The partition (or queue) described: the grid file's, or the cluster's default. */
  readonly partition: string;
  /** Nodes of that partition that can run jobs now. */
  readonly nodes: number;
  /** CPUs a job can have on each of those nodes (the fewest of them, when they differ). */
  readonly coresPerNode: number;
  /** Nodes of the partition that cannot run jobs now (down, drained, failed...). */
  readonly nodesUnavailable: number;
  /** The partition's longest time a job may ask for, seconds; undefined when it has no limit. */
  readonly timeLimitS?: number;
  /** The simulated batch policy closest to the cluster's scheduler (a name of src/batch/policies). */
  readonly policy: string;
  /** Where the policy comes from, in a phrase ("SchedulerType sched/backfill"). */
  readonly policyFrom: string;
  /** Anything else the description should say, one line each (nodes of several sizes, say). */
  readonly notes: readonly string[];
}

/** What asking a batch system about its cluster needs. */
export interface BatchProbeContext {
  readonly deadlines: Deadlines;
}

export interface Transport<K extends HostKind = HostKind> {
  readonly kind: K;
  /** One line, for the docs. */
  readonly help: string;
  /**
   * An endpoint for one machine of a cluster the grid file names with this kind; the run controller and
   * the prober both build machines here (the prober with its connect timeout: ctx.connectTimeoutMs).
   */
  endpoint?(cluster: RealClusterSpec, spec: MachineSpecOf<K>, ctx: EndpointContext): Endpoint;
  /**
   * For a cluster of this kind whose hosts come as batch jobs: the pool that brings them, given the
   * cluster's storage machine (the first endpoint of the cluster). Undefined when the cluster has none.
   */
  hostPool?(cluster: RealClusterSpec, storage: Endpoint, ctx: HostPoolContext): HostPool | undefined;
  /**
   * For a cluster of this kind whose hosts come as batch jobs: what its batch system says of it (nodes,
   * cores, time limit, scheduler), asked through the cluster's storage machine (connected), each command
   * within the grid file's command deadline. Undefined when the cluster has no batch system.
   */
  probeBatch?(cluster: RealClusterSpec, storage: Endpoint, ctx: BatchProbeContext): Promise<BatchClusterFacts | undefined>;
}

/** A transport of any kind (what the list holds). */
export type AnyTransport = { [K in HostKind]: Transport<K> }[HostKind];

/** The transports of a build, by kind; each kind once. */
export class TransportRegistry {
  private readonly byKind = new Map<string, AnyTransport>();

  constructor(transports: readonly AnyTransport[]) {
    for (const t of transports) {
      if (this.byKind.has(t.kind)) throw new Error(`transport "${t.kind}" is registered twice (bug: backends/transports.ts)`);
      this.byKind.set(t.kind, t);
    }
  }

  /** Every transport, in registration order. */
  list(): readonly AnyTransport[] {
    return [...this.byKind.values()];
  }

  /** The transport registered for `kind`; throws naming the registered ones. */
  get(kind: string): AnyTransport {
    const t = this.byKind.get(kind);
    if (t === undefined) throw new Error(`no transport for host kind "${kind}"; registered: ${[...this.byKind.keys()].join(', ')} (backends/transports.ts)`);
    return t;
  }

  /** The endpoint of one machine of a cluster, built by the transport of the machine's kind. */
  endpoint(cluster: RealClusterSpec, spec: GridEndpointSpec, ctx: EndpointContext): Endpoint {
    // The transport registered under the entry's kind takes that kind's entries: the map's key says so.
    const t = this.get(spec.kind) as Transport;
    if (t.endpoint === undefined) throw new Error(`transport "${spec.kind}" builds no endpoint for machine ${spec.name} of cluster ${cluster.id}`);
    return t.endpoint(cluster, spec as MachineSpecOf<HostKind>, ctx);
  }

  /** The host pool of a cluster, when the transport of its kind has one for it. */
  hostPool(cluster: RealClusterSpec, storage: Endpoint, ctx: HostPoolContext): HostPool | undefined {
    return (this.get(cluster.kind) as Transport).hostPool?.(cluster, storage, ctx);
  }

  /** What the batch system of a cluster says of it, when the transport of its kind can ask one. */
  async probeBatch(cluster: RealClusterSpec, storage: Endpoint, ctx: BatchProbeContext): Promise<BatchClusterFacts | undefined> {
    return (this.get(cluster.kind) as Transport).probeBatch?.(cluster, storage, ctx);
  }
}
