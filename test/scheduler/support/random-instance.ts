// Small random planning instances for comparing the heuristics with the naive reference. Values are drawn
// from short lists so that ties (equal sizes, equal hosts, equal completion times) are frequent and the
// tie-breaking rules get exercised.
import type { FileId, FileSpec, WorkSpec } from '../../../src/model/application.js';
import { GanttChart, type ChartCluster, type ChartHost } from '../../../src/scheduler/gantt.js';
import { Rng } from '../../../src/util/rng.js';

export interface Instance {
  readonly chart: GanttChart;
  readonly works: readonly WorkSpec[];
}

/** Builds the same instance (a fresh chart) every time for the same seed. */
export function randomInstance(seed: number): Instance {
  const rng = new Rng(seed);
  const pick = <T>(items: readonly T[]): T => rng.pick(items);
  const nowS = pick([0, 100]);
  const clusterCount = 1 + rng.int(4);
  const clusters: ChartCluster[] = [];
  for (let c = 0; c < clusterCount; c++) {
    clusters.push({ id: `c${c}`, latencyS: pick([0, 0.5, 1]), bandwidthBps: pick([1000, 2000, 4000, 1000 + rng.int(5000)]) });
  }
  const hosts: ChartHost[] = [];
  for (let c = 0; c < clusterCount; c++) {
    const n = 1 + rng.int(4);
    for (let k = 0; k < n; k++) hosts.push({ id: `h${c}.${k}`, cluster: c, arch: rng.int(2), availability: pick([1, 0.5, 0.25 + rng.next() * 0.75]) });
  }
  const sharedCount = 1 + rng.int(5);
  const files: FileSpec[] = [];
  const addFile = (): FileId => {
    const size = pick([0, 1000, 5000, 20000, rng.int(30000)]);
    files.push({ id: files.length, name: `f${files.length}`, sizeBytes: size, estSizeBytes: size });
    return files.length - 1;
  };
  const shared: FileId[] = [];
  for (let k = 0; k < sharedCount; k++) shared.push(addFile());
  const workCount = 1 + rng.int(14);
  const works: WorkSpec[] = [];
  for (let w = 0; w < workCount; w++) {
    const inputs: FileId[] = [];
    for (let k = rng.int(3); k > 0; k--) inputs.push(pick(shared));
    for (let k = rng.int(3); k > 0; k--) inputs.push(addFile());
    const outputs = rng.int(4) === 0 ? [] : [addFile()];
    const est = [pick([10, 20, 30, 10 + rng.int(100)]), pick([10, 20, 40])];
    works.push({ id: w, inputs, outputs, runTimeS: est, estRunTimeS: est });
  }
  const usage = new Map<FileId, number>();
  for (const w of works) for (const f of new Set(w.inputs)) usage.set(f, (usage.get(f) ?? 0) + 1);
  const chart = new GanttChart({ nowS, horizonS: nowS + pick([0, 20, 60, 200]), clusters, hosts, files, usage });
  // What cannot change: files already there, busy links and hosts, a kept Work.
  for (let c = 0; c < clusterCount; c++) {
    if (rng.int(2) === 0) chart.markFile(c, pick(shared), nowS);
    if (rng.int(3) === 0) chart.holdLink(c, nowS + rng.int(50));
  }
  hosts.forEach((_, h) => {
    if (rng.int(3) === 0) chart.holdHost(h, nowS + rng.int(60), nowS - 5);
  });
  const pending = [...works];
  if (pending.length > 1 && rng.int(2) === 0) chart.commit(pending.shift()!, rng.int(hosts.length), true);
  return { chart, works: pending };
}
