// The pilots of one Slurm cluster: the submission strategies of src/batch/submission.ts for real.
// While Works remain, it keeps up to `pilots` jobs queued or running, each asking for `pilotCores` cores
// for `pilotWalltimeS`; a pilot that starts joins the run as a machine whose cores are hosts until
// shortly before its walltime ends (the planner places no Work that would end later); then its hosts
// leave (a running task first finishes) and the job is cancelled. A pilot that ends otherwise (cancelled,
// preempted, its node lost, its walltime reached) takes its hosts with it, and what ran there is planned
// again elsewhere. With "per-work", each job has one core and ends as soon as one Work has been computed
// on it. One squeue call covers all the pilots; polls back off while nothing changes. Pilots that keep
// ending with no task run to its end on them (dead as they start, or too short for any task) make the pool
// give the cluster up by the simulated batch clusters' rule (IdlePilots, src/batch/submission.ts): it
// submits no more, says why, and tells the run once its last pilot has ended.
import { IdlePilots } from '../../src/batch/submission.js';
import type { Clock } from '../../src/interfaces/clock.js';
import type { ClusterId } from '../../src/model/grid.js';
import type { RecordSink } from '../../src/record/events.js';
import type { RealClusterSpec } from '../../src/realgrid/real-grid-file.js';
import type { SlurmSpec } from '../../src/realgrid/slurm-spec.js';
import type { Deadlines } from '../transport/deadline.js';
import type { Endpoint } from '../transport/endpoint.js';
import type { ProgressEvent } from '../transport/progress-events.js';
import type { HostPool, PoolGrid } from '../transport/registry.js';
import { PilotEndpoint } from './pilot-endpoint.js';
import type { SlurmAccess } from './slurm-access.js';
import { setLongTimeout, type LongTimeout } from '../../src/util/long-timeout.js';
import { jobIsAlive, SlurmCommands, type SlurmJobState } from './slurm-commands.js';

/** What the pool needs of the real grid (the transport registry's PoolGrid). */
export type PilotGrid = PoolGrid;

export interface PilotPoolOptions {
  readonly cluster: RealClusterSpec & { readonly slurm: SlurmSpec };
  /** The cluster's storage as this machine sees it (or through the login node). */
  readonly storage: Endpoint;
  /** Where the Slurm commands run. */
  readonly access: SlurmAccess;
  /** This run's directory in that storage. */
  readonly runDir: string;
  /** Every pilot of the run has this job name (a resumed run finds those of the run it continues). */
  readonly jobName: string;
  readonly grid: PilotGrid;
  readonly clock: Clock;
  readonly record: RecordSink;
  readonly log: (event: ProgressEvent) => void;
  readonly deadlines: Deadlines;
  /** Called once the pool has given up and its last pilot has ended (the registry's HostPoolContext). */
  readonly exhausted?: (clusterId: ClusterId, why: string) => void;
}

interface Pilot {
  readonly jobId: string;
  readonly submittedS: number;
  state: string;
  endpoint?: PilotEndpoint;
  startedS?: number;
  ended: boolean;
  /** Cancelled by the pool once its hosts had left. */
  released?: boolean;
  /** Its hosts have left the run (its job is ending or ended). */
  hostsGone?: boolean;
  /** Why it waits in the queue, as last told. */
  reason?: string;
}

/**
 * squeue polls: every POLL_MIN_S while things change, doubling while nothing does, up to POLL_MAX_S; at
 * most PENDING_POLL_MAX_S while a pilot waits in the queue (how soon its cores are used depends on it).
 */
const POLL_MIN_S = 1;
const POLL_MAX_S = 30;
const PENDING_POLL_MAX_S = 8;
/** After sbatch refuses a pilot, submissions pause 5 s, then twice as long after each refusal in a row, up to 5 min. */
const SUBMIT_PAUSE_S = 5;
const SUBMIT_PAUSE_MAX_S = 300;

/** How long before its walltime's end a pilot's hosts are expected to leave. */
function leaveMarginS(walltimeS: number): number {
  return Math.min(60, Math.max(5, walltimeS * 0.1));
}

export class PilotPool implements HostPool {
  private readonly pilots = new Map<string, Pilot>();
  private readonly commands: SlurmCommands;
  private pollTimer: NodeJS.Timeout | undefined;
  private retireTimers = new Set<LongTimeout>();
  private pollS = POLL_MIN_S;
  private stopped = false;
  /** sbatch refusals in a row, and when the next submission may be tried. */
  private refusals = 0;
  private submitAgainAtS = 0;
  /** Something happened that squeue will soon show (a pilot released): the next poll comes soon. */
  private soon = false;
  private busy: Promise<void> = Promise.resolve();
  /** Queue waits of the pilots that started, seconds. */
  readonly queueWaitsS: number[] = [];
  /** Pilots in a row that ended with no task run on them: the give-up rule the simulated clusters follow. */
  private readonly idlePilots: IdlePilots;
  /** Why the pool gave the cluster up (no more pilots), once it has. */
  private whyGivenUp: string | undefined;
  private exhaustedTold = false;

