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
  const ids = new Map<string, number>();
  const firstWork: number[] = [];
  const profileOf = Int32Array.from(works, (w, i) => {
    // Number to string round-trips exactly, so equal keys mean equal run times.
    const key = w.estRunTimeS.join(' ');
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
      firstWork.push(i);
    }
    return id;
  });
  return { profileOf, firstWork: Int32Array.from(firstWork) };
}

/**
 * The Works grouped by profile, in their given order within a profile: at position q, the index of a Work.
 * Passes over Works in this order read one profile's durations many times in a row, from cache.
 */
export function profileOrder(profiles: RunTimeProfiles): Int32Array {
  const { profileOf, firstWork } = profiles;
  const start = new Int32Array(firstWork.length + 1);
  for (const p of profileOf) start[p + 1]!++;
  for (let p = 0; p < firstWork.length; p++) start[p + 1]! += start[p]!;
  const order = new Int32Array(profileOf.length);
  profileOf.forEach((p, i) => (order[start[p]!++] = i));
  return order;
}

/** The same profiles for the Works listed in `order` (as given by profileOrder). */
export function reordered(profiles: RunTimeProfiles, order: Int32Array): RunTimeProfiles {
  const profileOf = Int32Array.from(order, (i) => profiles.profileOf[i]!);
  const firstWork = new Int32Array(profiles.firstWork.length).fill(-1);
  profileOf.forEach((p, q) => {
    if (firstWork[p] === -1) firstWork[p] = q;
  });
  return { profileOf, firstWork };
}
