// What the scheduler believes about resource performance right now (seed 001 §5.2): each measured series
// from the information service goes through the forecasting service. Used when a plan starts and to
// estimate the end of each sub-task the scheduler starts.
import type { ForecastingService } from '../interfaces/forecasting.js';
import type { InformationService, Sample } from '../interfaces/information.js';
import type { ClusterId, HostId } from '../model/grid.js';

/** How many past samples a forecast looks at. */
export const FORECAST_HISTORY_SAMPLES = 64;
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
  constructor(
    private readonly info: InformationService,
    private readonly forecaster: ForecastingService,
  ) {}

  link(clusterId: ClusterId): LinkEstimate {
    const bandwidthBps = this.predict(this.info.linkBandwidthBps(clusterId, FORECAST_HISTORY_SAMPLES), FALLBACK_BANDWIDTH_BPS);
    const latencyMs = this.predict(this.info.linkLatencyMs(clusterId, FORECAST_HISTORY_SAMPLES), FALLBACK_LATENCY_MS);
    return { latencyS: Math.max(0, latencyMs) / 1000, bandwidthBps: Math.max(MIN_BANDWIDTH_BPS, bandwidthBps) };
  }

  /** CPU availability as a fraction in [MIN_AVAILABILITY, 1]. */
  availability(hostId: HostId): number {
    const a = this.predict(this.info.hostAvailability(hostId, FORECAST_HISTORY_SAMPLES), FALLBACK_AVAILABILITY);
    return Math.min(1, Math.max(MIN_AVAILABILITY, a));
  }

  private predict(samples: readonly Sample[], fallback: number): number {
    const forecast = this.forecaster.forecast(samples.map((s) => s.value));
    return forecast === undefined || !Number.isFinite(forecast.value) ? fallback : forecast.value;
  }
}
