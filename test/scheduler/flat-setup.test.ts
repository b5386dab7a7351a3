// A plan's set-up from flat arrays kept between plans (WorkIndex's input and output lists, FileSizes) gives
// bit for bit what reading the Works' objects gives: GanttChart.fewInputsSummary against inputSummary,
// WorkIndex.outputBytes against GanttChart.outputBytes, StoredInputs.markListed against mark, and whole
// plans made with an index kept over several plans against plans made afresh and the naive reference's,
// while files are replaced by new objects of other sizes between plans.
import { describe, expect, it } from 'vitest';
import type { FileSpec, WorkSpec } from '../../src/model/application.js';
import { GanttChart, type ChartSetup, type InputSummary } from '../../src/scheduler/gantt.js';
import { getHeuristic } from '../../src/scheduler/heuristics/registry.js';
import { PlanArrays } from '../../src/scheduler/heuristics/plan-arrays.js';
import { WorkIndex } from '../../src/scheduler/heuristics/work-index.js';
import type { ClusterState } from '../../src/scheduler/state.js';
import { StoredInputs } from '../../src/scheduler/stored-inputs.js';
import { Rng } from '../../src/util/rng.js';
import { referencePlan } from './support/reference.js';

const FILES = 8;

/** Sizes whose send times are not round: the sum of three of them depends on the order they are added in. */
function randomFile(rng: Rng, id: number): FileSpec {
  const sizeBytes = 100 + rng.int(900) + rng.int(1000) / 7;
  return { id, name: `f${id}`, sizeBytes, estSizeBytes: sizeBytes };
}

/** 0 to 4 inputs drawn among few files (repeats are common), 0 to 2 outputs (repeats possible). */
function randomWork(rng: Rng, id: number): WorkSpec {
  const inputs = Array.from({ length: rng.int(5) }, () => rng.int(FILES));
  const outputs = Array.from({ length: rng.int(3) }, () => rng.int(FILES));
  return { id, inputs, outputs, runTimeS: [10 + rng.int(20)], estRunTimeS: [10 + rng.int(20)] };
}

/**
 * Between plans: up to two files replaced by new objects with another size (as observed outputs are), up to
 * two Works replaced by new ones. Returns how many files were replaced.
 */
function replaceSome(rng: Rng, files: FileSpec[], specs: WorkSpec[]): number {
  const replaced = rng.int(3);
  for (let k = 0; k < replaced; k++) {
    const f = rng.int(FILES);
    files[f] = { ...files[f]!, estSizeBytes: files[f]!.estSizeBytes * 2 + rng.int(100) / 3 };
  }
  for (let k = rng.int(3); k > 0; k--) {
    const id = rng.int(specs.length);
    specs[id] = randomWork(rng, id);
  }
  return replaced;
}

function chartSetup(rng: Rng, files: readonly FileSpec[], works: readonly WorkSpec[]): ChartSetup {
  // Up to 11 clusters: clusters c and c + 8 share an arrival bit.
  const clusterCount = 1 + rng.int(11);
  const usage = new Map<number, number>();
  for (const w of works) for (const f of new Set(w.inputs)) usage.set(f, (usage.get(f) ?? 0) + 1);
  return {
    nowS: 5,
    horizonS: 5 + 20 + rng.int(60),
    clusters: Array.from({ length: clusterCount }, (_, c) => ({ id: `c${c}`, latencyS: 0.1 * rng.int(4), bandwidthBps: rng.pick([1000, 3000, 7000]) })),
    hosts: Array.from({ length: 2 * clusterCount }, (_, h) => ({ id: `h${h}`, cluster: h >> 1, arch: 0, availability: rng.pick([1, 0.5]) })),
    files,
    usage,
  };
}

