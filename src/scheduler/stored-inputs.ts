// Which inputs of the Works a plan draws are already in a cluster's storage, marked as there in the chart
// (gantt.ts step 1: an available file is never sent again). A file counts as stored when the cluster's
// state lists it (ClusterState.stored: the scheduler's own transfers) or when port (3) says the storage
// holds it; files found only the second way are reported (`found`), for the scheduler to record.
//
// Cost: the files are looked up Work by Work, each input in every cluster at once (the Works' objects are
// spread over the heap: walking the Works once per cluster cost 1 s of the 40,000-task XSufferage study of
// bench/cost-curve.bench.ts). A plan that reads as many Works, times clusters, as the storages hold files
// first lists every stored file once: files in no storage at all (most inputs of the Works not started) are
// then not looked up cluster by cluster, and a file many Works read is looked up once (the lookups took
// 2.7 s of the 80,000-task study, 0.8 s this way). A plan that reads fewer (the work queue's: a few Works
// per plan) never walks a whole storage. With the index kept between plans (markListed), the inputs are read
// from its flat lists rather than from the Works' objects.
import type { FileId, WorkSpec } from '../model/application.js';
import type { ClusterId } from '../model/grid.js';
import type { GanttChart } from './gantt.js';
import { IdSet } from './id-set.js';
import type { ClusterState } from './state.js';

/** Each Work's inputs without repeats, in one flat list, by Work id (WorkIndex). */
export interface ListedInputs {
  readonly inputs: Int32Array;
  inputsStart(id: number): number;
  inputsCount(id: number): number;
}

/** One call's state: the stored files' index when used, the files looked up, the files found per cluster. */
interface Marking {
  readonly chart: GanttChart;
  readonly index: Uint8Array | undefined;
  readonly looked: Uint8Array | undefined;
  readonly found: FileId[][];
}

export class StoredInputs {
  /** Per cluster, the files found in its storage that its state did not list, in the order found. */
  readonly found = new Map<ClusterId, FileId[]>();
  private readonly storedCount: number;
  /** Per file, 1 when some storage holds it (listed when first needed). */
  private storedSomewhere: Uint8Array | undefined;
  /** Per file, 1 once looked up for the chart being drawn (with storedSomewhere only). */
  private looked: Uint8Array | undefined;

  constructor(
    /** The clusters in the chart's order. */
    private readonly clusters: readonly ClusterState[],
    /** What port (3) says each of them holds (undefined: not asked). */
    private readonly storages: readonly (ReadonlySet<FileId> | undefined)[],
    private readonly fileCount: number,
    private readonly nowS: number,
  ) {
    this.storedCount = clusters.reduce((sum, cluster, c) => sum + cluster.stored.size + (storages[c]?.size ?? 0), 0);
  }

  /** A new chart is drawn: nothing is marked in it yet. */
  newChart(): void {
    this.looked = undefined;
  }

  /** Marks in the chart the stored inputs of these Works. */
  mark(chart: GanttChart, specs: readonly WorkSpec[]): void {
    const marking = this.start(chart, specs.length);
    for (const spec of specs) for (const fileId of spec.inputs) this.markInput(marking, fileId);
    this.report(marking.found);
  }

  /**
   * mark, for the Works of ids ids[0] up to ids[count − 1], from a flat list of each one's inputs without
   * repeats (WorkIndex's, first occurrences in order): the same marks and the same files found in the same
   * order (a repeated input is marked once either way, and reported once), without reading the Works.
   */
  markListed(chart: GanttChart, ids: Int32Array, count: number, lists: ListedInputs): void {
    const marking = this.start(chart, count);
    const inputs = lists.inputs;
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      const start = lists.inputsStart(id);
      const end = start + lists.inputsCount(id);
      for (let k = start; k < end; k++) this.markInput(marking, inputs[k]!);
    }
    this.report(marking.found);
  }

  private start(chart: GanttChart, workCount: number): Marking {
    const index = workCount * this.clusters.length >= this.storedCount ? (this.storedSomewhere ??= this.listStored()) : undefined;
    const looked = index === undefined ? undefined : (this.looked ??= new Uint8Array(this.fileCount));
    return { chart, index, looked, found: this.clusters.map(() => []) };
  }

  private markInput(marking: Marking, fileId: FileId): void {
    const { chart, index, looked, found } = marking;
    if (looked !== undefined) {
      if (looked[fileId] === 1 || index![fileId] === 0) return;
      looked[fileId] = 1;
    }
    const { clusters, storages } = this;
    for (let c = 0; c < clusters.length; c++) {
      if (clusters[c]!.stored.has(fileId)) chart.markFile(c, fileId, this.nowS);
      else if (storages[c]?.has(fileId) === true) {
        chart.markFile(c, fileId, this.nowS);
        found[c]!.push(fileId);
      }
    }
  }

  /** The files found, reported cluster by cluster, in the clusters' order. */
  private report(found: FileId[][]): void {
    this.clusters.forEach((cluster, c) => {
      if (found[c]!.length === 0) return;
      let known = this.found.get(cluster.id);
      if (known === undefined) this.found.set(cluster.id, (known = []));
      for (const fileId of found[c]!) if (!known.includes(fileId)) known.push(fileId);
    });
  }

  private listStored(): Uint8Array {
    const index = new Uint8Array(this.fileCount);
    this.clusters.forEach((cluster, c) => {
      markMembers(cluster.stored, index);
      markMembers(this.storages[c] ?? NO_FILES, index);
    });
    return index;
  }
}

const NO_FILES: ReadonlySet<FileId> = new Set();

/** index[f] = 1 for every file of the set (an IdSet marks them from its bits). */
function markMembers(files: ReadonlySet<FileId>, index: Uint8Array): void {
  if (files instanceof IdSet) files.markInto(index);
  else for (const fileId of files) index[fileId] = 1;
}
