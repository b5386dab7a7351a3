// The WorkIndex kept between plans gives each plan exactly what work-classes.ts and run-time-profiles.ts
// find afresh, after random sequences of plans over random subsets of Works, of Works whose specification
// object is replaced (same or different numbers), and of output sizes that change between plans.
import { describe, expect, it } from 'vitest';
import type { WorkSpec } from '../../src/model/application.js';
import { PlanArrays } from '../../src/scheduler/heuristics/plan-arrays.js';
import { runTimeProfiles } from '../../src/scheduler/heuristics/run-time-profiles.js';
import { WorkIndex } from '../../src/scheduler/heuristics/work-index.js';
import { workClasses, type WorkClasses } from '../../src/scheduler/heuristics/work-classes.js';
import { Rng } from '../../src/util/rng.js';
import { work } from './support/harness.js';

/** A random specification for Work `id`: run times and inputs from small sets, so that many Works are alike. */
function randomSpec(rng: Rng, id: number): WorkSpec {
  const runTimes = [[10], [10, 20], [20, 10], [NaN], [10, NaN], [-0], [0]][rng.int(7)]!;
  const inputs = Array.from({ length: rng.int(4) }, () => rng.int(5));
  return work(id, inputs, [], [...runTimes]);
}

const BYTES: readonly (number | undefined)[] = [undefined, 100, 200, NaN, 0];

function plain(classes: WorkClasses): { count: number; start: number[]; list: number[] } {
  return { count: classes.count, start: [...classes.start], list: [...classes.list] };
}

describe('WorkIndex', () => {
  it('gives each plan the classes, profiles and distinct inputs found afresh', () => {
    const rng = new Rng(31);
    for (let trial = 0; trial < 20; trial++) {
      const index = new WorkIndex();
      const size = 1 + rng.int(60);
      const specs = Array.from({ length: size }, (_, id) => randomSpec(rng, id));
      const bytes = specs.map(() => BYTES[rng.int(BYTES.length)]);
      for (let plan = 0; plan < 15; plan++) {
        // Between plans: some specifications replaced (half of them by a copy with the same numbers), some
        // output sizes changed.
        for (let k = rng.int(4); k > 0; k--) {
          const id = rng.int(size);
          specs[id] = rng.int(2) === 0 ? { ...specs[id]! } : randomSpec(rng, id);
        }
        for (let k = rng.int(4); k > 0; k--) bytes[rng.int(size)] = BYTES[rng.int(BYTES.length)];
        // The plan's Works: a random subset, by increasing id.
        const ids = specs.map((_, id) => id).filter(() => rng.int(3) > 0);
        const works = ids.map((id) => specs[id]!);
        const outputBytes = ids.map((id) => bytes[id]);

        index.refresh(works);
        const arrays = PlanArrays.take();
        const kept = plain(index.classes(works, outputBytes, arrays));
        PlanArrays.give(arrays);
        const fresh = plain(workClasses(works, outputBytes, PlanArrays.take()));
        expect(kept).toEqual(fresh);

        const firstWorks = Array.from({ length: fresh.count }, (_, k) => works[fresh.list[fresh.start[k]!]!]!);
        const profiles = index.profiles(firstWorks);
        const freshProfiles = runTimeProfiles(firstWorks);
        expect([...profiles.profileOf]).toEqual([...freshProfiles.profileOf]);
        expect([...profiles.firstWork]).toEqual([...freshProfiles.firstWork]);

        for (const w of works) {
          const start = index.inputsStart(w.id);
          expect([...index.inputs.subarray(start, start + index.inputsCount(w.id))]).toEqual(w.inputs.filter((f, k) => w.inputs.indexOf(f) === k));
        }
      }
    }
  });

  it('keeps apart Works whose output sizes differ, and those of size NaN from every other', () => {
    // Works 0, 1, 2 have the same specification; output sizes 100, 100, 200: classes {0, 1}, {2}. Works 3
    // and 4: same specification, output size NaN (never equal to itself, as workClasses compares): {3}, {4}.
    const works = [work(0, [1], [], [10]), work(1, [1], [], [10]), work(2, [1], [], [10]), work(3, [2], [], [10]), work(4, [2], [], [10])];
    const index = new WorkIndex();
    index.refresh(works);
    const classes = plain(index.classes(works, [100, 100, 200, NaN, NaN], PlanArrays.take()));
    expect(classes).toEqual({ count: 4, start: [0, 2, 3, 4, 5], list: [0, 1, 2, 3, 4] });
  });
});