  constructor(private readonly o: PilotPoolOptions) {
    this.commands = new SlurmCommands(o.access);
    this.idlePilots = new IdlePilots(o.cluster.slurm.pilots);
  }

  get gaveUp(): string | undefined {
    return this.whyGivenUp;
  }

  private get spec(): SlurmSpec {
    return this.o.cluster.slurm;
  }

  /** Slurm counts walltimes in whole minutes. */
  private get walltimeMinutes(): number {
    return Math.ceil(this.spec.pilotWalltimeS / 60);
  }

  get clusterId(): ClusterId {
    return this.o.cluster.id;
  }

  /** Pilots submitted so far. */
  get submitted(): number {
    return this.pilots.size;
  }

  /**
   * Cancels what is left of an earlier run with the same job name (a run killed before it could cancel its
   * pilots, now resumed): they are not adopted, since their agents ended with that run. Returns how many.
   */
  async cancelLeftovers(): Promise<number> {
    const left = (await this.commands.jobsNamed(this.o.jobName)).filter((j) => jobIsAlive(j.state));
    await this.commands.scancel(left.map((j) => j.jobId));
    return left.length;
  }

  async start(): Promise<void> {
    await this.topUp();
    this.schedulePoll();
  }

  /**
   * Submits jobs until as many are alive as the strategy wants, by the simulated batch cluster's rule
   * (backends/sim/batch-site.ts): `pilots` while Works are left; per-Work jobs, no more than Works left.
   */
  private async topUp(): Promise<void> {
    let alive = [...this.pilots.values()].filter((p) => !p.ended).length;
    const left = this.o.grid.worksLeft();
    const wanted = left === 0 ? 0 : this.spec.submission === 'per-work' ? Math.min(this.spec.pilots, left) : this.spec.pilots;
    while (!this.stopped && !this.idlePilots.givenUp && alive < wanted && this.o.clock.nowS() >= this.submitAgainAtS) {
      if (!(await this.submit())) return;
      alive++;
    }
  }

  private sbatchArgs(): string[] {
    const s = this.spec;
    const minutes = this.walltimeMinutes;
    return [
      `--job-name=${this.o.jobName}`,
      `--ntasks=1`,
      `--cpus-per-task=${s.pilotCores}`,
      `--time=${minutes}`,
      // the batch script only sleeps; what the agent says goes back through srun
      '--output=/dev/null',
      ...(s.memoryMB !== undefined ? [`--mem=${s.memoryMB}`] : []),
      ...(s.partition !== undefined ? [`--partition=${s.partition}`] : []),
      ...(s.account !== undefined ? [`--account=${s.account}`] : []),
      ...(s.qos !== undefined ? [`--qos=${s.qos}`] : []),
      ...s.sbatchArgs,
      // The batch script only holds the allocation; the agent runs as a step of it (pilot-endpoint.ts).
      `--wrap=exec sleep ${minutes * 60 + 60}`,
    ];
  }

  /** Submits a pilot; false when sbatch refused it (submissions then pause, longer after each refusal). */
  private async submit(): Promise<boolean> {
    const t = this.o.clock.nowS();
    let jobId: string;
    try {
      jobId = await this.commands.sbatch(this.sbatchArgs());
    } catch (err) {
      this.refusals++;
      const pauseS = Math.min(SUBMIT_PAUSE_MAX_S, SUBMIT_PAUSE_S * 2 ** (this.refusals - 1));
      this.submitAgainAtS = this.o.clock.nowS() + pauseS;
      this.o.log({ kind: 'pilot', cluster: this.clusterId, job: '-', message: `cannot submit a pilot (trying again in ${pauseS} s): ${(err as Error).message}` });
      return false;
    }
    this.refusals = 0;
    this.pilots.set(jobId, { jobId, submittedS: t, state: 'PENDING', ended: false });
    this.o.record({ type: 'job', t, cluster: this.clusterId, job: -Number(jobId), event: 'submit', cores: this.spec.pilotCores, requestedS: this.walltimeMinutes * 60 });
    this.o.log({ kind: 'pilot', cluster: this.clusterId, job: jobId, message: `submitted (${this.spec.pilotCores} core(s) for ${this.walltimeMinutes} min)` });
    this.pollS = POLL_MIN_S;
    return true;
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    this.pollTimer = setTimeout(() => {
      this.pollTimer = undefined;
      this.busy = this.poll().catch((err: unknown) => {
        this.o.log({ kind: 'pilot', cluster: this.clusterId, job: '-', message: `squeue failed: ${(err as Error).message}; trying again` });
      });
      void this.busy.then(() => this.schedulePoll());
    }, this.pollS * 1000);
  }

