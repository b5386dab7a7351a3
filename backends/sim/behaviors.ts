// Behaviour series turned into rate series once per simulation (a name may be attached to many resources).
import type { GridDescription } from '../../src/model/grid.js';
import { RateSeries } from './rate-series.js';

export interface LinkSeries {
  /** Bandwidth in bytes/s per sample: the rate bytes flow at. */
  readonly bandwidth: RateSeries;
  /** Latency per sample in seconds (paid once, at a transfer's start). */
  readonly latencyS: Float64Array;
  /** Latency per sample in milliseconds, as measured. */
  readonly latencyMs: Float64Array;
}

export class BehaviorLibrary {
  private readonly links = new Map<string, LinkSeries>();
  private readonly hosts = new Map<string, RateSeries>();
  private readonly shared = new Map<string, RateSeries>();

  constructor(
    private readonly grid: GridDescription,
    readonly periodS: number,
  ) {}

  link(name: string): LinkSeries {
    let s = this.links.get(name);
    if (!s) {
      const b = this.grid.linkBehaviors.get(name);
      if (!b) throw new Error(`no link behaviour named '${name}'`);
      const n = b.samples.length;
      const bandwidth = new Float64Array(n);
      const latencyS = new Float64Array(n);
      const latencyMs = new Float64Array(n);
      b.samples.forEach((sample, i) => {
        bandwidth[i] = sample.bandwidthBps;
        latencyMs[i] = sample.latencyMs;
        latencyS[i] = sample.latencyMs / 1000;
      });
      s = { bandwidth: new RateSeries(bandwidth, this.periodS), latencyS, latencyMs };
      this.links.set(name, s);
    }
    return s;
  }

  /**
   * Behaviour `name` scaled by `share` (a pilot's host on a gang-scheduled batch cluster gets that share of
   * its core); share 1 is the behaviour itself.
   */
  sharedHost(name: string, share: number): RateSeries {
    if (share === 1) return this.host(name);
    const key = `${name}\u0000${share}`;
    let s = this.shared.get(key);
    if (!s) {
      const base = this.host(name);
      s = new RateSeries(Float64Array.from(base.rates, (r) => r * share), this.periodS);
      this.shared.set(key, s);
    }
    return s;
  }

  /** Availability as a fraction 0–1 per sample (the rate work-seconds are done at). */
  host(name: string): RateSeries {
    let s = this.hosts.get(name);
    if (!s) {
      const b = this.grid.hostBehaviors.get(name);
      if (!b) throw new Error(`no host behaviour named '${name}'`);
      s = new RateSeries(Float64Array.from(b.availabilityPct, (pct) => pct / 100), this.periodS);
      this.hosts.set(name, s);
    }
    return s;
  }
}
