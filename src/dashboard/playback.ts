// Plays runs to the dashboard on one shared virtual clock (simulated seconds advance at `speed` per wall
// second), so that several heuristics on the same grid are compared at the same simulated time; live
// runs are shown as their events arrive. Each run is folded by the shared RunState reducer and the
// changes are handed out as protocol updates.
import type { RunRecordEvent } from '../record/events.js';
import { RunState } from '../report/run-state.js';
import type { BatchClusterJobs, BatchLevel } from '../report/batch-jobs.js';
import { KIND_CODES, type SourceUpdate, type WireBatchCluster, type WireBatchLevel, type WireClock, type WireEnd, type WireResource, type WireSourceInfo, type WireStart, type WireSummary } from './protocol.js';
import { isLive, type DashboardSource } from './source.js';

/** Wall seconds a whole recorded run takes at the default speed. */
export const DEFAULT_PLAYBACK_WALL_S = 20;

function wireBatchLevel(clusterIndex: number, p: BatchLevel): WireBatchLevel {
  return [clusterIndex, p.t, p.busyCores - p.pilotBusyCores, p.pilotBusyCores, p.waiting - p.pilotsWaiting, p.pilotsWaiting];
}

function wireBatchCluster(c: BatchClusterJobs): WireBatchCluster {
  return { cluster: c.cluster, cores: c.sizeKnown ? c.cores : 0 };
}

function recordEndS(events: readonly RunRecordEvent[]): number {
  const last = events[events.length - 1];
  return last ? last.t : 0;
}

export class SourcePlayer {
  state = new RunState();
  private cursor = 0;
  private sentResources = 0;
  private sentBatchClusters = 0;
  private starts: WireStart[] = [];
  private ends: WireEnd[] = [];
  private batchLevels: WireBatchLevel[] = [];
  readonly live: boolean;

  constructor(readonly source: DashboardSource) {
    this.live = isLive(source);
  }

  private get events(): readonly RunRecordEvent[] {
    return this.source.events;
  }

  /** When a recorded run ends; null for a live one. */
  get endS(): number | null {
    return this.live ? null : recordEndS(this.events);
  }

  get atEnd(): boolean {
    return this.cursor >= this.events.length && (!isLive(this.source) || this.source.isEnded);
  }

  /** The time of the next event not yet applied, or null. */
  nextEventS(): number | null {
    return this.cursor < this.events.length ? this.events[this.cursor]!.t : null;
  }

  info(): WireSourceInfo {
    const first = this.events[0];
    const header = first?.type === 'header' ? first : this.state.header;
    return { name: this.source.name, heuristic: header?.heuristic ?? '', taskCount: header?.taskCount ?? 0, endS: this.endS, live: this.live };
  }

  /** Applies events up to `timeS` (all of them for a live run); returns how many. */
  advanceTo(timeS: number): number {
    const events = this.events;
    const start = this.cursor;
    while (this.cursor < events.length && (this.live || events[this.cursor]!.t <= timeS)) this.apply(events[this.cursor++]!);
    return this.cursor - start;
  }

  private apply(e: RunRecordEvent): void {
    this.state.apply(e);
    if (e.type === 'start') {
      const bar = this.state.bars[this.state.bars.length - 1]!;
      this.starts.push([bar.id, bar.resourceIndex, KIND_CODES[bar.kind], bar.startS, bar.attempt, bar.work ?? -1]);
    } else if (e.type === 'end') {
      this.ends.push([e.id, e.t, e.ok ? 1 : 0]);
    } else if (e.type === 'job') {
      this.takeBatchLevel(e.cluster);
    }
  }

  /** Queues a batch cluster's latest level; one queued at the same time for that cluster is replaced. */
  private takeBatchLevel(cluster: string): void {
    const clusters = this.state.batch.clusters;
    const index = clusters.findIndex((c) => c.cluster === cluster);
    const latest = clusters[index]?.timeline.at(-1);
    if (latest === undefined) return;
    const previous = this.batchLevels.at(-1);
    if (previous !== undefined && previous[0] === index && previous[1] === latest.t) this.batchLevels.pop();
    this.batchLevels.push(wireBatchLevel(index, latest));
  }

  /** The time a run's figures are computed at: the shared clock, capped at the run's own end. */
  private nowS(clockS: number): number {
    const end = this.endS;
    if (this.live) return this.state.timeS;
    return end === null ? clockS : Math.min(clockS, end);
  }

  private summary(clockS: number): WireSummary {
    const s = this.state.summary(this.nowS(clockS));
    const hosts = s.hosts.map((h) => ({ ...h, down: this.state.hostDownSpans(h.host).map((d) => [d.fromS, d.toS] as const) }));
    return { ...s, hosts };
  }

  private wireResource(i: number): WireResource {
    const r = this.state.resources[i]!;
    return { type: r.type, cluster: r.cluster, label: r.label };
  }

  /** What changed since the last call (and forgets it). */
  takeUpdate(index: number, clockS: number): SourceUpdate {
    const resources: WireResource[] = [];
    for (; this.sentResources < this.state.resources.length; this.sentResources++) resources.push(this.wireResource(this.sentResources));
    const clusters = this.state.batch.clusters;
    const batchClusters = clusters.slice(this.sentBatchClusters).map(wireBatchCluster);
    this.sentBatchClusters = clusters.length;
    const update = { source: index, resources, starts: this.starts, ends: this.ends, batchClusters, batchLevels: this.batchLevels, summary: this.summary(clockS) };
    this.starts = [];
    this.ends = [];
    this.batchLevels = [];
    return update;
  }