  private async poll(): Promise<void> {
    const live = [...this.pilots.values()].filter((p) => !p.ended);
    let changed = false;
    if (live.length > 0) {
      const states = new Map((await this.commands.jobsNamed(this.o.jobName)).map((j) => [j.jobId, j]));
      if (this.stopped) return;
      for (const p of live) changed = this.update(p, states.get(p.jobId)) || changed;
    }
    await this.topUp();
    const waiting = [...this.pilots.values()].some((p) => !p.ended && p.startedS === undefined);
    this.pollS = changed || this.soon ? POLL_MIN_S : Math.min(waiting ? PENDING_POLL_MAX_S : POLL_MAX_S, this.pollS * 2);
    this.soon = false;
  }

  /** What squeue says of a pilot now (undefined: Slurm no longer knows it); true if it changed. */
  private update(p: Pilot, s: SlurmJobState | undefined): boolean {
    const state = s?.state ?? 'GONE';
    if (state === 'PENDING' && p.startedS === undefined && s && s.reason !== p.reason && s.reason !== 'None') {
      p.reason = s.reason;
      this.o.log({ kind: 'pilot', cluster: this.clusterId, job: p.jobId, message: `waiting in the queue (${s.reason})` });
    }
    if (state === p.state) return false;
    p.state = state;
    if (state === 'COMPLETING') {
      // Ending: its processes are being killed, so its hosts leave now. It is still watched: a job that
      // was preempted or lost its node passes through COMPLETING on its way back to the queue (then it
      // is cancelled, below); seen as ended here, it would have stayed queued after the run.
      this.letHostsGo(p, state);
    } else if (!jobIsAlive(state)) this.ended(p, state);
    else if (p.startedS === undefined) {
      if (state === 'RUNNING' && s) this.started(p, s);
    } else if (state !== 'RUNNING') {
      // Requeued (after a preemption or a node failure) or suspended: its agent is gone with its step,
      // and a requeued job starts afresh. Its hosts leave now; the job is cancelled, a new pilot replaces it.
      this.ended(p, state, `requeued by Slurm (now ${state}: preempted, or its node lost): its hosts leave and the job is cancelled`);
      void this.commands.scancel([p.jobId]).catch(() => undefined);
    }
    return true;
  }

  /** Run clock seconds of an epoch time Slurm gave. */
  private runTimeOf(epochS: number): number {
    return this.o.clock.nowS() - (Date.now() / 1000 - epochS);
  }

  private started(p: Pilot, s: SlurmJobState): void {
    const now = this.o.clock.nowS();
    const startedS = Math.min(now, s.startEpochS !== undefined ? this.runTimeOf(s.startEpochS) : now);
    p.startedS = startedS;
    const endS = s.endEpochS !== undefined ? this.runTimeOf(s.endEpochS) : startedS + this.walltimeMinutes * 60;
    const leavesAtS = endS - leaveMarginS(endS - startedS);
    const waitS = Math.max(0, startedS - p.submittedS);
    this.queueWaitsS.push(waitS);
    const name = `${this.clusterId}.${p.jobId}`;
    const hostIds = Array.from({ length: this.spec.pilotCores }, (_, k) => `${name}.${k + 1}`);
    const e = new PilotEndpoint({ kind: 'pilot', name, jobId: p.jobId, hostIds, arch: this.spec.arch, leavesAtS }, this.clusterId, this.o.storage, this.o.runDir, {
      access: this.o.access,
      setup: this.spec.setup,
      deadlines: this.o.deadlines,
      closed: () => this.released(p),
      ...(this.spec.submission === 'per-work' ? { firstTaskEnded: () => this.workComputed(p, name) } : {}),
    });
    p.endpoint = e;
    this.o.record({ type: 'job', t: startedS, cluster: this.clusterId, job: -Number(p.jobId), event: 'start' });
    this.o.log({ kind: 'pilot', cluster: this.clusterId, job: p.jobId, message: `started after ${waitS.toFixed(1)} s in the queue; its ${hostIds.length} core(s) are hosts until t=${leavesAtS.toFixed(0)} s` });
    this.o.grid.join(this.clusterId, e, true);
    const timer = setLongTimeout(() => {
      this.retireTimers.delete(timer);
      if (p.ended || this.stopped) return;
      this.o.log({ kind: 'pilot', cluster: this.clusterId, job: p.jobId, message: 'its walltime is nearly over: its hosts leave once idle' });
      this.o.grid.retire(this.clusterId, name, true);
    }, Math.max(0, leavesAtS - now) * 1000);
    this.retireTimers.add(timer);
  }

