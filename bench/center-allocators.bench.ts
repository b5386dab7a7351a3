// Speed of the center-based node allocators (MC1x1, Gen-Alg, MM; src/batch/machines/node-allocators/center.ts)
// on seeded random machine states, in memory:
//   - mean µs per allocate on an 8x8x4 and a 64x64 mesh with about half the nodes free, for 1, 8, 32 and
//     128 nodes (wall and this process's CPU time, since the machine may be shared);
//   - a cost curve: Gen-Alg and MC1x1 for 32 nodes, half free, from 64 to 4,096 nodes;
//   - a trace-like run on 8x8x4: 21,000 starts of seeded sizes (mostly small, up to 128 nodes), the oldest
//     job ending whenever the next one does not fit. Target: ≤ 2 s for MC1x1 and Gen-Alg end to end in a
//     21,000-job EASY simulation, so the allocator's share must stay well under that.
import { performance } from 'node:perf_hooks';
import type { FreeNodes } from '../src/batch/machines/node-allocator.js';
import { createNodeAllocator } from '../src/batch/machines/node-allocators/registry.js';
import { Topology } from '../src/batch/machines/topology.js';
import { Rng } from '../src/util/rng.js';

const MIN_MS = 250;
const STATES = 8;

function randomStates(topology: Topology, seed: number): FreeNodes[] {
  const rng = new Rng(seed);
  const states: FreeNodes[] = [];
  for (let s = 0; s < STATES; s++) {
    const isFree = new Uint8Array(topology.nodes);
    let count = 0;
    for (let i = 0; i < topology.nodes; i++) if (rng.next() < 0.5) (isFree[i] = 1), count++;
    states.push({ topology, isFree, count });
  }
  return states;
}

/** Mean wall and CPU µs per allocate of `count` nodes over the states, repeated for at least MIN_MS. */
function perAllocate(spec: string, states: FreeNodes[], count: number): { wallUs: number; cpuUs: number } {
  const allocator = createNodeAllocator(spec, states[0]!.topology);
  for (const s of states) allocator.allocate(s, count); // warm-up
  let reps = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let elapsedMs = 0;
  while (elapsedMs < MIN_MS || reps < 2 * STATES) {
    allocator.allocate(states[reps % STATES]!, count);
    reps++;
    elapsedMs = performance.now() - t0;
  }
  const cpu = process.cpuUsage(c0);
  return { wallUs: (elapsedMs * 1000) / reps, cpuUs: (cpu.user + cpu.system) / reps };
}

const fmt = (r: { wallUs: number; cpuUs: number }): string => `${r.wallUs.toFixed(1)} (${r.cpuUs.toFixed(1)})`;

console.log('µs per allocate, wall (CPU), about half the nodes free');
for (const dims of [[8, 8, 4], [64, 64, 1]] as [number, number, number][]) {
  const topology = new Topology('mesh', dims);
  const states = randomStates(topology, 42);
  for (const spec of ['mc1x1', 'gen-alg', 'mm']) {
    const cells = [1, 8, 32, 128].map((count) => `${count}: ${fmt(perAllocate(spec, states, count))}`);
    console.log(`  ${topology.name.padEnd(12)} ${spec.padEnd(8)} ${cells.join('  ')}`);
  }
}

console.log('\ncost curve, 32 nodes, µs per allocate, wall (CPU)');
for (const dims of [[8, 8, 1], [16, 16, 1], [8, 8, 4], [32, 32, 1], [16, 16, 8], [64, 64, 1], [16, 16, 16]] as [number, number, number][]) {
  const topology = new Topology('mesh', dims);
  const states = randomStates(topology, 7);
  const cells = ['mc1x1', 'gen-alg'].map((spec) => `${spec} ${fmt(perAllocate(spec, states, 32))}`);
  console.log(`  ${topology.name.padEnd(16)} ${String(topology.nodes).padStart(5)} nodes  ${cells.join('  ')}`);
}

console.log('\ntrace-like: 21,000 starts on mesh:8x8x4');
for (const spec of ['mc1x1', 'gen-alg', 'mm']) {
  const topology = new Topology('mesh', [8, 8, 4]);
  const allocator = createNodeAllocator(spec, topology);
  const rng = new Rng(11);
  const isFree = new Uint8Array(topology.nodes).fill(1);
  const state = { topology, isFree, count: topology.nodes };
  const running: Int32Array[] = [];
  let calls = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let job = 0; job < 21_000; job++) {
    // Sizes 1 … 128, most small: 2^⌊8u²⌋ nodes, sometimes one fewer.
    const size = Math.max(1, (1 << Math.floor(rng.next() ** 2 * 8)) - rng.int(2));
    let nodes = allocator.allocate(state, size);
    calls++;
    while (nodes === undefined) {
      const done = running.shift()!;
      for (const v of done) isFree[v] = 1;
      state.count += done.length;
      nodes = allocator.allocate(state, size);
      calls++;
    }
    for (const v of nodes) isFree[v] = 0;
    state.count -= nodes.length;
    running.push(nodes);
  }
  const cpu = process.cpuUsage(c0);
  console.log(`  ${spec.padEnd(8)} ${(performance.now() - t0).toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU, ${calls} allocate calls`);
}