  /** Everything so far, for a page that joins now (call between batches, when nothing is pending). */
  snapshot(index: number, clockS: number): SourceUpdate {
    const resources = this.state.resources.slice(0, this.sentResources).map((_, i) => this.wireResource(i));
    const starts: WireStart[] = [];
    const ends: WireEnd[] = [];
    for (const b of this.state.bars) {
      starts.push([b.id, b.resourceIndex, KIND_CODES[b.kind], b.startS, b.attempt, b.work ?? -1]);
      if (b.endS !== null) ends.push([b.id, b.endS, b.ok ? 1 : 0]);
    }
    const clusters = this.state.batch.clusters.slice(0, this.sentBatchClusters);
    const batchLevels = clusters.flatMap((c, i) => c.timeline.map((p) => wireBatchLevel(i, p)));
    return { source: index, resources, starts, ends, batchClusters: clusters.map(wireBatchCluster), batchLevels, summary: this.summary(clockS) };
  }
}

export interface PlaybackOptions {
  /** Simulated seconds per wall second; default: the longest recorded run plays in about 20 s. */
  readonly speed?: number;
  readonly paused?: boolean;
}

export class Playback {
  players: SourcePlayer[] = [];
  timeS = 0;
  speed = 1;
  paused = false;
  generation = 0;
  private explicitSpeed: number | undefined;

  constructor(sources: readonly DashboardSource[], options: PlaybackOptions = {}) {
    this.explicitSpeed = options.speed;
    this.paused = options.paused ?? false;
    this.load(sources);
  }

  /** Replaces the runs shown (e.g. after an edit-and-rerun) and starts again from time 0. */
  load(sources: readonly DashboardSource[]): void {
    this.players = sources.map((s) => new SourcePlayer(s));
    this.timeS = 0;
    this.generation++;
    const end = this.endS;
    this.speed = this.explicitSpeed ?? (end !== null && end > 0 ? end / DEFAULT_PLAYBACK_WALL_S : 1);
  }

  /** Shows `source` in chart `index` (one past the last adds a chart); the other charts go on as they were. */
  setSource(index: number, source: DashboardSource): SourcePlayer {
    if (!Number.isInteger(index) || index < 0 || index > this.players.length) throw new RangeError(`chart ${index} does not exist (there are ${this.players.length})`);
    const player = new SourcePlayer(source);
    this.players[index] = player;
    // Live runs set the clock: it follows the runs now shown, not the longest one ever shown.
    if (this.players.every((p) => p.live)) this.timeS = Math.max(0, ...this.players.map((p) => p.state.timeS));
    return player;
  }

  restart(): void {
    this.load(this.players.map((p) => p.source));
  }

  setSpeed(speed: number): void {
    this.speed = speed;
    this.explicitSpeed = speed;
  }

  /** The common end of the time axis: the latest end of the recorded runs. */
  get endS(): number | null {
    let end: number | null = null;
    for (const p of this.players) {
      const e = p.endS;
      if (e !== null) end = Math.max(end ?? 0, e);
    }
    return end;
  }

  get finished(): boolean {
    return this.players.every((p) => p.atEnd);
  }

  clock(): WireClock {
    return { timeS: this.timeS, speed: this.speed, paused: this.paused, finished: this.finished, endS: this.endS };
  }

  private updates(): SourceUpdate[] {
    return this.players.map((p, i) => p.takeUpdate(i, this.timeS));
  }

  /** Moves the clock on by `wallDtS` wall seconds (unless paused); returns the updates, or null when nothing moved. */
  tick(wallDtS: number): { updates: SourceUpdate[]; events: number } | null {
    const before = this.timeS;
    if (!this.paused) {
      const end = this.endS;
      const next = this.timeS + this.speed * wallDtS;
      this.timeS = end === null ? next : Math.min(next, end);
    }
    let events = 0;
    for (const p of this.players) events += p.advanceTo(this.paused && !p.live ? before : this.timeS);
    for (const p of this.players) if (p.live) this.timeS = Math.max(this.timeS, p.state.timeS);
    if (events === 0 && this.timeS === before) return null;
    return { updates: this.updates(), events };
  }

  /** Pauses and moves the clock to the next event of any recorded run, applying every event at that time. */
  step(): { updates: SourceUpdate[]; events: number } {
    this.paused = true;
    let next: number | null = null;
    for (const p of this.players) {
      const t = p.live ? null : p.nextEventS();
      if (t !== null) next = next === null ? t : Math.min(next, t);
    }
    if (next !== null) this.timeS = Math.max(this.timeS, next);
    let events = 0;
    for (const p of this.players) events += p.advanceTo(this.timeS);
    return { updates: this.updates(), events };
  }

  snapshots(): SourceUpdate[] {
    return this.players.map((p, i) => p.snapshot(i, this.timeS));
  }

  infos(): WireSourceInfo[] {
    return this.players.map((p) => p.info());
  }
}