  /** A per-Work job's one task ended: its host takes no other, and the job ends once it is idle. */
  private workComputed(p: Pilot, name: string): void {
    if (p.ended || this.stopped) return;
    this.o.log({ kind: 'pilot', cluster: this.clusterId, job: p.jobId, message: 'its Work has been computed: the job ends' });
    this.o.grid.retire(this.clusterId, name, true);
  }

  /**
   * A pilot the grid closed (its hosts all left, at its time or because its agent ended): cancel the job,
   * which only holds the allocation now, and look at the queue soon (a pilot to replace it, maybe).
   */
  private released(p: Pilot): void {
    if (p.ended || this.stopped || p.released) return;
    p.released = true;
    // A job already ending is left to end: if Slurm requeues it, the poll cancels it and says so.
    if (p.state !== 'COMPLETING') void this.commands.scancel([p.jobId]).catch(() => undefined);
    this.pollSoon();
  }

  private pollSoon(): void {
    this.pollS = POLL_MIN_S;
    this.soon = true;
    if (this.pollTimer === undefined) return; // a poll is under way; the next one comes soon
    clearTimeout(this.pollTimer);
    this.schedulePoll();
  }

  private ended(p: Pilot, state: string, why?: string): void {
    p.ended = true;
    const t = this.o.clock.nowS();
    this.o.record({ type: 'job', t, cluster: this.clusterId, job: -Number(p.jobId), event: 'end', ...(state === 'TIMEOUT' ? { killed: true } : {}) });
    const ending = `ended (${state === 'GONE' ? 'no longer known to Slurm' : state})${p.startedS === undefined ? ' before it started' : ''}`;
    const how = why ?? (p.released && state === 'CANCELLED' ? 'released (cancelled once its hosts had left)' : ending);
    this.o.log({ kind: 'pilot', cluster: this.clusterId, job: p.jobId, message: how });
    this.letHostsGo(p, state);
    const ranTasks = (p.endpoint?.tasksEnded ?? 0) > 0;
    if (this.idlePilots.ended(ranTasks)) this.giveUp(how);
    if (this.whyGivenUp !== undefined && !this.exhaustedTold && ![...this.pilots.values()].some((x) => !x.ended)) {
      this.exhaustedTold = true;
      this.o.exhausted?.(this.clusterId, this.whyGivenUp);
    }
  }

  /** The give-up rule fired at a pilot that ended `how`: no more pilots, said once, with why. */
  private giveUp(how: string): void {
    const n = this.idlePilots.idleInARow;
    this.whyGivenUp =
      `${n} pilots in a row ended with no task run on them (the last: ${how}): ` +
      `they die as they start (see the cluster's "setup" and "sbatchArgs", and the pilots' own errors in Slurm's logs) ` +
      `or their walltime (${this.walltimeMinutes} min, "pilotWalltimeS") is too short for any task left`;
    this.o.log({ kind: 'pilot', cluster: this.clusterId, job: '-', message: `GAVE UP on cluster ${this.clusterId}, no more pilots are submitted to it: ${this.whyGivenUp}` });
  }

  /** The pilot's job is ending (`state`): its hosts leave the run now, once. */
  private letHostsGo(p: Pilot, state: string): void {
    if (!p.endpoint || p.hostsGone) return;
    p.hostsGone = true;
    this.o.grid.retire(this.clusterId, p.endpoint.spec.name, true);
    p.endpoint.lost(`its Slurm job ended (${state})`);
  }

  /** Cancels every pilot still queued or running (the run is over, or interrupted); their end is recorded at `atS` (default now). */
  async stop(atS?: number): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    for (const t of this.retireTimers) t.clear();
    this.retireTimers.clear();
    await this.busy;
    const alive = [...this.pilots.values()].filter((p) => !p.ended);
    await this.commands.scancel(alive.map((p) => p.jobId)).catch(() => undefined);
    const t = atS ?? this.o.clock.nowS();
    for (const p of alive) {
      p.ended = true;
      this.o.record({ type: 'job', t, cluster: this.clusterId, job: -Number(p.jobId), event: 'end' });
    }
  }
}
