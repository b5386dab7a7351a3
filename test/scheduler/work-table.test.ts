// WorkTable (src/scheduler/work-table.ts) against the Map it replaces in the scheduler: seeded sequences of
// Works added (in increasing id order, as the application lists them, then out of order from a random
// point, with gaps and ids beyond the expected count), compared after every add: size, get and has of
// random ids (added or not), and regularly in full — values, keys, entries, forEach and iteration, all in
// the Map's order (the order added).
import { describe, expect, it } from 'vitest';
import type { WorkState } from '../../src/scheduler/state.js';
import { WorkTable } from '../../src/scheduler/work-table.js';
import { Rng } from '../../src/util/rng.js';

function workState(id: number): WorkState {
  return { spec: { id, inputs: [], outputs: [], runTimeS: [1], estRunTimeS: [1] }, status: 'todo', host: null, executions: 0, exitFailures: 0 };
}

function sameAsMap(ours: WorkTable, theirs: Map<number, WorkState>): void {
  expect(ours.size).toBe(theirs.size);
  expect([...ours.values()]).toEqual([...theirs.values()]);
  expect([...ours.keys()]).toEqual([...theirs.keys()]);
  expect([...ours.entries()]).toEqual([...theirs.entries()]);
  expect([...ours]).toEqual([...theirs]);
  const visited: number[] = [];
  ours.forEach((ws, id, map) => {
    expect(map).toBe(ours);
    expect(ws.spec.id).toBe(id);
    visited.push(id);
  });
  expect(visited).toEqual([...theirs.keys()]);
}

describe('WorkTable', () => {
  for (const [name, seed, expected, inOrderFor] of [
    ['every Work in id order', 11, 2_000, Infinity],
    ['in id order with gaps, then out of order', 13, 2_000, 700],
    ['out of order from the start, ids beyond the expected count', 17, 500, 0],
  ] as const) {
    it(`agrees with Map: ${name}`, () => {
      const rng = new Rng(seed);
      const ours = new WorkTable(expected);
      const theirs = new Map<number, WorkState>();
      const ids = Array.from({ length: 2_000 }, (_, i) => i);
      // After inOrderFor adds, the rest in a seeded random order.
      const cut = Math.min(inOrderFor, ids.length);
      for (let i = ids.length - 1; i > cut; i--) {
        const j = cut + rng.int(i - cut + 1);
        [ids[i], ids[j]] = [ids[j]!, ids[i]!];
      }
      let step = 0;
      for (const id of ids) {
        // Gaps: a seeded fifth of the ids is never added.
        if (name !== 'every Work in id order' && rng.int(5) === 0) continue;
        const ws = workState(name.includes('beyond') ? id * 3 : id);
        ours.add(ws);
        theirs.set(ws.spec.id, ws);
        expect(() => ours.add(ws)).toThrow(/already/);
        expect(ours.size).toBe(theirs.size);
        for (let k = 0; k < 5; k++) {
          const probe = rng.int(7_000) - 10;
          expect(ours.get(probe)).toBe(theirs.get(probe));
          expect(ours.has(probe)).toBe(theirs.has(probe));
        }
        if (step++ % 97 === 0) sameAsMap(ours, theirs);
      }
      sameAsMap(ours, theirs);
      expect(ours.at[ids[0]!]).toBe(theirs.get(ids[0]!));
    });
  }

  it('refuses ids that do not index an array', () => {
    const table = new WorkTable(10);
    for (const bad of [-1, 1.5, 2 ** 40]) expect(() => table.add(workState(bad))).toThrow(/not an index/);
    expect(table.size).toBe(0);
  });
});
