// The distribution of one metric over many jobs in bounded memory: the values themselves up to
// EXACT_LIMIT (quantiles exact), then a histogram with buckets 0.1 % wide (quantiles within 0.1 %).
// Count, mean, standard deviation, minimum and maximum are always exact.

const EXACT_LIMIT = 1 << 16;
const BUCKET_RATIO = 1.001;
const LOG_RATIO = Math.log(BUCKET_RATIO);
/** Buckets cover [1e-3, 1e12); smaller positive values share the first bucket, larger ones the last. */
const MIN_VALUE = 1e-3;
const BUCKETS = Math.ceil(Math.log(1e12 / MIN_VALUE) / LOG_RATIO);

export interface DistributionSummary {
  readonly count: number;
  readonly mean: number;
  readonly sd: number;
  readonly min: number;
  readonly p25: number;
  readonly median: number;
  readonly p75: number;
  readonly p95: number;
  readonly max: number;
}

export class QuantileSketch {
  private exact: Float64Array | undefined = new Float64Array(1024);
  private histogram: Float64Array | undefined;
  private zeros = 0;
  count = 0;
  private sum = 0;
  private sumSquares = 0;
  private min = Infinity;
  private max = -Infinity;

  add(v: number): void {
    if (!(v >= 0)) throw new Error(`QuantileSketch: values must be ≥ 0, got ${v}`);
    this.count++;
    this.sum += v;
    this.sumSquares += v * v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    if (this.exact !== undefined) {
      if (this.count > this.exact.length) this.growOrSpill();
      if (this.exact !== undefined) {
        this.exact[this.count - 1] = v;
        return;
      }
    }
    this.addToHistogram(v);
  }

  /** Nearest-rank quantile, q in [0, 1]; 0 for an empty sketch. */
  quantile(q: number): number {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.count));
    if (this.exact !== undefined) return this.exact.slice(0, this.count).sort()[rank - 1]!;
    if (rank <= this.zeros) return 0;
    let seen = this.zeros;
    const h = this.histogram!;
    for (let b = 0; b < BUCKETS; b++) {
      seen += h[b]!;
      if (seen >= rank) return Math.min(this.max, Math.max(this.min, MIN_VALUE * BUCKET_RATIO ** (b + 0.5)));
    }
    return this.max;
  }

  summary(): DistributionSummary {
    const n = this.count;
    const mean = n === 0 ? 0 : this.sum / n;
    const variance = n === 0 ? 0 : Math.max(0, this.sumSquares / n - mean * mean);
    return {
      count: n,
      mean,
      sd: Math.sqrt(variance),
      min: n === 0 ? 0 : this.min,
      p25: this.quantile(0.25),
      median: this.quantile(0.5),
      p75: this.quantile(0.75),
      p95: this.quantile(0.95),
      max: n === 0 ? 0 : this.max,
    };
  }

  private growOrSpill(): void {
    const old = this.exact!;
    if (old.length < EXACT_LIMIT) {
      const grown = new Float64Array(old.length * 2);
      grown.set(old);
      this.exact = grown;
      return;
    }
    this.exact = undefined;
    this.histogram = new Float64Array(BUCKETS);
    for (const v of old) this.addToHistogram(v);
  }

  private addToHistogram(v: number): void {
    if (v === 0) {
      this.zeros++;
      return;
    }
    const b = Math.min(BUCKETS - 1, Math.max(0, Math.floor(Math.log(v / MIN_VALUE) / LOG_RATIO)));
    this.histogram![b] = this.histogram![b]! + 1;
  }
}
