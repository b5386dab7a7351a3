// The seeds of an experiment's runs, as its specification gives them: a list, or {"count": N, "first": S}.
// A seed is what the random generator takes (util/rng.ts): a whole number below 2^32, as `--seed` is.
import type { Diagnostic } from '../util/diagnostics.js';
import { MAX_SEED } from '../util/rng.js';
import type { JsonSource } from '../sweep/json-source.js';

export type SeedsSpec = readonly number[] | { readonly count: number; readonly first?: number };

/** More seeds than this in one experiment is a typing mistake rather than a study (each is a run per cell). */
export const MAX_SEED_COUNT = 100_000;

/** The JSON schema of "seeds". */
export const SEEDS_SCHEMA = {
  description: `a list of whole numbers from 0 to ${MAX_SEED}, or {"count": N, "first": S}`,
  oneOf: [
    { type: 'array', items: { type: 'integer', minimum: 0, maximum: MAX_SEED }, minItems: 1, maxItems: MAX_SEED_COUNT, uniqueItems: true },
    {
      type: 'object',
      required: ['count'],
      additionalProperties: false,
      properties: { count: { type: 'integer', minimum: 1, maximum: MAX_SEED_COUNT }, first: { type: 'integer', minimum: 0, maximum: MAX_SEED } },
    },
  ],
} as const;

/** A count that runs past the largest seed (the schema bounds each number alone). */
export function seedsProblems(source: JsonSource, seeds: SeedsSpec | undefined): Diagnostic[] {
  if (seeds === undefined || Array.isArray(seeds)) return [];
  const { count, first = 1 } = seeds as { count: number; first?: number };
  if (first + count - 1 <= MAX_SEED) return [];
  return [
    {
      severity: 'error',
      pos: source.positionOf('/seeds'),
      message: `/seeds: ${count} seeds from ${first} run past ${MAX_SEED}, the largest seed`,
      hint: `start from a smaller "first" (at most ${MAX_SEED - count + 1} for ${count} seeds)`,
    },
  ];
}

/** The seeds in order; `fallback` when the specification gives none. */
export function seedList(seeds: SeedsSpec | undefined, fallback: readonly number[]): number[] {
  if (seeds === undefined) return [...fallback];
  if (Array.isArray(seeds)) return [...(seeds as readonly number[])];
  const { count, first = 1 } = seeds as { count: number; first?: number };
  return Array.from({ length: count }, (_, i) => first + i);
}
