// Task-space reduction (Berman et al. 1999, §5.6.2).
import { describe, expect, it } from 'vitest';
import type { Application, FileSpec, WorkSpec } from '../../../src/model/application.js';
import { selectTaskSpace, type TaskSpace } from '../../../src/scheduler/strategies/task-space.js';
import { Rng } from '../../../src/util/rng.js';
import { Harness, file, work } from '../support/harness.js';

/** Three chunks of four Works; chunk c shares file c (10 000 B); each Work has a private 10 B input 3 + w. */
const files: FileSpec[] = [...[0, 1, 2].map((c) => file(c, 10_000)), ...Array.from({ length: 12 }, (_, w) => file(3 + w, 10))];
const works: WorkSpec[] = Array.from({ length: 12 }, (_, w) => work(w, [w % 3, 3 + w], [], [10]));
const usage = new Map<number, number>();
for (const w of works) for (const f of w.inputs) usage.set(f, (usage.get(f) ?? 0) + 1);
const select = (mode: TaskSpace, size: number, atHand: number[] = [], seed = 1) =>
  selectTaskSpace({ mode, size, works, files, usage, atHand: new Set(atHand), rng: new Rng(seed) }).map((w) => w.id);

describe('selectTaskSpace', () => {
  it('all: every Work', () => {
    expect(select('all', 3)).toEqual(works.map((w) => w.id));
  });

  it('random: distinct Works, sorted, seeded', () => {
    const a = select('random', 5, [], 1);
    expect(a).toHaveLength(5);
    expect(new Set(a).size).toBe(5);
    expect([...a].sort((x, y) => x - y)).toEqual(a);
    expect(select('random', 5, [], 1)).toEqual(a);
    const others = [2, 3, 4, 5].map((seed) => select('random', 5, [], seed));
    expect(others.some((o) => o.join() !== a.join())).toBe(true);
    expect(select('random', 50)).toEqual(works.map((w) => w.id));
  });

  it('shared-files: one chunk at a time, starting with the chunk whose file is already at hand', () => {
    expect(select('shared-files', 4)).toEqual([0, 3, 6, 9]);
    expect(select('shared-files', 4, [2])).toEqual([2, 5, 8, 11]);
    // Chunk 1 (at hand), then the lowest-id Work of the remaining chunks and its chunk-mate.
    expect(select('shared-files', 6, [1])).toEqual([0, 1, 3, 4, 7, 10]);
  });
});

describe('task space through the scheduler', () => {
  const app: Application = { version: '1', files, works };
  for (const [taskSpace, considered] of [['all', 12], ['random', 4], ['shared-files', 4]] as const) {
    it(`${taskSpace}: the first plan considers ${considered} Works`, () => {
      const h = new Harness(app, { taskSpace, taskSpaceSize: 4 });
      h.start([{ id: 'c1.a', clusterId: 'c1', arch: 0 }]);
      expect(h.ofType('plan')[0]!.consideredWorks).toBe(considered);
      h.runToEnd();
      expect(h.scheduler.stats.worksDone).toBe(12);
    });
  }

  it('shared-files sends each chunk file once even with a small task space', () => {
    const h = new Harness(app, { taskSpace: 'shared-files', taskSpaceSize: 4 });
    h.start([{ id: 'c1.a', clusterId: 'c1', arch: 0 }]);
    h.runToEnd();
    const shared = h.grid.log.filter((l) => /^store [012] /.test(l));
    expect(shared.sort()).toEqual(['store 0 c1', 'store 1 c1', 'store 2 c1']);
  });
});
