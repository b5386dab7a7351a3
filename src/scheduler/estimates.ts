// What the scheduler believes about resource performance right now (seed 001 §5.2): each measured series
// from the information service goes through a predictor (options.resourcePredictor): the forecasting
// service the backend gave, the last value, or the scheduler's own NWS battery. Used when a plan starts and
// to estimate the end of each sub-task the scheduler starts; `*Progress` measure what a running sub-task
// has done since it started (the 'progress' running estimate).
import type { ForecastingService } from '../interfaces/forecasting.js';
import type { InformationService, Sample } from '../interfaces/information.js';
import type { ClusterId, HostId } from '../model/grid.js';
import { NwsForecaster } from '../forecast/nws.js';
import type { ResourcePredictor } from './strategies/quality.js';
import { integrateSamples, type Progress } from './strategies/running-estimate.js';

/** How many past samples a forecast looks at. */
export const FORECAST_HISTORY_SAMPLES = 64;
/** At most this many samples are read to measure a running sub-task's progress. */
const MAX_PROGRESS_SAMPLES = 1 << 16;
/** Assumed when a link has no measurement yet (a real grid before its first probe). */
export const FALLBACK_BANDWIDTH_BPS = 1_000_000;
export const FALLBACK_LATENCY_MS = 0;
export const FALLBACK_AVAILABILITY = 1;
/** Floors that keep estimates finite when a resource is measured at (or near) zero. */
export const MIN_AVAILABILITY = 0.01;
export const MIN_BANDWIDTH_BPS = 1;

export interface LinkEstimate {
  readonly latencyS: number;
  readonly bandwidthBps: number;
}

export class Estimator {
  private readonly nws: NwsForecaster | undefined;

  constructor(
    private readonly info: InformationService,
    private readonly forecaster: ForecastingService,
    private readonly predictor: ResourcePredictor = 'service',
  ) {
    this.nws = predictor === 'nws' ? new NwsForecaster() : undefined;
  }

  link(clusterId: ClusterId): LinkEstimate {
    const bandwidthBps = this.predict(`bw:${clusterId}`, this.info.linkBandwidthBps(clusterId, FORECAST_HISTORY_SAMPLES), FALLBACK_BANDWIDTH_BPS);
    const latencyMs = this.predict(`lat:${clusterId}`, this.info.linkLatencyMs(clusterId, FORECAST_HISTORY_SAMPLES), FALLBACK_LATENCY_MS);
    return { latencyS: Math.max(0, latencyMs) / 1000, bandwidthBps: Math.max(MIN_BANDWIDTH_BPS, bandwidthBps) };
  }

  /** CPU availability as a fraction in [MIN_AVAILABILITY, 1]. */
  availability(hostId: HostId): number {
    const a = this.predict(`cpu:${hostId}`, this.info.hostAvailability(hostId, FORECAST_HISTORY_SAMPLES), FALLBACK_AVAILABILITY);
    return Math.min(1, Math.max(MIN_AVAILABILITY, a));
  }

  /** Dedicated CPU seconds a host delivered over [fromS, nowS] (measured), and its predicted availability. */
  hostProgress(hostId: HostId, fromS: number, nowS: number): Progress | undefined {
    const samples = this.history((n) => this.info.hostAvailability(hostId, n), fromS);
    if (samples.length === 0) return undefined;
    const clamped = samples.map((s) => ({ timeS: s.timeS, value: Math.min(1, Math.max(0, s.value)) }));
    return { doneAmount: integrateSamples(clamped, fromS, nowS), rate: this.availability(hostId) };
  }

  /** Bytes a link carried over [fromS + latency, nowS] (measured), and its predicted bandwidth. */
  linkProgress(clusterId: ClusterId, fromS: number, nowS: number): Progress | undefined {
    const samples = this.history((n) => this.info.linkBandwidthBps(clusterId, n), fromS);
    if (samples.length === 0) return undefined;
    const link = this.link(clusterId);
    return { doneAmount: integrateSamples(samples, fromS + link.latencyS, nowS), rate: link.bandwidthBps };
  }

  /** Enough of a series to cover [fromS, now]: more samples are asked for until the oldest is at or before fromS. */
  private history(read: (maxSamples: number) => readonly Sample[], fromS: number): readonly Sample[] {
    let n = FORECAST_HISTORY_SAMPLES;
    let samples = read(n);
    while (samples.length === n && samples[0]!.timeS > fromS && n < MAX_PROGRESS_SAMPLES) {
      n *= 4;
      samples = read(n);
    }
    return samples;
  }

  private predict(key: string, samples: readonly Sample[], fallback: number): number {
    let value: number | undefined;
    if (samples.length === 0) value = undefined;
    else if (this.predictor === 'last-value') value = samples[samples.length - 1]!.value;
    else if (this.nws !== undefined) value = this.nws.forecastSamples(key, samples)?.value;
    else value = this.forecaster.forecast(samples.map((s) => s.value))?.value;
    return value === undefined || !Number.isFinite(value) ? fallback : value;
  }
}
