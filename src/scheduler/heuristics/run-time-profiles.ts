// Works with equal estimated run times (a "profile") have equal compute durations on every host, so the
// engine keeps one row of durations per profile. MCell-style sweeps have few profiles for many Works (one
// model, many seeds), and few rows stay in cache during the engine's passes over all Works.
import type { WorkSpec } from '../../model/application.js';

export interface RunTimeProfiles {
  /** Per Work (index in the plan's Works), its profile. */
  readonly profileOf: Int32Array;
  /** Per profile, the first Work that has it. */
  readonly firstWork: Int32Array;
}

export function runTimeProfiles(works: readonly WorkSpec[]): RunTimeProfiles {
  // Profiles bucketed by a hash of the estimates, compared in full within a bucket.
  const buckets = new Map<number, number[]>();
  const firstWork: number[] = [];
  const profileOf = new Int32Array(works.length);
  for (let i = 0; i < works.length; i++) profileOf[i] = profileFor(works, i, buckets, firstWork);
  return { profileOf, firstWork: Int32Array.from(firstWork) };
}

/** Work i's profile, found in (or added to) the buckets by hash. */
function profileFor(works: readonly WorkSpec[], i: number, buckets: Map<number, number[]>, firstWork: number[]): number {
  const estimates = works[i]!.estRunTimeS;
  const hash = numbersHash(estimates, 0);
  let bucket = buckets.get(hash);
  if (bucket === undefined) buckets.set(hash, (bucket = []));
  for (const id of bucket) if (sameNumbers(works[firstWork[id]!]!.estRunTimeS, estimates)) return id;
  const id = firstWork.length;
  firstWork.push(i);
  bucket.push(id);
  return id;
}

/** A small-integer hash of some numbers (for Map keys: equal numbers, equal hashes). */
export function numbersHash(values: readonly number[], seed: number): number {
  let hash = seed | 0;
  for (const v of values) hash = Math.imul(hash ^ ((v * 4096) | 0), 0x9e3779b1);
  return hash >>> 2;
}

/** Equal lengths and values, NaN equal to NaN. */
export function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    const x = a[k]!;
    const y = b[k]!;
    if (x !== y && !(Number.isNaN(x) && Number.isNaN(y))) return false;
  }
  return true;
}

/**
 * The Works grouped by profile, in their given order within a profile: at position q, the index of a Work.
 * Passes over Works in this order read one profile's durations many times in a row, from cache.
 */
export function profileOrder(profiles: RunTimeProfiles): Int32Array {
  const { profileOf, firstWork } = profiles;
  const start = new Int32Array(firstWork.length + 1);
  for (let i = 0; i < profileOf.length; i++) start[profileOf[i]! + 1]!++;
  for (let p = 0; p < firstWork.length; p++) start[p + 1]! += start[p]!;
  const order = new Int32Array(profileOf.length);
  for (let i = 0; i < profileOf.length; i++) order[start[profileOf[i]!]!++] = i;
  return order;
}

/** The same profiles for the Works listed in `order` (as given by profileOrder). */
export function reordered(profiles: RunTimeProfiles, order: Int32Array): RunTimeProfiles {
  // Plain loops: Int32Array.from and forEach over a typed array go through its iterator.
  const profileOf = new Int32Array(order.length);
  const firstWork = new Int32Array(profiles.firstWork.length).fill(-1);
  for (let q = 0; q < order.length; q++) {
    const p = (profileOf[q] = profiles.profileOf[order[q]!]!);
    if (firstWork[p] === -1) firstWork[p] = q;
  }
  return { profileOf, firstWork };
}
