// Per cluster, the few hosts that can be some Work's best (or second-best) host in the Gantt chart as it is
// now, for MctEngine. Hosts of one cluster with the same architecture and availability ("a class") differ
// only by their free time, and a Work's completion grows with it, so only the earliest-free hosts of a
// class (a heap per class) can be chosen. Among those, a host that `depth` others are free no later than
// and compute every Work of the plan no slower than can never be chosen either (see rebuild).
import type { WorkSpec } from '../../model/application.js';
import type { ChartHost, GanttChart } from '../gantt.js';
import { IndexedHeap } from '../indexed-heap.js';
import type { HostCandidates } from '../strategies/host-candidates.js';
import type { RunTimeProfiles } from './run-time-profiles.js';

/** One cluster's candidate hosts as flat arrays in (free time, host order), with their class in the cluster. */
export interface HostFront {
  readonly host: Int32Array;
  readonly free: Float64Array;
  readonly cls: Int32Array;
  len: number;
}

export class HostFronts {
  /**
   * Per cluster c, the estimated compute duration of a Work of run-time profile p on its class k, at
   * p * durStride[c] + k, followed by the shortest of them at p * durStride[c] + classCount.
   */
  readonly durOf: Float64Array[];
  readonly durStride: Int32Array;
  /** Per cluster, the hosts that can be a Work's best host (kept current only without `withSecond`). */
  readonly best: HostFront[];
  /** Per cluster, the hosts that can be a Work's best or second-best host (empty without `withSecond`). */
  readonly second: HostFront[];
  // Per cluster, heaps of the candidate hosts (chart.takesWork: under 'all', a host that becomes full stays in
  // its class and can still be chosen), one per class.
  private readonly classesOf: IndexedHeap[][];
  private readonly classOfHost: IndexedHeap[];
  /**
   * Per cluster, over its classes a and b (at a * classCount + b): 1 when class a computes every Work of this
   * plan no slower than class b does.
   */
  private readonly noSlower: Uint8Array[];

  constructor(
    private readonly chart: GanttChart,
    workOf: (i: number) => WorkSpec,
    profiles: RunTimeProfiles,
    private readonly hostCandidates: HostCandidates,
    withSecond: boolean,
  ) {
    const n = profiles.firstWork.length;
    const hostPositions = new Int32Array(chart.hosts.length).fill(-1);
    const lessHost = (a: number, b: number): boolean => {
      const fa = chart.hostFreeS(a);
      const fb = chart.hostFreeS(b);
      return fa < fb || (fa === fb && a < b);
    };
    this.classesOf = chart.clusters.map(() => []);
    this.classOfHost = new Array<IndexedHeap>(chart.hosts.length);
    const classHosts: ChartHost[][] = chart.clusters.map(() => []);
    const byKey = new Map<string, IndexedHeap>();
    chart.hosts.forEach((host, index) => {
      const key = `${host.cluster}|${host.arch}|${host.availability}`;
      let heap = byKey.get(key);
      if (heap === undefined) {
        heap = new IndexedHeap(lessHost, hostPositions);
        byKey.set(key, heap);
        classHosts[host.cluster]!.push(host);
        this.classesOf[host.cluster]!.push(heap);
      }
      this.classOfHost[index] = heap;
      if (chart.takesWork(index, hostCandidates)) heap.push(index);
    });
    this.durStride = Int32Array.from(classHosts, (hosts) => hosts.length + 1);
    this.durOf = classHosts.map((hosts) => {
      const K = hosts.length;
      const dur = new Float64Array(n * (K + 1));
      for (let i = 0; i < n; i++) {
        const work = workOf(profiles.firstWork[i]!);
        let shortest = Infinity;
        for (let k = 0; k < K; k++) {
          // Exactly GanttChart.computeEndS's duration term.
          const d = (work.estRunTimeS[hosts[k]!.arch] ?? Infinity) / hosts[k]!.availability;
          dur[i * (K + 1) + k] = d;
          shortest = Math.min(shortest, d);
        }
        dur[i * (K + 1) + K] = shortest;
      }
      return dur;
    });
    this.noSlower = this.durOf.map((dur, c) => noSlowerMatrix(dur, this.durStride[c]!, classHosts[c]!.length, n));
    const front = (heaps: IndexedHeap[], perClass: number): HostFront => ({
      host: new Int32Array(perClass * heaps.length),
      free: new Float64Array(perClass * heaps.length),
      cls: new Int32Array(perClass * heaps.length),
      len: 0,
    });
    this.best = this.classesOf.map((heaps) => front(heaps, 1));
    this.second = withSecond ? this.classesOf.map((heaps) => front(heaps, 2)) : [];
    for (let c = 0; c < this.classesOf.length; c++) this.rebuild(c);
  }

