// Port (3) over the simulated grid: what is up now, what each storage holds, and the measurements an NWS
// would have taken, one per behaviour sample, at the sample times up to now. Never a value from the future.
import type { FileId } from '../../src/model/application.js';
import type { ClusterId, HostId } from '../../src/model/grid.js';
import type { Clock } from '../../src/interfaces/clock.js';
import type { InformationService, Sample, Topology } from '../../src/interfaces/information.js';
import type { HistoryEntry, SimCluster, SimHost } from './grid-state.js';
import { sampleAt, SampleStrips } from './sample-strip.js';

/** The part of the engine the information service reads. */
export interface SimGridView {
  readonly clusters: ReadonlyMap<ClusterId, SimCluster>;
  readonly hosts: ReadonlyMap<HostId, SimHost>;
  readonly topologyVersion: number;
  readonly clock: Clock;
  /** Hosts that take no new Work (per-Work batch jobs whose Work is computed). */
  readonly leavingHosts: ReadonlySet<HostId>;
}

const NOTHING_STORED: ReadonlySet<FileId> = new Set<FileId>();

/** The last answer for one series, reused until a new sample is due or the history changes. */
export interface CachedSamples {
  readonly maxSamples: number;
  readonly historyLength: number;
  readonly lastEndS: number;
  /** Time of the next sample after the newest one returned (Infinity once the history is closed). */
  readonly validUntilS: number;
  readonly samples: readonly Sample[];
}

/** One reading of the histories: which series it reads, its strips, and the last answer per series. */
interface Measurement {
  readonly valuesOf: (e: HistoryEntry) => Float64Array;
  readonly strips: SampleStrips;
  /** Index of the series' slot in its owner's `measured` (host: availability; link: bandwidth, latency). */
  readonly slot: number;
}

function measurement(valuesOf: (e: HistoryEntry) => Float64Array, slot: number): Measurement {
  return { valuesOf, strips: new SampleStrips(), slot };
}

export class SimInformation implements InformationService {
  private topologyCache: Topology | undefined;
  private topologyCacheVersion = -1;
  /** Availability fraction (hosts), bandwidth in bytes/s (links). */
  private readonly values = measurement((e) => e.values, 0);
  private readonly latency = measurement((e) => e.latencyMs!, 1);

  constructor(private readonly grid: SimGridView) {}

  topology(): Topology {
    if (this.topologyCache && this.topologyCacheVersion === this.grid.topologyVersion) return this.topologyCache;
    const clusters = [...this.grid.clusters.values()].filter((c) => c.up).map((c) => ({ id: c.id }));
    const hosts = [...this.grid.hosts.values()].filter((h) => h.up).map((h) => h.info);
    this.topologyCache = { clusters, hosts };
    this.topologyCacheVersion = this.grid.topologyVersion;
    return this.topologyCache;
  }

  hostIsLeaving(hostId: HostId): boolean {
    return this.grid.leavingHosts.has(hostId);
  }

  storedFiles(clusterId: ClusterId): ReadonlySet<FileId> {
    const c = this.grid.clusters.get(clusterId);
    return c && c.up ? c.storage : NOTHING_STORED;
  }

  hostAvailability(hostId: HostId, maxSamples: number): readonly Sample[] {
    const h = this.grid.hosts.get(hostId);
    return h ? this.measuredCached(h.history, h.measured, maxSamples, this.values) : [];
  }

  linkBandwidthBps(clusterId: ClusterId, maxSamples: number): readonly Sample[] {
    const c = this.grid.clusters.get(clusterId);
    return c ? this.measuredCached(c.linkHistory, c.measured, maxSamples, this.values) : [];
  }

  linkLatencyMs(clusterId: ClusterId, maxSamples: number): readonly Sample[] {
    const c = this.grid.clusters.get(clusterId);
    return c ? this.measuredCached(c.linkHistory, c.measured, maxSamples, this.latency) : [];
  }

  /** `cache`: the owner's last answers, one slot per measurement (its `measured`). */
  private measuredCached(history: readonly HistoryEntry[], cache: (CachedSamples | undefined)[], maxSamples: number, m: Measurement): readonly Sample[] {
    const nowS = this.grid.clock.nowS();
    const last = history[history.length - 1];
    if (!last) return [];
    const hit = cache[m.slot];
    if (hit && hit.maxSamples === maxSamples && hit.historyLength === history.length && hit.lastEndS === last.endS && nowS < hit.validUntilS)
      return hit.samples;
    const samples = measured(history, nowS, maxSamples, m);
    const newest = samples[samples.length - 1];
    const { startS, series } = last.attachment;
    const validUntilS =
      last.endS !== Infinity
        ? Infinity
        : newest === undefined
          ? startS
          : Math.min(newest.timeS + series.periodS, startS + (Math.round((newest.timeS - startS) / series.periodS) + 1) * series.periodS);
    cache[m.slot] = { maxSamples, historyLength: history.length, lastEndS: last.endS, validUntilS, samples };
    return samples;
  }
}

/** Number of the last sample of a stretch taken at a time within it: ≤ now while current, < endS once closed (-1: none). */
function newestSampleIndex(e: HistoryEntry, nowS: number): number {
  const { startS, series } = e.attachment;
  const periodS = series.periodS;
  let k: number;
  if (e.endS === Infinity) {
    k = Math.floor((nowS - startS) / periodS);
    if (startS + (k + 1) * periodS <= nowS) k++;
    while (k >= 0 && startS + k * periodS > nowS) k--;
  } else {
    k = Math.ceil((e.endS - startS) / periodS) - 1;
    while (k >= 0 && startS + k * periodS >= e.endS) k--;
    if (startS + (k + 1) * periodS < e.endS) k++;
  }
  return k;
}

/** The last `maxSamples` samples taken at times ≤ now while the resource was up, oldest first. */
function measured(history: readonly HistoryEntry[], nowS: number, maxSamples: number, m: Measurement): Sample[] {
  if (history.length === 1 && history[0]!.endS === Infinity && maxSamples > 0) {
    // One stretch, still current (the usual case): its window, without gathering stretches.
    const e = history[0]!;
    const to = newestSampleIndex(e, nowS);
    if (to >= 0) return m.strips.of(e, m.valuesOf(e)).window(Math.max(0, to - maxSamples + 1), to);
  }
  const newestFirst: Sample[][] = [];
  let wanted = maxSamples;
  for (let i = history.length - 1; i >= 0 && wanted > 0; i--) {
    const e = history[i]!;
    const to = newestSampleIndex(e, nowS);
    if (to < 0) continue;
    const from = Math.max(0, to - wanted + 1);
    wanted -= to - from + 1;
    if (e.endS === Infinity) {
      newestFirst.push(m.strips.of(e, m.valuesOf(e)).window(from, to));
    } else {
      m.strips.forget(e);
      const stretch: Sample[] = [];
      for (let k = from; k <= to; k++) stretch.push(sampleAt(e.attachment, m.valuesOf(e), k));
      newestFirst.push(stretch);
    }
  }
  return newestFirst.length === 1 ? newestFirst[0]! : newestFirst.reverse().flat();
}