describe('GanttChart.fewInputsSummary', () => {
  it('equals inputSummary for Works of at most two distinct inputs, from the index lists and kept sizes', () => {
    const rng = new Rng(131);
    const seen = new Set<string>();
    for (let trial = 0; trial < 60; trial++) {
      const files = Array.from({ length: FILES }, (_, id) => randomFile(rng, id));
      const works = Array.from({ length: 12 }, (_, id) => randomWork(rng, id));
      const chart = new GanttChart(chartSetup(rng, files, works));
      const C = chart.clusters.length;
      const index = new WorkIndex();
      index.refresh(works);
      const indexAt = rng.int(8);
      for (let step = 0; step < 8; step++) {
        if (step === indexAt) chart.indexArrivals();
        // Files stored or on their way (arrivals before and after now), and placements that plan inputs.
        const c = rng.int(C);
        if (rng.int(2) === 0) chart.markFile(c, rng.int(FILES), 5 + rng.int(4) - 1);
        else chart.commit(works[rng.int(works.length)]!, 2 * c + rng.int(2));
        for (const w of works) {
          const start = index.inputsStart(w.id);
          const count = index.inputsCount(w.id);
          if (count > 2) continue;
          seen.add(`${count} distinct of ${w.inputs.length}`);
          const file0 = count > 0 ? index.inputs[start]! : -1;
          const file1 = count > 1 ? index.inputs[start + 1]! : -1;
          const bytes0 = count > 0 ? index.sizes.estSizeBytes(files, file0) : 0;
          const bytes1 = count > 1 ? index.sizes.estSizeBytes(files, file1) : 0;
          for (let k = 0; k < C; k++) {
            const out: InputSummary = { missingCount: -1, sendDurS: NaN, availableReadyS: NaN };
            const arrival0 = count > 0 ? chart.knownArrivalS(k, file0) : undefined;
            const arrival1 = count > 1 ? chart.knownArrivalS(k, file1) : undefined;
            expect(arrival0).toBe(count > 0 ? chart.fileArrivalS(k, file0) : undefined);
            expect(arrival1).toBe(count > 1 ? chart.fileArrivalS(k, file1) : undefined);
            expect(chart.fewInputsSummary(k, count, arrival0, bytes0, arrival1, bytes1, out)).toStrictEqual(chart.inputSummary(w, k));
          }
        }
      }
    }
    // No input, one, one repeated, two distinct, two distinct among three or four (repeats).
    for (const shape of ['0 distinct of 0', '1 distinct of 1', '1 distinct of 2', '2 distinct of 2', '2 distinct of 3', '2 distinct of 4']) expect(seen).toContain(shape);
  });
});

describe('WorkIndex.outputBytes', () => {
  // The files handed to each plan: one array changed in place, or (as Beliefs.planFiles) a frozen copy made
  // anew only when some file was replaced, so that most plans are handed the array of the plan before.
  for (const handed of ['changed in place', 'frozen copies'] as const) {
    it(`equals GanttChart.outputBytes over plans whose files and Works are replaced by new objects (${handed})`, () => {
      const rng = new Rng(17);
      const files = Array.from({ length: FILES }, (_, id) => randomFile(rng, id));
      const specs = Array.from({ length: 30 }, (_, id) => randomWork(rng, id));
      const index = new WorkIndex();
      let replacedFiles = 0;
      let sameArray = 0;
      let given: readonly FileSpec[] = Object.freeze(files.slice());
      for (let plan = 0; plan < 60; plan++) {
        const replaced = replaceSome(rng, files, specs);
        replacedFiles += replaced;
        if (handed === 'changed in place') given = files;
        else if (replaced > 0) given = Object.freeze(files.slice());
        else sameArray++;
        const works = specs.filter(() => rng.int(3) > 0);
        index.refresh(works);
        const chart = new GanttChart(chartSetup(rng, given, works));
        const arrays = PlanArrays.take();
        const { bytes, none } = index.outputBytes(works.length, given, arrays);
        expect(works.map((_, i) => (none[i] === 1 ? undefined : bytes[i]))).toStrictEqual(works.map((w) => chart.outputBytes(w)));
        PlanArrays.give(arrays);
        expect([...index.ids.subarray(0, works.length)]).toEqual(works.map((w) => w.id));
      }
      expect(replacedFiles).toBeGreaterThan(20);
      if (handed === 'frozen copies') expect(sameArray).toBeGreaterThan(10);
    });
  }

  it('fails on a file id with no file, as reading the file did', () => {
    const index = new WorkIndex();
    const works = [{ id: 0, inputs: [], outputs: [3], runTimeS: [1], estRunTimeS: [1] }];
    index.refresh(works);
    expect(() => index.outputBytes(1, [randomFile(new Rng(1), 0)], PlanArrays.take())).toThrow(TypeError);
  });
});

describe('plans with a WorkIndex kept between them', () => {
  for (const name of ['xsufferage', 'sufferage', 'minmin', 'maxmin', 'randomized-sufferage']) {
    it(`${name}: the same assignments as plans made afresh, with files replaced between plans`, () => {
      const rng = new Rng(23);
      const files = Array.from({ length: FILES }, (_, id) => randomFile(rng, id));
      const specs = Array.from({ length: 40 }, (_, id) => randomWork(rng, id));
      const index = new WorkIndex();
      let placed = 0;
      for (let plan = 0; plan < 25; plan++) {
        replaceSome(rng, files, specs);
        const works = specs.filter(() => rng.int(4) > 0);
        const setup = chartSetup(rng, [...files], works);
        const seed = rng.int(1000);
        const kept = new GanttChart(setup);
        getHeuristic(name).plan({ chart: kept, works, rng: new Rng(seed), randomTolerance: 0.1, workIndex: index });
        const fresh = new GanttChart(setup);
        getHeuristic(name).plan({ chart: fresh, works, rng: new Rng(seed), randomTolerance: 0.1 });
        expect(kept.assignments, `${name}, plan ${plan}`).toStrictEqual(fresh.assignments);
        // And the naive reference, which reads every Work and file object (GanttChart.compl).
        const naive = referencePlan(name, new GanttChart(setup), works, new Rng(seed), 0.1, 'all');
        expect(kept.assignments.map((a) => ({ workId: a.workId, host: a.host })), `${name}, plan ${plan}`).toEqual(naive);
        placed += kept.assignments.length;
      }
      expect(placed).toBeGreaterThan(25 * 4);
    });
  }
});

