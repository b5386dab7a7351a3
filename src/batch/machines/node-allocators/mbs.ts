// The Multiple Buddy Strategy (Lo et al. 1997; listed in Bunde and Leung 2015, Fig. 4), without state
// of its own: the buddy hierarchy is rebuilt from the free mask on every call, so it agrees with
// whatever the cluster did since. Non-contiguous: a job is always placed when count ≤ free nodes.
//
// Exact rules:
// - Blocks. d = 2 when Z = 1 (squares in x, y), else d = 3 (cubes). A block of level k has side
//   s = 2^k in each of the d axes and its origin at a multiple of s on each; only blocks lying wholly
//   inside the machine count (one clipped by the machine's edge is never whole at its level, but its
//   whole sub-blocks are). The top level K is the largest with s ≤ the smallest of the d sides. Level 0
//   blocks are the nodes. A block is free when all its nodes are free.
// - Request. count = q·V_K + Σ_{k<K} c_k·V_k with V_k = 2^(d·k) and digits c_k < 2^d (count written in
//   base 2^d, every digit above level K folded into q). Level K wants q blocks, level k < K wants c_k.
// - Placement, from level K down to 0: the wanted blocks at level k are the lowest-numbered free level-k
//   blocks not inside a block already taken (blocks are numbered row-major over their level's grid, x
//   fastest); each unserved one is broken into 2^d blocks of level k − 1, added to that level's wants.
//   At level 0 the rest are single free nodes, lowest node index first — enough always remain.
// Cost: O(nodes) per call (the levels' grids shrink geometrically); the level arrays live in the
// allocator and are reused.
import type { FreeNodes, NodeAllocator, NodeAllocatorFamily } from '../node-allocator.js';
import type { Topology } from '../topology.js';

interface Level {
  readonly side: number;
  /** Blocks along x, y, z (whole blocks only). */
  readonly bx: number;
  readonly by: number;
  readonly bz: number;
  /** 1 where the block is free (scratch, per call). */
  readonly free: Uint8Array;
  /** 1 where the block is taken or lies inside a taken block (scratch, per call). */
  readonly used: Uint8Array;
}

class MbsAllocator implements NodeAllocator {
  readonly contiguous = false;
  readonly name = 'mbs';
  private readonly levels: Level[] = [];
  private readonly d: number;
  private readonly wants: Float64Array;

  constructor(private readonly topology: Topology) {
    const [X, Y, Z] = topology.dims;
    this.d = Z === 1 ? 2 : 3;
    const smallest = this.d === 2 ? Math.min(X, Y) : Math.min(X, Y, Z);
    for (let side = 1; side <= smallest; side *= 2) {
      const bx = Math.floor(X / side);
      const by = Math.floor(Y / side);
      const bz = this.d === 2 ? Z : Math.floor(Z / side);
      this.levels.push({ side, bx, by, bz, free: new Uint8Array(bx * by * bz), used: new Uint8Array(bx * by * bz) });
    }
    this.wants = new Float64Array(this.levels.length);
  }

  allocate(freeNodes: FreeNodes, count: number): Int32Array | undefined {
    if (count > freeNodes.count) return undefined;
    if (count <= 0) return new Int32Array(0);
    const levels = this.levels;
    const top = levels.length - 1;
    const children = 1 << this.d;
    const wants = this.wants;

    // Free blocks, bottom up: level 0 is the mask; a block is free when its 2^d children are.
    levels[0]!.free.set(freeNodes.isFree);
    for (let k = 1; k <= top; k++) {
      const lv = levels[k]!;
      const below = levels[k - 1]!;
      for (let z = 0; z < lv.bz; z++) {
        for (let y = 0; y < lv.by; y++) {
          for (let x = 0; x < lv.bx; x++) {
            let all = 1;
            const zc = this.d === 2 ? 1 : 2;
            for (let dz = 0; all && dz < zc; dz++) {
              const cz = this.d === 2 ? z : 2 * z + dz;
              for (let dy = 0; all && dy < 2; dy++) {
                const row = below.bx * (2 * y + dy + below.by * cz);
                all &= below.free[row + 2 * x]! & below.free[row + 2 * x + 1]!;
              }
            }
            lv.free[x + lv.bx * (y + lv.by * z)] = all;
          }
        }
      }
    }

    // The request in base 2^d, everything above the top level folded into it.
    let rest = count;
    for (let k = top; k >= 0; k--) {
      const volume = 2 ** (this.d * k);
      wants[k] = Math.floor(rest / volume);
      rest -= wants[k]! * volume;
    }

    const out = new Int32Array(count);
    let filled = 0;
    for (let k = top; k >= 0; k--) {
      const lv = levels[k]!;
      const above = k < top ? levels[k + 1]! : undefined;
      // Inherit "inside a taken block" from the level above.
      for (let z = 0; z < lv.bz; z++) {
        for (let y = 0; y < lv.by; y++) {
          for (let x = 0; x < lv.bx; x++) {
            let used = 0;
            if (above !== undefined) {
              const px = x >> 1;
              const py = y >> 1;
              const pz = this.d === 2 ? z : z >> 1;
              if (px < above.bx && py < above.by && pz < above.bz) used = above.used[px + above.bx * (py + above.by * pz)]!;
            }
            lv.used[x + lv.bx * (y + lv.by * z)] = used;
          }
        }
      }
      let want = wants[k]!;
      const blocks = lv.free.length;
      for (let b = 0; want > 0 && b < blocks; b++) {
        if (lv.free[b] !== 1 || lv.used[b] === 1) continue;
        lv.used[b] = 1;
        want--;
        filled = this.writeBlock(lv, b, out, filled);
      }
      if (k > 0) wants[k - 1] = wants[k - 1]! + want * children;
    }
    return out.sort();
  }

  /** Appends the nodes of block `b` of level `lv` to `out` from `at`; returns the new length. */
  private writeBlock(lv: Level, b: number, out: Int32Array, at: number): number {
    const s = lv.side;
    const x0 = (b % lv.bx) * s;
    const y0 = (Math.floor(b / lv.bx) % lv.by) * s;
    const zb = Math.floor(b / (lv.bx * lv.by));
    const z0 = this.d === 2 ? zb : zb * s;
    const zs = this.d === 2 ? 1 : s;
    for (let z = z0; z < z0 + zs; z++) {
      for (let y = y0; y < y0 + s; y++) {
        for (let x = x0; x < x0 + s; x++) out[at++] = this.topology.nodeAt(x, y, z);
      }
    }
    return at;
  }
}

export const mbsFamily: NodeAllocatorFamily = {
  name: 'mbs',
  help: 'Multiple Buddy Strategy: the job split into aligned power-of-two squares/cubes, each taken where a whole one is free, else broken smaller (Lo et al. 1997)',
  parameters: [],
  contiguous: false,
  create(_params: readonly string[], topology: Topology): NodeAllocator {
    return new MbsAllocator(topology);
  },
};
