// The small distribution language of the generators: a constant (written as a bare number or as
// {"kind": "constant", ...}), a uniform interval, or a normal law truncated to [min, max]. Sampling a
// constant draws nothing from the generator, so making one quantity constant never shifts the random
// stream of the others.
import { standardNormal, type Rng } from '../util/rng.js';

/** A law, or a bare number: the constant of that value. */
export type Distribution = number | Law;

export type Law =
  | { readonly kind: 'constant'; readonly value: number }
  | { readonly kind: 'uniform'; readonly min: number; readonly max: number }
  | { readonly kind: 'normal'; readonly mean: number; readonly stddev: number; readonly min?: number; readonly max?: number };

export const constant = (value: number): Law => ({ kind: 'constant', value });
export const uniform = (min: number, max: number): Law => ({ kind: 'uniform', min, max });

/** Draws beyond which a truncated normal gives up rejecting and clamps (only for absurdly narrow bounds). */
const MAX_REJECTIONS = 1000;

/** The distribution as a law (a bare number as its constant). */
export function lawOf(d: Distribution): Law {
  return typeof d === 'number' ? constant(d) : d;
}

/** Throws an Error naming `what` when the distribution cannot be sampled. */
export function checkDistribution(given: Distribution, what: string): void {
  const bad = (msg: string): never => {
    throw new Error(`${what}: ${msg}`);
  };
  const d = lawOf(given);
  if (typeof d !== 'object' || d === null || !['constant', 'uniform', 'normal'].includes((d as { kind?: unknown }).kind as string)) {
    bad(`expected a distribution (a number, or {"kind": "constant" | "uniform" | "normal", ...}), got ${JSON.stringify(d) ?? 'nothing'}`);
  }
  switch (d.kind) {
    case 'constant':
      if (!Number.isFinite(d.value)) bad(`constant value must be finite, got ${d.value}`);
      return;
    case 'uniform':
      if (!Number.isFinite(d.min) || !Number.isFinite(d.max) || d.min > d.max) bad(`uniform needs finite min <= max, got [${d.min}, ${d.max}]`);
      return;
    case 'normal': {
      if (!Number.isFinite(d.mean) || !(d.stddev >= 0)) bad(`normal needs a finite mean and stddev >= 0, got mean ${d.mean}, stddev ${d.stddev}`);
      const lo = d.min ?? -Infinity;
      const hi = d.max ?? Infinity;
      if (lo > hi) bad(`normal truncation needs min <= max, got [${lo}, ${hi}]`);
      return;
    }
  }
}

export function sample(d: Distribution, rng: Rng): number {
  if (typeof d === 'number') return d;
  switch (d.kind) {
    case 'constant':
      return d.value;
    case 'uniform':
      return d.min === d.max ? d.min : rng.uniform(d.min, d.max);
    case 'normal': {
      const lo = d.min ?? -Infinity;
      const hi = d.max ?? Infinity;
      let x = d.mean;
      for (let i = 0; i < MAX_REJECTIONS; i++) {
        x = d.mean + d.stddev * standardNormal(rng);
        if (x >= lo && x <= hi) return x;
      }
      return Math.min(hi, Math.max(lo, x));
    }
  }
}

/** Rounds to a fixed number of decimals, so that generated files stay short and exact to re-read. */
export function roundTo(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}