describe('plans of a sweep: runs of Works sharing their first input', () => {
  // MctEngine.summarizeInputs copies a Work's summaries from an earlier Work of its run when its second input
  // is available nowhere and exactly as large. Here the second inputs mostly have one size, and some are
  // already on some clusters, as a parameter file is once it has been sent for a Work planned again since.
  for (const name of ['xsufferage', 'sufferage', 'extended-sufferage', 'maxmin', 'minmin']) {
    it(`${name}: the same assignments as the naive reference`, () => {
      const rng = new Rng(41);
      let placed = 0;
      let stored = 0;
      for (let plan = 0; plan < 30; plan++) {
        const chunks = 1 + rng.int(3);
        const perChunk = 2 + rng.int(6);
        const files: FileSpec[] = [];
        const file = (sizeBytes: number): number => files.push({ id: files.length, name: `f${files.length}`, sizeBytes, estSizeBytes: sizeBytes }) - 1;
        const shared = Array.from({ length: chunks }, () => file(2000 + rng.int(3000)));
        const works: WorkSpec[] = [];
        for (let k = 0; k < chunks * perChunk; k++) {
          const parameter = file(rng.int(4) === 0 ? 150 + rng.int(3) : 150);
          const runS = 20 + rng.int(3);
          works.push({ id: k, inputs: [shared[Math.floor(k / perChunk)]!, parameter], outputs: [file(30)], runTimeS: [runS], estRunTimeS: [runS] });
        }
        const setup = chartSetup(rng, files, works);
        const seed = rng.int(1000);
        const charts = [new GanttChart(setup), new GanttChart(setup)];
        // Some shared files and some parameter files already there (or on their way) on some clusters.
        for (const w of works) {
          if (rng.int(3) > 0) continue;
          const c = rng.int(setup.clusters.length);
          const f = w.inputs[rng.int(4) === 0 ? 0 : 1]!;
          const at = 5 + rng.int(40) - 2;
          for (const chart of charts) chart.markFile(c, f, at);
          stored++;
        }
        getHeuristic(name).plan({ chart: charts[0]!, works, rng: new Rng(seed), randomTolerance: 0.1 });
        const naive = referencePlan(name, charts[1]!, works, new Rng(seed), 0.1, 'all');
        expect(charts[0]!.assignments.map((a) => ({ workId: a.workId, host: a.host })), `${name}, plan ${plan}`).toEqual(naive);
        placed += naive.length;
      }
      expect(stored).toBeGreaterThan(30);
      expect(placed).toBeGreaterThan(30 * 4);
    });
  }
});

describe('StoredInputs.markListed', () => {
  it('marks the same files and finds the same ones, in the same order, as mark', () => {
    const rng = new Rng(5);
    let foundAny = 0;
    for (let trial = 0; trial < 60; trial++) {
      const files = Array.from({ length: FILES }, (_, id) => randomFile(rng, id));
      // 1 to 12 Works: with few, mark looks files up Work by Work; with many, it lists the stored files first.
      const works = Array.from({ length: 1 + rng.int(12) }, (_, id) => randomWork(rng, id));
      const setup = chartSetup(rng, files, works);
      const C = setup.clusters.length;
      // The scheduler's own stored files (ClusterState.stored) and what port (3) says each storage holds.
      const stored = setup.clusters.map(() => new Set(Array.from({ length: rng.int(3) }, () => rng.int(FILES))));
      const storages = setup.clusters.map(() => (rng.int(3) === 0 ? undefined : new Set(Array.from({ length: rng.int(4) }, () => rng.int(FILES)))));
      const clusters = setup.clusters.map((cluster, c) => ({ id: cluster.id, stored: stored[c]! }) as unknown as ClusterState);
      const byObjects = new StoredInputs(clusters, storages, FILES, 5);
      const byLists = new StoredInputs(clusters, storages, FILES, 5);
      const index = new WorkIndex();
      index.refresh(works);
      for (let chartNo = 0; chartNo < 2; chartNo++) {
        const a = new GanttChart(setup);
        const b = new GanttChart(setup);
        byObjects.newChart();
        byLists.newChart();
        byObjects.mark(a, works);
        byLists.markListed(b, index.ids, works.length, index);
        for (let c = 0; c < C; c++) for (let f = 0; f < FILES; f++) expect(b.fileArrivalS(c, f)).toBe(a.fileArrivalS(c, f));
        expect([...byLists.found]).toEqual([...byObjects.found]);
      }
      foundAny += byObjects.found.size;
    }
    expect(foundAny).toBeGreaterThan(20);
  });
});