  /** After a Work was committed on `host`: its free time moved (or, under 'with-room', it may be full). */
  hostChanged(host: number): void {
    const heap = this.classOfHost[host]!;
    if (!this.chart.takesWork(host, this.hostCandidates)) heap.remove(host);
    else heap.update(host);
    const c = this.chart.hosts[host]!.cluster;
    this.rebuild(c);
  }

  /** Only the front the engine reads: the second one for rules reading second-best hosts. */
  private rebuild(c: number): void {
    if (this.second.length > 0) this.fill(c, this.second[c]!, 2);
    else this.fill(c, this.best[c]!, 1);
  }

  /**
   * The earliest-free `depth` hosts of each class of cluster c, in (free time, host order), keeping only
   * those that fewer than `depth` earlier ones are no slower than. A host that `depth` others are free no
   * later than (ties: earlier in host order) and compute every Work no slower than ends no earlier for any
   * Work and loses the ties, so it is never a best (or second) host. Counting only the kept ones is enough:
   * a dropped host's `depth` kept betters are also ahead of, and no slower than, every host it is ahead of
   * and no slower than.
   */
  private fill(c: number, front: HostFront, depth: number): void {
    const chart = this.chart;
    const { host: hosts, free: frees, cls: classes } = front;
    const heaps = this.classesOf[c]!;
    let len = 0;
    const insert = (host: number, cls: number): void => {
      const free = chart.hostFreeS(host);
      let at = len++;
      while (at > 0 && (frees[at - 1]! > free || (frees[at - 1] === free && hosts[at - 1]! > host))) {
        hosts[at] = hosts[at - 1]!;
        frees[at] = frees[at - 1]!;
        classes[at] = classes[at - 1]!;
        at--;
      }
      hosts[at] = host;
      frees[at] = free;
      classes[at] = cls;
    };
    for (let h = 0; h < heaps.length; h++) {
      const heap = heaps[h]!;
      const first = heap.at(0);
      if (first < 0) continue;
      insert(first, h);
      if (depth === 2) {
        const a = heap.at(1);
        const b = heap.at(2);
        const second = b < 0 || (a >= 0 && (chart.hostFreeS(a) < chart.hostFreeS(b) || (chart.hostFreeS(a) === chart.hostFreeS(b) && a < b))) ? a : b;
        if (second >= 0) insert(second, h);
      }
    }
    const noSlower = this.noSlower[c]!;
    const classCount = heaps.length;
    let kept = 0;
    for (let k = 0; k < len; k++) {
      const cls = classes[k]!;
      let aheadAndNoSlower = 0;
      for (let e = 0; e < kept && aheadAndNoSlower < depth; e++) aheadAndNoSlower += noSlower[classes[e]! * classCount + cls]!;
      if (aheadAndNoSlower >= depth) continue;
      hosts[kept] = hosts[k]!;
      frees[kept] = frees[k]!;
      classes[kept++] = classes[k]!;
    }
    front.len = kept;
  }
}

/** For one cluster's durations (HostFronts.durOf) over its `count` classes, the matrix HostFronts.noSlower describes. */
function noSlowerMatrix(dur: Float64Array, stride: number, count: number, n: number): Uint8Array {
  const matrix = new Uint8Array(count * count);
  for (let a = 0; a < count; a++) {
    for (let b = 0; b < count; b++) {
      let i = 0;
      while (i < n && dur[i * stride + a]! <= dur[i * stride + b]!) i++;
      matrix[a * count + b] = i === n ? 1 : 0;
    }
  }
  return matrix;
}
