// Port (3) over the simulated grid: what is up now, what each storage holds, and the measurements an NWS
// would have taken, one per behaviour sample, at the sample times up to now. Never a value from the future.
import type { FileId } from '../../src/model/application.js';
import type { ClusterId, HostId } from '../../src/model/grid.js';
import type { Clock } from '../../src/interfaces/clock.js';
import type { InformationService, Sample, Topology } from '../../src/interfaces/information.js';
import type { HistoryEntry, SimCluster, SimHost } from './grid-state.js';

/** The part of the engine the information service reads. */
export interface SimGridView {
  readonly clusters: ReadonlyMap<ClusterId, SimCluster>;
  readonly hosts: ReadonlyMap<HostId, SimHost>;
  readonly topologyVersion: number;
  readonly clock: Clock;
}

const NOTHING_STORED: ReadonlySet<FileId> = new Set<FileId>();

/**
 * Which recorded series of a history a measurement reads: HistoryEntry.values (availability fraction for a
 * host, bandwidth in bytes/s for a link) or HistoryEntry.latencyMs (links).
 */
type Reading = 'values' | 'latencyMs';

/** The last answer for one series, reused until a new sample is due or the history changes. */
interface CachedSamples {
  readonly maxSamples: number;
  readonly historyLength: number;
  readonly lastEndS: number;
  /** Time of the next sample after the newest one returned (Infinity once the history is closed). */
  readonly validUntilS: number;
  /** Sample number of the newest one returned within the last history entry. */
  readonly newestIndex: number;
  readonly samples: readonly Sample[];
}

export class SimInformation implements InformationService {
  private topologyCache: Topology | undefined;
  private topologyCacheVersion = -1;
  /** Schedulers ask for the same windows again and again: the last answer per history and reading. */
  private readonly valuesCache = new WeakMap<readonly HistoryEntry[], CachedSamples>();
  private readonly latencyCache = new WeakMap<readonly HistoryEntry[], CachedSamples>();

  constructor(private readonly grid: SimGridView) {}

  topology(): Topology {
    if (this.topologyCache && this.topologyCacheVersion === this.grid.topologyVersion) return this.topologyCache;
    const clusters = [...this.grid.clusters.values()].filter((c) => c.up).map((c) => ({ id: c.id }));
    const hosts = [...this.grid.hosts.values()].filter((h) => h.up).map((h) => h.info);
    this.topologyCache = { clusters, hosts };
    this.topologyCacheVersion = this.grid.topologyVersion;
    return this.topologyCache;
  }

  storedFiles(clusterId: ClusterId): ReadonlySet<FileId> {
    const c = this.grid.clusters.get(clusterId);
    return c && c.up ? c.storage : NOTHING_STORED;
  }

  hostAvailability(hostId: HostId, maxSamples: number): readonly Sample[] {
    const h = this.grid.hosts.get(hostId);
    return h ? this.measuredCached(h.history, maxSamples, 'values') : [];
  }

  linkBandwidthBps(clusterId: ClusterId, maxSamples: number): readonly Sample[] {
    const c = this.grid.clusters.get(clusterId);
    return c ? this.measuredCached(c.linkHistory, maxSamples, 'values') : [];
  }

  linkLatencyMs(clusterId: ClusterId, maxSamples: number): readonly Sample[] {
    const c = this.grid.clusters.get(clusterId);
    return c ? this.measuredCached(c.linkHistory, maxSamples, 'latencyMs') : [];
  }

  private measuredCached(history: readonly HistoryEntry[], maxSamples: number, reading: Reading): readonly Sample[] {
    const nowS = this.grid.clock.nowS();
    const last = history[history.length - 1];
    if (!last) return [];
    const cache = reading === 'values' ? this.valuesCache : this.latencyCache;
    const hit = cache.get(history);
    const sameHistory = hit !== undefined && hit.maxSamples === maxSamples && hit.historyLength === history.length && hit.lastEndS === last.endS;
    if (sameHistory && nowS < hit.validUntilS) return hit.samples;
    const newestIndex = newestSampleIndex(last, nowS);
    // The current stretch has only taken new samples since the last answer: slide that window along rather
    // than measure every sample again (the answer is the same either way).
    const samples =
      sameHistory && last.endS === Infinity && newestIndex > hit.newestIndex && newestIndex - hit.newestIndex < maxSamples
        ? slid(hit.samples, last, hit.newestIndex, newestIndex, maxSamples, reading)
        : measured(history, nowS, maxSamples, reading);
    const newest = samples[samples.length - 1];
    const { startS, series } = last.attachment;
    const validUntilS =
      last.endS !== Infinity
        ? Infinity
        : newest === undefined
          ? startS
          : Math.min(newest.timeS + series.periodS, startS + (Math.round((newest.timeS - startS) / series.periodS) + 1) * series.periodS);
    cache.set(history, { maxSamples, historyLength: history.length, lastEndS: last.endS, validUntilS, newestIndex, samples });
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

/** Sample number k of a stretch. */
function sampleOf(e: HistoryEntry, k: number, reading: Reading): Sample {
  const { startS, offset, series } = e.attachment;
  const values = reading === 'values' ? e.values : e.latencyMs!;
  return { timeS: startS + k * series.periodS, value: values[(offset + k) % series.length]! };
}

/** The last `maxSamples` samples taken at times ≤ now while the resource was up, oldest first. */
function measured(history: readonly HistoryEntry[], nowS: number, maxSamples: number, reading: Reading): Sample[] {
  const newestFirst: Sample[] = [];
  for (let i = history.length - 1; i >= 0 && newestFirst.length < maxSamples; i--) {
    const e = history[i]!;
    for (let k = newestSampleIndex(e, nowS); k >= 0 && newestFirst.length < maxSamples; k--) newestFirst.push(sampleOf(e, k, reading));
  }
  return newestFirst.reverse();
}

/**
 * The window `previous` (the last `maxSamples` samples up to sample `fromIndex` of the current stretch `e`, or
 * all there were) moved on to sample `toIndex`: its oldest samples dropped, samples fromIndex+1..toIndex added.
 */
function slid(previous: readonly Sample[], e: HistoryEntry, fromIndex: number, toIndex: number, maxSamples: number, reading: Reading): Sample[] {
  const added = toIndex - fromIndex;
  const kept = Math.min(previous.length, maxSamples - added);
  const samples = previous.slice(previous.length - kept);
  for (let k = fromIndex + 1; k <= toIndex; k++) samples.push(sampleOf(e, k, reading));
  return samples;
}
