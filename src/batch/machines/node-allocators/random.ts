// Random allocation, the baseline with no locality at all: a job gets `count` free nodes drawn uniformly
// (every subset of that size equally likely) from the allocator's own generator, `Rng(seed)`, made once
// in create(). Each call advances the generator, so the cluster asks once per start. Draws: the free
// nodes listed in increasing index, then a partial Fisher–Yates shuffle of the first `count` places.
// `random[:seed]`, seed a non-negative integer below 2^32 (default 1).
import { AllocatorSpecError, type FreeNodes, type NodeAllocator, type NodeAllocatorFamily } from '../node-allocator.js';
import type { Topology } from '../topology.js';
import { MAX_SEED, Rng } from '../../../util/rng.js';

class RandomAllocator implements NodeAllocator {
  readonly contiguous = false;
  private readonly rng: Rng;
  private readonly scratch: Int32Array;

  constructor(
    readonly name: string,
    seed: number,
    topology: Topology,
  ) {
    this.rng = new Rng(seed);
    this.scratch = new Int32Array(topology.nodes);
  }

  allocate(free: FreeNodes, count: number): Int32Array | undefined {
    if (count > free.count) return undefined;
    if (count <= 0) return new Int32Array(0);
    const list = this.scratch;
    const isFree = free.isFree;
    let m = 0;
    for (let i = 0; i < isFree.length; i++) if (isFree[i] === 1) list[m++] = i;
    for (let i = 0; i < count; i++) {
      const j = i + this.rng.int(m - i);
      const t = list[i]!;
      list[i] = list[j]!;
      list[j] = t;
    }
    return list.slice(0, count).sort();
  }
}

export const randomFamily: NodeAllocatorFamily = {
  name: 'random',
  help: 'free nodes drawn uniformly at random from its own seeded generator (no locality; a baseline)',
  parameters: [{ name: 'seed', values: 'a non-negative integer below 2^32', default: '1' }],
  contiguous: false,
  create(params: readonly string[], topology: Topology): NodeAllocator {
    const text = params[0] ?? '1';
    const seed = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
    if (!(seed <= MAX_SEED)) {
      throw new AllocatorSpecError(`random: seed '${text}' is not a non-negative integer below 2^32; write e.g. random:7`);
    }
    return new RandomAllocator(['random', ...params].join(':'), seed, topology);
  },
};
