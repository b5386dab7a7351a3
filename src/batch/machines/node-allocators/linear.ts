// Linear allocators (Leung et al. 2002; Bunde and Leung 2015 §IV-C): lay the nodes along a curve
// (curves.ts) and choose a job's nodes in that one-dimensional order. Non-contiguous: a job that asks
// for no more nodes than are free is always placed.
//
// `linear[:curve[:selection]]`, curve ∈ row-major | snake | hilbert (default hilbert), selection ∈
// free-list | first-fit | best-fit (default best-fit):
// - free-list: the first `count` free nodes in curve order.
// - first-fit / best-fit: free nodes at consecutive curve positions form maximal runs ("bins"); first-fit
//   takes the first run (lowest curve position) that holds the whole job, best-fit the shortest such run,
//   ties going to the earliest run. The job gets the run's first `count` nodes in curve order.
//   When no single run holds the job, both fall back to free-list.
// The curve is computed once in create(); each call is one pass over the curve, O(nodes), plus sorting
// the `count` chosen nodes into increasing node order.
import {
  type FreeNodes,
  type NodeAllocator,
  type NodeAllocatorFamily,
  parameterValue,
} from '../node-allocator.js';
import type { Topology } from '../topology.js';
import { CURVES, type Curve, curveOrder } from './curves.js';

export const SELECTIONS = ['free-list', 'first-fit', 'best-fit'] as const;
export type Selection = (typeof SELECTIONS)[number];

class LinearAllocator implements NodeAllocator {
  readonly contiguous = false;

  constructor(
    readonly name: string,
    private readonly order: Int32Array,
    private readonly selection: Selection,
  ) {}

  allocate(free: FreeNodes, count: number): Int32Array | undefined {
    if (count > free.count) return undefined;
    if (count <= 0) return new Int32Array(0);
    const start = this.selection === 'free-list' ? -1 : this.runStart(free.isFree, count);
    const out = new Int32Array(count);
    const order = this.order;
    if (start >= 0) {
      for (let k = 0; k < count; k++) out[k] = order[start + k]!;
    } else {
      const isFree = free.isFree;
      let k = 0;
      for (let p = 0; k < count && p < order.length; p++) {
        const node = order[p]!;
        if (isFree[node] === 1) out[k++] = node;
      }
    }
    return out.sort();
  }

  /** The curve position where the chosen run starts, or -1 when no run holds `count` nodes. */
  private runStart(isFree: Uint8Array, count: number): number {
    const order = this.order;
    const n = order.length;
    const firstFit = this.selection === 'first-fit';
    let bestStart = -1;
    let bestLength = Infinity;
    let p = 0;
    while (p < n) {
      if (isFree[order[p]!] !== 1) {
        p++;
        continue;
      }
      const start = p;
      while (p < n && isFree[order[p]!] === 1) p++;
      const length = p - start;
      if (length >= count) {
        if (firstFit) return start;
        // Strictly shorter only: the earliest of equally short runs wins.
        if (length < bestLength) {
          bestStart = start;
          bestLength = length;
          if (length === count) return start;
        }
      }
    }
    return bestStart;
  }
}

export const linearFamily: NodeAllocatorFamily = {
  name: 'linear',
  help: 'nodes along a curve (row-major, snake, hilbert); free-list takes the first free ones, first-fit/best-fit a run of consecutive free ones (Leung et al. 2002)',
  parameters: [
    { name: 'curve', values: CURVES, default: 'hilbert' },
    { name: 'selection', values: SELECTIONS, default: 'best-fit' },
  ],
  contiguous: false,
  create(params: readonly string[], topology: Topology): NodeAllocator {
    const curve = parameterValue(linearFamily, params, 0) as Curve;
    const selection = parameterValue(linearFamily, params, 1) as Selection;
    return new LinearAllocator(['linear', ...params].join(':'), curveOrder(topology, curve), selection);
  },
};
