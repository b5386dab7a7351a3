// The machines a batch cluster can be, by name: the CLI help, the README and the experiment tool read
// this list. `bag` (the default) is a bag of cores — nodes of equal core counts, no geometry, jobs may
// share a node; `mesh:XxY[xZ]` and `torus:XxY[xZ]` give the nodes coordinates, and there a job holds
// whole nodes chosen by a processor allocator.
import { Topology, type TopologyKind } from './topology.js';
import { MAX_NODES } from '../cluster-limits.js';

export interface MachineKindInfo {
  readonly name: 'bag' | TopologyKind;
  readonly syntax: string;
  /** One line for --help and the README. */
  readonly help: string;
}

const KINDS: readonly MachineKindInfo[] = [
  { name: 'bag', syntax: 'bag', help: 'a bag of cores (default): no geometry, jobs may share nodes, where a job runs changes nothing' },
  { name: 'mesh', syntax: 'mesh:XxY[xZ]', help: 'a 2D or 3D mesh of nodes: L1 (hop) distances, jobs hold whole nodes chosen by a processor allocator' },
  { name: 'torus', syntax: 'torus:XxY[xZ]', help: 'a mesh whose axes wrap around (the shorter way round counts)' },
];

export function listMachineKinds(): readonly MachineKindInfo[] {
  return KINDS;
}

/** A machine as chosen: the bag, or a mesh or torus topology. */
export type MachineSpec = { readonly kind: 'bag' } | Topology;

export const BAG: MachineSpec = { kind: 'bag' };

/** A bad machine name: the message says what was expected. */
export class MachineSpecError extends Error {
  override readonly name = 'MachineSpecError';
}


/** `bag`, `mesh:8x8x4`, `torus:16x16` → the machine; throws MachineSpecError otherwise. */
export function parseMachine(text: string): MachineSpec {
  if (text === 'bag') return BAG;
  const m = /^(mesh|torus):(\d+)x(\d+)(?:x(\d+))?$/.exec(text);
  if (m === null) {
    throw new MachineSpecError(`unknown machine '${text}'; expected bag, mesh:XxY[xZ] or torus:XxY[xZ] (e.g. mesh:8x8x4)`);
  }
  const dims: [number, number, number] = [Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
  if (dims.some((d) => d < 1)) throw new MachineSpecError(`machine '${text}': every dimension must be at least 1`);
  if (dims[0] * dims[1] * dims[2] > MAX_NODES) throw new MachineSpecError(`machine '${text}' has ${dims[0] * dims[1] * dims[2]} nodes; at most ${MAX_NODES} are supported`);
  return new Topology(m[1] as TopologyKind, dims);
}

export function isTopology(machine: MachineSpec): machine is Topology {
  return machine instanceof Topology;
}

/** The machine's name as written: `bag`, `mesh:8x8x4`. */
export function machineName(machine: MachineSpec): string {
  return isTopology(machine) ? machine.name : 'bag';
}
