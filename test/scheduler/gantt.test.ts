// (c) Hand-checked small plans: Compl as documented at the top of src/scheduler/gantt.ts.
import { describe, expect, it } from 'vitest';
import type { FileSpec, WorkSpec } from '../../src/model/application.js';
import { GanttChart } from '../../src/scheduler/gantt.js';
import { getHeuristic } from '../../src/scheduler/heuristics/registry.js';
import { Rng } from '../../src/util/rng.js';
import { file, work } from './support/harness.js';

/** One cluster, link latency 1 s and 1000 B/s, hosts of arch 0 at 100 % and 50 % availability. */
function chart(files: FileSpec[], works: WorkSpec[], horizonS = 1000): GanttChart {
  const usage = new Map<number, number>();
  for (const w of works) for (const f of w.inputs) usage.set(f, (usage.get(f) ?? 0) + 1);
  return new GanttChart({
    nowS: 0,
    horizonS,
    clusters: [{ id: 'c1', latencyS: 1, bandwidthBps: 1000 }],
    hosts: [
      { id: 'c1.a', cluster: 0, arch: 0, availability: 1 },
      { id: 'c1.b', cluster: 0, arch: 0, availability: 0.5 },
    ],
    files,
    usage,
  });
}

describe('Compl and the link timeline', () => {
  // File 0 (2000 B) is shared; 1 and 2 (1000 B) private; outputs 3 and 4 (500 B).
  const files = [file(0, 2000), file(1, 1000), file(2, 1000), file(3, 500), file(4, 500)];
  const works = [work(0, [1, 0], [3], [10]), work(1, [0, 2], [4], [10])];

  it('computes Compl by hand: inputs back to back by decreasing usage, compute, output', () => {
    const g = chart(files, works);
    // Missing: file 0 (usage 2) then file 1: (1 + 2) + (1 + 1) = 5 s; compute 10 s; output 1 + 0.5 s.
    expect(g.compl(works[0]!, 0)).toEqual({ endS: 15, complS: 16.5 });
    // At 50 % availability the compute takes 20 s.
    expect(g.compl(works[0]!, 1)).toEqual({ endS: 25, complS: 26.5 });
  });

  it('sends a shared file once; the second Work waits only for its private file', () => {
    const g = chart(files, works);
    const first = g.commit(works[0]!, 0);
    expect(first.sentFiles).toEqual([0, 1]); // decreasing usage: the shared file first
    expect(g.fileArrivalS(0, 0)).toBe(3);
    expect(g.fileArrivalS(0, 1)).toBe(5);
    // The link: 5 s of inputs, then 1.5 s reserved for the output.
    expect(g.linkFreeS(0)).toBe(6.5);
    // Work 1 on host b: file 2 from 6.5 to 8.5; compute 20 s at 50 %; output 1.5 s.
    expect(g.compl(works[1]!, 1)).toEqual({ endS: 28.5, complS: 30 });
    const second = g.commit(works[1]!, 1);
    expect(second.sentFiles).toEqual([2]);
    expect(g.linkEntries[0]!.filter((e) => e.kind === 'input').map((e) => e.kind === 'input' && e.fileId)).toEqual([0, 1, 2]);
  });

  it('a file already stored or in flight is never sent', () => {
    const g = chart(files, works);
    g.markFile(0, 0, 0); // stored
    g.markFile(0, 1, 4); // arriving at 4 s
    // Only the wait for file 1 remains: compute 4–14, output 14–15.5.
    expect(g.compl(works[0]!, 0)).toEqual({ endS: 14, complS: 15.5 });
    expect(g.commit(works[0]!, 0).sentFiles).toEqual([]);
  });

  it('min-min on two Works sharing a file: the file crosses the link once, both Works run in parallel', () => {
    const g = chart(files, works);
    getHeuristic('minmin').plan({ chart: g, works, rng: new Rng(1), randomTolerance: 0 });
    // Work 0 on a ends at 15 (Compl 16.5); then Work 1: on a it would start at 15 (end 25, Compl 26.5),
    // on b file 2 arrives at 8.5 and it ends at 28.5 — a wins by Compl.
    expect(g.assignments.map((a) => [a.workId, a.host, a.endS])).toEqual([
      [0, 0, 15],
      [1, 0, 25],
    ]);
    expect(g.linkEntries[0]!.filter((e) => e.kind === 'input')).toHaveLength(3);
  });

  it('a host is full once a compute starts after the horizon', () => {
    const g = chart(files, works, 12);
    g.commit(works[0]!, 0); // starts at 5
    expect(g.isFull(0)).toBe(false);
    g.commit(works[1]!, 0); // starts at 15 > 12
    expect(g.isFull(0)).toBe(true);
    expect(g.hasRoom()).toBe(true); // host b is still empty
  });
});

describe('workqueue', () => {
  it('gives the next Works by id to idle hosts only, without estimates', () => {
    const files = [file(0, 10), file(1, 10), file(2, 10)];
    const works = [work(0, [], [0], [1e6]), work(1, [], [1], [1]), work(2, [], [2], [1])];
    const g = chart(files, works);
    g.holdHost(1, 50, 0); // host b is running something
    getHeuristic('workqueue').plan({ chart: g, works, rng: new Rng(1), randomTolerance: 0 });
    expect(g.assignments.map((a) => [a.workId, a.host])).toEqual([[0, 0]]);
  });
});

describe('sortedInputs', () => {
  it('orders one or two inputs as the general sort does: deduplicated, by decreasing usage, then by id', () => {
    const rng = new Rng(41);
    const files = Array.from({ length: 6 }, (_, id) => file(id, 100));
    for (let trial = 0; trial < 300; trial++) {
      const works = Array.from({ length: 8 }, (_, id) =>
        work(id, Array.from({ length: rng.int(4) }, () => rng.int(6)), [], [1]),
      );
      const g = chart(files, works);
      const usage = new Map<number, number>();
      for (const w of works) for (const f of w.inputs) usage.set(f, (usage.get(f) ?? 0) + 1);
      for (const w of works) {
        const expected = [...new Set(w.inputs)].sort((a, b) => (usage.get(b) ?? 0) - (usage.get(a) ?? 0) || a - b);
        expect([...g.sortedInputs(w)], `inputs ${w.inputs.join(',')}`).toEqual(expected);
      }
    }
  });
});
