// What the scheduler believes about resource performance right now (Berman et al. 1999, §5.2): each measured series
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
/** Forecasts of the service remembered by series content (see serviceForecast). */
const FORECAST_MEMO_ENTRIES = 4096;
/** At most this many samples are read to measure a running sub-task's progress. */
const MAX_PROGRESS_SAMPLES = 1 << 16;
/** Assumed when a link has no measurement yet (a real grid before its first probe). */
export const FALLBACK_BANDWIDTH_BPS = 1_000_000;
export const FALLBACK_LATENCY_MS = 0;
export const FALLBACK_AVAILABILITY = 1;
/** Floors that keep estimates finite when a resource is measured at (or near) zero. */
export const MIN_AVAILABILITY = 0.01;
export const MIN_BANDWIDTH_BPS = 1;

/** The series predicted per resource: link bandwidth, link latency, host CPU availability. */
type SeriesKind = 'bw' | 'lat' | 'cpu';

interface LastPrediction {
  samples: readonly Sample[];
  length: number;
  newest: Sample | undefined;
  value: number;
}

export interface LinkEstimate {
  readonly latencyS: number;
  readonly bandwidthBps: number;
}

export class Estimator {
  private readonly nws: NwsForecaster | undefined;
  /**
   * The last prediction per series, with the sample array it came from. The information service may hand
   * back the same (read-only) array until a new sample is due; the prediction is a function of the samples
   * (replaying them into the 'nws' predictor changes nothing), so it is reused instead of forecast again
   * when the same array comes back with the same length and newest sample.
   */
  private readonly memo = new Map<number, { values: readonly number[]; value: number | undefined }[]>();
  private memoEntries = 0;
  private readonly lastPrediction: Record<SeriesKind, Map<string, LastPrediction>> = { bw: new Map(), lat: new Map(), cpu: new Map() };
  /**
   * The last prediction of each kind for any resource, when the predictor is a function of the samples
   * alone ('service', 'last-value'): resources whose measurements are the same array (the information
   * service may hand one window to all resources attached alike) get the same value without a look inside.
   */
  private readonly lastShared: Record<SeriesKind, LastPrediction | undefined> = { bw: undefined, lat: undefined, cpu: undefined };

  constructor(
    private readonly info: InformationService,
    private readonly forecaster: ForecastingService,
    private readonly predictor: ResourcePredictor = 'service',
  ) {
    this.nws = predictor === 'nws' ? new NwsForecaster() : undefined;
  }

  link(clusterId: ClusterId): LinkEstimate {
    const bandwidthBps = this.predict('bw', clusterId, this.info.linkBandwidthBps(clusterId, FORECAST_HISTORY_SAMPLES), FALLBACK_BANDWIDTH_BPS);
    const latencyMs = this.predict('lat', clusterId, this.info.linkLatencyMs(clusterId, FORECAST_HISTORY_SAMPLES), FALLBACK_LATENCY_MS);
    return { latencyS: Math.max(0, latencyMs) / 1000, bandwidthBps: Math.max(MIN_BANDWIDTH_BPS, bandwidthBps) };
  }

  /** CPU availability as a fraction in [MIN_AVAILABILITY, 1]. */
  availability(hostId: HostId): number {
    const a = this.predict('cpu', hostId, this.info.hostAvailability(hostId, FORECAST_HISTORY_SAMPLES), FALLBACK_AVAILABILITY);
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

  /** The prediction for the series `kind` of resource `id`, given its samples. */
  private predict(kind: SeriesKind, id: string, samples: readonly Sample[], fallback: number): number {
    const predictions = this.lastPrediction[kind];
    const last = predictions.get(id);
    const newest = samples[samples.length - 1];
    if (last !== undefined && last.samples === samples && last.length === samples.length && last.newest === newest) return last.value;
    const shared = this.lastShared[kind];
    let value: number;
    if (shared !== undefined && shared.samples === samples && shared.length === samples.length && shared.newest === newest) value = shared.value;
    else {
      value = this.forecastOf(kind, id, samples, fallback);
      if (this.nws === undefined) this.lastShared[kind] = { samples, length: samples.length, newest, value };
    }
    if (last === undefined) predictions.set(id, { samples, length: samples.length, newest, value });
    else {
      last.samples = samples;
      last.length = samples.length;
      last.newest = newest;
      last.value = value;
    }
    return value;
  }

  private forecastOf(kind: SeriesKind, id: string, samples: readonly Sample[], fallback: number): number {
    let value: number | undefined;
    if (samples.length === 0) value = undefined;
    else if (this.predictor === 'last-value') value = samples[samples.length - 1]!.value;
    else if (this.nws !== undefined) value = this.nws.forecastSamples(`${kind}:${id}`, samples)?.value;
    else value = this.serviceForecast(samples);
    return value === undefined || !Number.isFinite(value) ? fallback : value;
  }

  /**
   * The forecasting service's value for a series. ForecastingService.forecast is a function of the values
   * alone, and many hosts show the same window of values (behaviour series repeat; hosts share them), so
   * answers are memoized by content, at most FORECAST_MEMO_ENTRIES of them (then the memo starts afresh).
   */
  private serviceForecast(samples: readonly Sample[]): number | undefined {
    const hash = valuesHash(samples);
    const bucket = this.memo.get(hash);
    if (bucket !== undefined) {
      for (let k = 0; k < bucket.length; k++) if (sameValues(bucket[k]!.values, samples)) return bucket[k]!.value;
    }
    const values = samples.map((s) => s.value);
    const value = this.forecaster.forecast(values)?.value;
    if (this.memoEntries >= FORECAST_MEMO_ENTRIES) {
      this.memo.clear();
      this.memoEntries = 0;
    }
    if (bucket === undefined || this.memo.get(hash) !== bucket) this.memo.set(hash, [{ values, value }]);
    else bucket.push({ values, value });
    this.memoEntries++;
    return value;
  }

}

/** The same values, in the same order (Object.is: NaN matches NaN, 0 does not match -0). */
function sameValues(values: readonly number[], samples: readonly Sample[]): boolean {
  if (values.length !== samples.length) return false;
  for (let k = 0; k < values.length; k++) {
    // Object.is, written out: V8 (node 20) calls a builtin for it, boxing both doubles (1.6 KB per series).
    const a = values[k]!;
    const b = samples[k]!.value;
    if (a === b ? a === 0 && 1 / a !== 1 / b : a === a || b === b) return false;
  }
  return true;
}

/** A hash of the values of a series (a signed 32-bit integer: the loop stays in int32 arithmetic). */
function valuesHash(samples: readonly Sample[]): number {
  let hash = samples.length;
  for (let k = 0; k < samples.length; k++) {
    const value = samples[k]!.value;
    hash = Math.imul(hash ^ Math.round(value * 1e6) ^ (value * 1e-9), 0x01000193);
  }
  return hash;
}
