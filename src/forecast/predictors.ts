// The NWS-style predictors (Berman et al. 1999, §5.2: "NWS standard predictors"). Each one is incremental: it sees the
// series one value at a time (`observe`) and, once it has seen at least one value, predicts the next one.
// Every window-based predictor keeps only its own window, so a long series costs O(window) memory.

export interface Predictor {
  readonly name: string;
  /** The predicted next value; only meaningful after at least one `observe`. */
  predict(): number;
  observe(value: number): void;
}

/** A fixed-capacity window of the most recent values, oldest first when read. */
export class SlidingWindow {
  private readonly values: number[];
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`window capacity must be a positive integer, got ${capacity}`);
    this.values = new Array<number>(capacity);
  }

  push(value: number): void {
    if (this.count < this.capacity) {
      this.values[(this.start + this.count) % this.capacity] = value;
      this.count++;
    } else {
      this.values[this.start] = value;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  get length(): number {
    return this.count;
  }

  /** The value `back` steps before the newest (0: the newest); undefined when not held. */
  fromEnd(back: number): number | undefined {
    if (back < 0 || back >= this.count) return undefined;
    return this.values[(this.start + this.count - 1 - back) % this.capacity];
  }

  sum(): number {
    let s = 0;
    for (let i = 0; i < this.count; i++) s += this.values[(this.start + i) % this.capacity]!;
    return s;
  }
}

/** The first index of an ascending array whose value is not below `v` (binary search). */
function lowerBound(sorted: readonly number[], v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertSorted(sorted: number[], v: number): void {
  sorted.splice(lowerBound(sorted, v), 0, v);
}

/** Removes one occurrence of `v`, which must be there. */
function removeSorted(sorted: number[], v: number): void {
  sorted.splice(lowerBound(sorted, v), 1);
}

/**
 * The last `size` values kept sorted for each of several window sizes, updated in O(size) per value, so
 * that the medians and trimmed means of a battery cost no sorting. Several predictors may share one set:
 * each feeds every value it observes with its index, and only the first feed of an index is applied.
 */
export class SortedWindows {
  private readonly history: SlidingWindow;
  private readonly sorted = new Map<number, number[]>();
  private seen = 0;

  constructor(readonly sizes: readonly number[]) {
    for (const w of sizes) {
      if (!Number.isInteger(w) || w < 1) throw new Error(`window size must be a positive integer, got ${w}`);
      this.sorted.set(w, []);
    }
    this.history = new SlidingWindow(Math.max(...sizes));
  }

  /** Adds the `index`-th value of the series (0-based) unless it was added already. */
  feed(value: number, index: number): void {
    if (index !== this.seen) return;
    for (const [w, sorted] of this.sorted) {
      if (this.seen >= w) removeSorted(sorted, this.history.fromEnd(w - 1)!);
      insertSorted(sorted, value);
    }
    this.history.push(value);
    this.seen++;
  }

  /** The values of the last `size` window, ascending (a live view: do not modify). */
  sortedWindow(size: number): readonly number[] {
    const s = this.sorted.get(size);
    if (!s) throw new Error(`no window of size ${size} in this set`);
    return s;
  }
}

export function medianOfSorted(sorted: readonly number[]): number {
  const n = sorted.length;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Fraction of the window dropped at each end by the trimmed mean. */
export const TRIM_FRACTION = 0.2;

export function trimmedMeanOfSorted(sorted: readonly number[], trimFraction = TRIM_FRACTION): number {
  const drop = Math.floor(sorted.length * trimFraction);
  let sum = 0;
  for (let i = drop; i < sorted.length - drop; i++) sum += sorted[i]!;
  return sum / (sorted.length - 2 * drop);
}

export class LastValuePredictor implements Predictor {
  readonly name = 'last-value';
  private last = 0;
  predict(): number {
    return this.last;
  }
  observe(value: number): void {
    this.last = value;
  }
}

export class RunningMeanPredictor implements Predictor {
  readonly name = 'running-mean';
  private sum = 0;
  private count = 0;
  predict(): number {
    return this.count === 0 ? 0 : this.sum / this.count;
  }
  observe(value: number): void {
    this.sum += value;
    this.count++;
  }
}

/** s ← s + gain·(x − s), started at the first value. */
export class ExponentialSmoothingPredictor implements Predictor {
  readonly name: string;
  private smoothed = 0;
  private started = false;
  constructor(readonly gain: number) {
    if (!(gain > 0 && gain <= 1)) throw new Error(`smoothing gain must be in (0, 1], got ${gain}`);
    this.name = `exp-smoothing-${gain}`;
  }
  predict(): number {
    return this.smoothed;
  }
  observe(value: number): void {
    this.smoothed = this.started ? this.smoothed + this.gain * (value - this.smoothed) : value;
    this.started = true;
  }
}

/** Median (or trimmed mean) of the last `size` values; of all values while fewer have been seen. */
export class SlidingWindowPredictor implements Predictor {
  readonly name: string;
  private seen = 0;
  constructor(
    readonly statistic: 'median' | 'trimmed-mean',
    readonly size: number,
    private readonly windows: SortedWindows = new SortedWindows([size]),
  ) {
    this.name = `sliding-${statistic}-${size}`;
  }
  predict(): number {
    const sorted = this.windows.sortedWindow(this.size);
    if (sorted.length === 0) return 0;
    return this.statistic === 'median' ? medianOfSorted(sorted) : trimmedMeanOfSorted(sorted);
  }
  observe(value: number): void {
    this.windows.feed(value, this.seen++);
  }
}

/**
 * A median whose window is chosen among `candidates` by recent error: each candidate's absolute errors over
 * the last `errorHorizon` predictions are summed, and the one with the smallest sum predicts (ties: the
 * smaller window, which reacts faster).
 */
export class AdaptiveMedianPredictor implements Predictor {
  readonly name = 'adaptive-median';
  private readonly recentErrors: SlidingWindow[];
  private readonly errorSums: number[];
  /** Each candidate's prediction for the next value, taken right after the previous value was fed. */
  private pending: number[] = [];
  private seen = 0;

  constructor(
    readonly candidates: readonly number[] = MEDIAN_WINDOWS,
    readonly errorHorizon = 10,
    private readonly windows: SortedWindows = new SortedWindows(candidates),
  ) {
    if (candidates.length === 0) throw new Error('adaptive median needs at least one candidate window');
    this.recentErrors = candidates.map(() => new SlidingWindow(errorHorizon));
    this.errorSums = candidates.map(() => 0);
  }

  /** The window currently chosen. */
  chosenWindow(): number {
    let best = 0;
    for (let i = 1; i < this.candidates.length; i++) if (this.errorSums[i]! < this.errorSums[best]!) best = i;
    return this.candidates[best]!;
  }

  predict(): number {
    if (this.seen === 0) return 0;
    return medianOfSorted(this.windows.sortedWindow(this.chosenWindow()));
  }

  observe(value: number): void {
    if (this.seen > 0) {
      for (let i = 0; i < this.candidates.length; i++) {
        const errors = this.recentErrors[i]!;
        errors.push(Math.abs(this.pending[i]! - value));
        this.errorSums[i] = errors.sum();
      }
    }
    this.windows.feed(value, this.seen++);
    this.pending = this.candidates.map((w) => medianOfSorted(this.windows.sortedWindow(w)));
  }
}

export const SMOOTHING_GAINS: readonly number[] = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75];
export const MEDIAN_WINDOWS: readonly number[] = [5, 11, 21, 31, 51];

/** A fresh battery in its fixed order (the order breaks ties between equally good predictors). */
export function nwsBattery(): Predictor[] {
  const windows = new SortedWindows(MEDIAN_WINDOWS);
  return [
    new LastValuePredictor(),
    new RunningMeanPredictor(),
    ...SMOOTHING_GAINS.map((g) => new ExponentialSmoothingPredictor(g)),
    ...MEDIAN_WINDOWS.map((w) => new SlidingWindowPredictor('median', w, windows)),
    ...MEDIAN_WINDOWS.map((w) => new SlidingWindowPredictor('trimmed-mean', w, windows)),
    new AdaptiveMedianPredictor(MEDIAN_WINDOWS, 10, windows),
  ];
}
