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

/** The last answer for one series, reused until a new sample is due or the history changes. */
interface CachedSamples {
  readonly maxSamples: number;
  readonly historyLength: number;
  readonly lastEndS: number;
  /** Time of the next sample after the newest one returned (Infinity once the history is closed). */
  readonly validUntilS: number;
  readonly samples: readonly Sample[];
}

type ValueOf = (e: HistoryEntry, index: number) => number;
const availabilityOf: ValueOf = (e, i) => e.values[i]!;
const bandwidthOf: ValueOf = (e, i) => e.values[i]!;
const latencyOf: ValueOf = (e, i) => e.latencyMs![i]!;

export class SimInformation implements InformationService {
  private topologyCache: Topology | undefined;
  /** Schedulers ask for the same windows again and again: one cache per kind of measurement. */
  private readonly caches = new Map<ValueOf, WeakMap<readonly HistoryEntry[], CachedSamples>>([
    [availabilityOf, new WeakMap()],
    [bandwidthOf, new WeakMap()],
    [latencyOf, new WeakMap()],
  ]);
  private topologyCacheVersion = -1;

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
    return h ? this.measuredCached(h.history, maxSamples, availabilityOf) : [];
  }

  linkBandwidthBps(clusterId: ClusterId, maxSamples: number): readonly Sample[] {
    const c = this.grid.clusters.get(clusterId);
    return c ? this.measuredCached(c.linkHistory, maxSamples, bandwidthOf) : [];
  }

  linkLatencyMs(clusterId: ClusterId, maxSamples: number): readonly Sample[] {
    const c = this.grid.clusters.get(clusterId);
    return c ? this.measuredCached(c.linkHistory, maxSamples, latencyOf) : [];
  }

  private measuredCached(history: readonly HistoryEntry[], maxSamples: number, value: ValueOf): readonly Sample[] {
    const nowS = this.grid.clock.nowS();
    const last = history[history.length - 1];
    if (!last) return [];
    const cache = this.caches.get(value)!;
    const hit = cache.get(history);
    if (hit && hit.maxSamples === maxSamples && hit.historyLength === history.length && hit.lastEndS === last.endS && nowS < hit.validUntilS)
      return hit.samples;
    const samples = measured(history, nowS, maxSamples, value);
    const newest = samples[samples.length - 1];
    const { startS, series } = last.attachment;
    const validUntilS =
      last.endS !== Infinity
        ? Infinity
        : newest === undefined
          ? startS
          : Math.min(newest.timeS + series.periodS, startS + (Math.round((newest.timeS - startS) / series.periodS) + 1) * series.periodS);
    cache.set(history, { maxSamples, historyLength: history.length, lastEndS: last.endS, validUntilS, samples });
    return samples;
  }
}

/** The last `maxSamples` samples taken at times ≤ now while the resource was up, oldest first. */
function measured(history: readonly HistoryEntry[], nowS: number, maxSamples: number, value: (e: HistoryEntry, index: number) => number): Sample[] {
  const newestFirst: Sample[] = [];
  for (let i = history.length - 1; i >= 0 && newestFirst.length < maxSamples; i--) {
    const e = history[i]!;
    const { startS, offset, series } = e.attachment;
    const periodS = series.periodS;
    const n = series.length;
    // Last sample index whose time is within the stretch: ≤ now while current, < endS once closed.
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
    for (; k >= 0 && newestFirst.length < maxSamples; k--)
      newestFirst.push({ timeS: startS + k * periodS, value: value(e, (offset + k) % n) });
  }
  return newestFirst.reverse();
}
