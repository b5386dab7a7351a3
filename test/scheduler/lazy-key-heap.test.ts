// LazyKeyHeap and SendWatch against a naive model: a plain set whose least element by (key, id) is found by
// a scan (SendWatch: a sorted list, Works joining again with other send durations). Random pushes, removes (from the ordered part and from the part appended since the last read),
// key updates and reads of the top, with few distinct keys so that ties (broken by the lower id) are common.
import { describe, expect, it } from 'vitest';
import { LazyKeyHeap } from '../../src/scheduler/lazy-key-heap.js';
import { SendWatch, type HostBoundInputs } from '../../src/scheduler/heuristics/host-bound-pool.js';
import { PlanArrays } from '../../src/scheduler/heuristics/plan-arrays.js';
import { Rng } from '../../src/util/rng.js';

/** The least of `ids` by key[base + id], then id; -1 when empty. */
function naiveTop(ids: Set<number>, key: Float64Array, base: number): number {
  let best = -1;
  for (const id of ids) {
    if (best < 0 || key[base + id]! < key[base + best]! || (key[base + id] === key[base + best] && id < best)) best = id;
  }
  return best;
}

describe('LazyKeyHeap', () => {
  it('reads the least id by (key, id) after any mix of pushes, removes, updates and reads', () => {
    const rng = new Rng(11);
    for (let trial = 0; trial < 60; trial++) {
      const n = 1 + rng.int(200);
      const base = rng.int(3) * n;
      const key = new Float64Array(base + n);
      const distinct = 1 + rng.int(4);
      for (let i = 0; i < base + n; i++) key[i] = rng.int(distinct) - 1;
      const heap = new LazyKeyHeap(key, base, new Int32Array(n));
      const model = new Set<number>();
      for (let step = 0; step < 2_000; step++) {
        const op = rng.int(10);
        const id = rng.int(n);
        if (op < 4) {
          // Several pushes in a row: at a plan's start Works join in increasing index order.
          if (!model.has(id)) {
            heap.push(id);
            model.add(id);
          }
        } else if (op < 7) {
          if (model.has(id)) {
            heap.remove(id);
            model.delete(id);
          }
        } else if (op < 8) {
          if (model.has(id)) {
            key[base + id] = rng.int(distinct + 1) - 1;
            heap.update(id);
          }
        } else {
          expect(heap.top(), `trial ${trial} step ${step}`).toBe(naiveTop(model, key, base));
        }
        expect(heap.size).toBe(model.size);
      }
      // Read out whole: the total order, whatever the layout.
      const expected = [...model].sort((a, b) => key[base + a]! - key[base + b]! || a - b);
      const got: number[] = [];
      for (let j = heap.top(); j >= 0; j = heap.top()) {
        got.push(j);
        heap.remove(j);
      }
      expect(got).toEqual(expected);
    }
  });

  it('lists every id at a slot below size', () => {
    const key = new Float64Array(10);
    const heap = new LazyKeyHeap(key, 0, new Int32Array(10));
    for (const id of [7, 3, 9, 1]) heap.push(id);
    expect(heap.top()).toBe(1);
    heap.push(5);
    heap.remove(9);
    const listed = Array.from({ length: heap.size }, (_, slot) => heap.at(slot)).sort((a, b) => a - b);
    expect(listed).toEqual([1, 3, 5, 7]);
    expect(heap.at(heap.size)).toBe(-1);
  });
});

describe('SendWatch', () => {
  it('finds the watched Works now link-bound, longest send first, as a sorted list would', () => {
    const rng = new Rng(5);
    for (let trial = 0; trial < 40; trial++) {
      const n = 1 + rng.int(120);
      const C = 1 + rng.int(3);
      const sendDur = new Float64Array(C * n);
      const availReady = new Float64Array(C * n);
      // Few distinct send durations (ties common), some Works with no input missing (-Infinity: not watched).
      for (let cell = 0; cell < C * n; cell++) {
        sendDur[cell] = rng.int(5) === 0 ? -Infinity : rng.int(4) * 10;
        availReady[cell] = rng.int(3) * 5;
      }
      const linkFree = new Float64Array(C);
      const firstFree = new Float64Array(C).fill(100);
      const engine: HostBoundInputs = {
        n,
        clusterCount: C,
        sendDur,
        availReady,
        summaryStale: new Uint8Array(C * n),
        firstFreeS: (c) => firstFree[c]!,
        linkFreeS: (c) => linkFree[c]!,
      };
      const watch = new SendWatch(engine, new PlanArrays());
      const watched = new Set<number>();
      for (let step = 0; step < 400; step++) {
        const op = rng.int(6);
        const j = rng.int(n);
        if (op < 3) {
          if (!watched.has(j)) {
            // Not watched: its summaries may have changed since it left (it may still sit in a heap, marked).
            if (rng.int(2) === 0) for (let c = 0; c < C; c++) sendDur[c * n + j] = rng.int(5) === 0 ? -Infinity : rng.int(4) * 10;
            watch.add(j);
            watched.add(j);
          }
        } else if (op < 4) {
          if (watched.has(j)) {
            watch.remove(j);
            watched.delete(j);
          }
        } else {
          // A placement on c: its link and first free host later.
          const c = rng.int(C);
          linkFree[c]! += rng.int(3) * 10;
          firstFree[c]! += rng.int(3) * 5;
          // The model: watched Works with an input missing on c, longest send first then lowest index,
          // taken while they would now be link-bound.
          const order = [...watched]
            .filter((w) => sendDur[c * n + w]! > -Infinity)
            .sort((a, b) => sendDur[c * n + b]! - sendDur[c * n + a]! || a - b);
          const expected: number[] = [];
          for (const w of order) {
            if (Math.max(availReady[c * n + w]!, linkFree[c]! + sendDur[c * n + w]!) <= firstFree[c]!) break;
            expected.push(w);
          }
          const got = [
            ...watch.linkBoundOn(c, (w) => {
              watch.remove(w);
              watched.delete(w);
            }),
          ];
          expect(got, `trial ${trial} step ${step}`).toEqual(expected);
        }
      }
    }
  });
});
