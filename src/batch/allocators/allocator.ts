// Node allocation: which nodes' cores a starting job takes. SWF jobs ask for a number of cores, and a job
// may span nodes, so the allocator decides where a job runs, not whether it can start.

export interface Allocator {
  readonly name: string;
  /** One line for --help and the README. */
  readonly help: string;
  /**
   * Takes `cores` cores from `freeByNode` (which must hold that many in total) and returns the allocation
   * as pairs [node, cores, node, cores, …], lowest node first. Every node below `fullBelow` has no free
   * core (the caller keeps that bound, so an allocator that walks nodes in order may start there).
   */
  allocate(freeByNode: Int32Array, cores: number, fullBelow?: number): number[];
}

/** Takes the cores from the nodes in `order`, as many from each as it has, and returns sorted pairs. */
export function takeInOrder(freeByNode: Int32Array, cores: number, order: ArrayLike<number>): number[] {
  const pairs: number[] = [];
  let left = cores;
  for (let i = 0; left > 0 && i < order.length; i++) {
    const node = order[i]!;
    const take = Math.min(left, freeByNode[node]!);
    if (take === 0) continue;
    freeByNode[node] = freeByNode[node]! - take;
    left -= take;
    pairs.push(node, take);
  }
  if (left > 0) throw new Error(`allocator: ${left} of ${cores} cores could not be placed (caller must check free cores first)`);
  return sortPairs(pairs);
}

/** The pairs by node number (most allocations are already in order). */
function sortPairs(pairs: number[]): number[] {
  let sorted = true;
  for (let i = 2; i < pairs.length && sorted; i += 2) sorted = pairs[i - 2]! < pairs[i]!;
  if (sorted) return pairs;
  const nodes: Array<[number, number]> = [];
  for (let i = 0; i < pairs.length; i += 2) nodes.push([pairs[i]!, pairs[i + 1]!]);
  nodes.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [node, cores] of nodes) out.push(node, cores);
  return out;
}
