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
