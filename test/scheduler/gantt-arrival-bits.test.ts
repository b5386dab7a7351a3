// GanttChart.indexArrivals: the per-file bits that answer "not available on this cluster" without a Map lookup
// give the same input summaries, Compls and commits as the Maps alone, after random sequences of marked
// files and placements on up to 11 clusters (so that clusters c and c + 8 share a bit).
import { describe, expect, it } from 'vitest';
import type { WorkSpec } from '../../src/model/application.js';
import { GanttChart, type ChartSetup } from '../../src/scheduler/gantt.js';
import { Rng } from '../../src/util/rng.js';
import { file, work } from './support/harness.js';

function setup(rng: Rng): { chartSetup: ChartSetup; works: WorkSpec[] } {
  const clusterCount = 1 + rng.int(11);
  const files = Array.from({ length: 12 }, (_, id) => file(id, 100 * (1 + rng.int(20))));
  const works = Array.from({ length: 10 }, (_, id) => work(id, Array.from({ length: rng.int(5) }, () => rng.int(12)), [], [10 + rng.int(5)]));
  const usage = new Map<number, number>();
  for (const w of works) for (const f of w.inputs) usage.set(f, (usage.get(f) ?? 0) + 1);
  const chartSetup: ChartSetup = {
    nowS: 5,
    horizonS: 1e9,
    clusters: Array.from({ length: clusterCount }, (_, c) => ({ id: `c${c}`, latencyS: 0.5 + c, bandwidthBps: 1000 })),
    hosts: Array.from({ length: 2 * clusterCount }, (_, h) => ({ id: `h${h}`, cluster: h >> 1, arch: 0, availability: 1 })),
    files,
    usage,
  };
  return { chartSetup, works };
}

describe('GanttChart arrival bits', () => {
  it('answer as the Maps do, whenever they are set up', () => {
    const rng = new Rng(7);
    for (let trial = 0; trial < 40; trial++) {
      const { chartSetup, works } = setup(rng);
      const plain = new GanttChart(chartSetup);
      const indexed = new GanttChart(chartSetup);
      const indexAt = rng.int(10);
      const C = chartSetup.clusters.length;
      for (let step = 0; step < 10; step++) {
        if (step === indexAt) indexed.indexArrivals();
        const c = rng.int(C);
        if (rng.int(2) === 0) {
          const fileId = rng.int(12);
          const arrivalS = 5 + rng.int(3);
          plain.markFile(c, fileId, arrivalS);
          indexed.markFile(c, fileId, arrivalS);
        } else {
          const w = works[rng.int(works.length)]!;
          const host = 2 * c + rng.int(2);
          expect(indexed.commit(w, host)).toEqual(plain.commit(w, host));
        }
        for (const w of works) {
          for (let k = 0; k < C; k++) expect(indexed.inputSummary(w, k)).toEqual(plain.inputSummary(w, k));
          for (let h = 0; h < 2 * C; h++) expect(indexed.compl(w, h)).toEqual(plain.compl(w, h));
        }
      }
    }
  });
});
