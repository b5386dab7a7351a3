// What a real run measures of its grid, for the information service: each host's availability from its
// load probes, and each cluster link's latency (a probe's round trip) and bandwidth (transfers large enough
// to tell). The latest samples are kept, a bounded number per series.
import type { Sample } from '../../src/interfaces/information.js';
import type { ClusterId, HostId } from '../../src/model/grid.js';
import { availabilityFromLoad, type LoadSample } from '../transport/endpoint.js';

const MAX_SAMPLES_KEPT = 1000;
/** A smaller transfer says more about the latency than about the bandwidth. */
const MIN_BANDWIDTH_SAMPLE_BYTES = 64 * 1024;

function push(series: Sample[], sample: Sample): void {
  series.push(sample);
  if (series.length > MAX_SAMPLES_KEPT) series.splice(0, series.length - MAX_SAMPLES_KEPT);
}

function seriesOf<K>(map: Map<K, Sample[]>, key: K): Sample[] {
  let series = map.get(key);
  if (series === undefined) map.set(key, (series = []));
  return series;
}

function lastSamples(series: readonly Sample[] | undefined, maxSamples: number): readonly Sample[] {
  return series === undefined || maxSamples <= 0 ? [] : series.slice(-maxSamples);
}

export class GridMeasurements {
  private readonly availability = new Map<HostId, Sample[]>();
  private readonly bandwidth = new Map<ClusterId, Sample[]>();
  private readonly latency = new Map<ClusterId, Sample[]>();

  /** A machine's load probe, for each of its hosts (slots). */
  probed(hostIds: readonly HostId[], timeS: number, sample: LoadSample): void {
    for (const h of hostIds) push(seriesOf(this.availability, h), { timeS, value: availabilityFromLoad(sample) });
  }

  latencyProbed(cluster: ClusterId, timeS: number, rttMs: number): void {
    push(seriesOf(this.latency, cluster), { timeS, value: rttMs });
  }

  transferred(cluster: ClusterId, timeS: number, sizeBytes: number, seconds: number): void {
    if (sizeBytes < MIN_BANDWIDTH_SAMPLE_BYTES || seconds <= 0) return;
    push(seriesOf(this.bandwidth, cluster), { timeS, value: sizeBytes / seconds });
  }

  /** The median of the link's measured bandwidths, or undefined before any. */
  medianBandwidthBps(cluster: ClusterId): number | undefined {
    const measured = (this.bandwidth.get(cluster) ?? []).map((s) => s.value).sort((a, b) => a - b);
    return measured[measured.length >> 1];
  }

  hostAvailability(host: HostId, maxSamples: number): readonly Sample[] {
    return lastSamples(this.availability.get(host), maxSamples);
  }

  linkBandwidthBps(cluster: ClusterId, maxSamples: number): readonly Sample[] {
    return lastSamples(this.bandwidth.get(cluster), maxSamples);
  }

  linkLatencyMs(cluster: ClusterId, maxSamples: number): readonly Sample[] {
    return lastSamples(this.latency.get(cluster), maxSamples);
  }
}
