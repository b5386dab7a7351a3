// Applications and grids built in code for the simulator's tests.
import type { Application, WorkSpec } from '../../../src/model/application.js';
import type { GridDescription, GridEvent, HostBehavior, LinkBehavior, LinkSample } from '../../../src/model/grid.js';

export interface WorkLine {
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  /** Run time per architecture (estimates are set equal). */
  readonly runTimeS: readonly number[];
}

/** `fileSizes[i]` is file i's size in bytes. */
export function makeApp(fileSizes: readonly number[], works: readonly WorkLine[]): Application {
  return {
    version: '1',
    files: fileSizes.map((sizeBytes, id) => ({ id, name: `file_${id}`, sizeBytes, estSizeBytes: sizeBytes })),
    works: works.map(
      (w, id): WorkSpec => ({ id, inputs: w.inputs, outputs: w.outputs, runTimeS: w.runTimeS, estRunTimeS: w.runTimeS }),
    ),
  };
}

export function makeGrid(
  events: readonly GridEvent[],
  links: Record<string, readonly LinkSample[]>,
  hosts: Record<string, readonly number[]>,
): GridDescription {
  return {
    version: '1',
    events,
    linkBehaviors: new Map(Object.entries(links).map(([name, samples]): [string, LinkBehavior] => [name, { kind: 'link', name, samples }])),
    hostBehaviors: new Map(
      Object.entries(hosts).map(([name, availabilityPct]): [string, HostBehavior] => [name, { kind: 'host', name, availabilityPct }]),
    ),
  };
}

export const addCluster = (timeS: number, cluster: string, behavior: string, offset = 0): GridEvent => ({
  kind: 'ADD_CLUSTER',
  timeS,
  cluster,
  behavior,
  offset,
});
export const addHost = (timeS: number, cluster: string, host: string, behavior: string, offset = 0, arch = 0): GridEvent => ({
  kind: 'ADD_HOST',
  timeS,
  cluster,
  host,
  behavior,
  offset,
  arch,
});
export const removeHost = (timeS: number, host: string): GridEvent => ({ kind: 'REMOVE_HOST', timeS, host });
export const removeCluster = (timeS: number, cluster: string): GridEvent => ({ kind: 'REMOVE_CLUSTER', timeS, cluster });
export const changeHost = (timeS: number, host: string, behavior: string, offset = 0): GridEvent => ({
  kind: 'CHANGE_HOST_BEHAVIOR',
  timeS,
  host,
  behavior,
  offset,
});
export const changeCluster = (timeS: number, cluster: string, behavior: string, offset = 0): GridEvent => ({
  kind: 'CHANGE_CLUSTER_BEHAVIOR',
  timeS,
  cluster,
  behavior,
  offset,
});

/**
 * Three clusters c0–c2 added at time 0, each on one of links link0–link2 and with hosts cN hK on cpu0–cpu2
 * (random offsets below `offsets`, random architecture 0 or 1); a cluster gets `minHosts` plus a random
 * number of hosts below `extraHosts` (drawn again at every host, as the seeded tests were written).
 */
export function randomClusters(rng: { int(n: number): number }, minHosts: number, extraHosts: number, offsets: number): { events: GridEvent[]; hosts: string[][] } {
  const events: GridEvent[] = [];
  const hosts: string[][] = [];
  for (let c = 0; c < 3; c++) {
    events.push(addCluster(0, `c${c}`, `link${rng.int(3)}`, rng.int(offsets)));
    hosts.push([]);
    for (let h = 0; h < minHosts + rng.int(extraHosts); h++) {
      const id = `c${c}h${h}`;
      hosts[c]!.push(id);
      events.push(addHost(0, `c${c}`, id, `cpu${rng.int(3)}`, rng.int(offsets), rng.int(2)));
    }
  }
  return { events, hosts };
}
