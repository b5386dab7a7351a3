// The simulation benchmark's scenarios, shared by sim.bench.ts and simgrid.bench.ts (the SimGrid twin):
//  (a) a work-queue sweep of 100,000 tasks on 1,000 hosts in 10 clusters: each task one private 1 MB
//      input, 100 s of work, a 10 KB output; links 10 ms, 1e8 B/s; host availability 50–100 %, a sample
//      every 5 s, 20 samples looping, each host from its own offset.
//  (a') the same sweep on a constant star: the same clusters and links, every host at 100 % availability
//      (one sample), so that the simulators' fixed costs per task show rather than the integration.
//  (b) an MCell-style sweep of 20,000 tasks in chunks of 50 sharing one 50 MB file (plus a private 100 KB
//      input), on 200 hosts in 4 clusters, with xsufferage.
import type { Application, FileSpec, WorkSpec } from '../../src/model/application.js';
import type { GridDescription, GridEvent } from '../../src/model/grid.js';
import { Rng } from '../../src/util/rng.js';

export interface Scenario {
  readonly name: string;
  readonly heuristic: string;
  readonly repetitions: number;
  readonly targetS: number;
  /** Peak resident memory of a process that runs this scenario alone. */
  readonly targetRssMB: number;
  readonly app: () => Application;
  readonly grid: () => GridDescription;
}

/** Clusters of hosts with seeded availability series (50–100 %) and offsets, behind 10 ms, 1e8 B/s links. */
export function gridOf(clusters: number, hostsPerCluster: number, rng: Rng): GridDescription {
  const events: GridEvent[] = [];
  for (let c = 0; c < clusters; c++) {
    events.push({ kind: 'ADD_CLUSTER', timeS: 0, cluster: `cluster${c}`, behavior: 'link', offset: 0 });
    for (let h = 0; h < hostsPerCluster; h++)
      events.push({ kind: 'ADD_HOST', timeS: 0, cluster: `cluster${c}`, host: `host${c}.${h}`, behavior: `cpu${rng.int(4)}`, offset: rng.int(20), arch: 0 });
  }
  return {
    version: '1',
    events,
    linkBehaviors: new Map([['link', { kind: 'link', name: 'link', samples: [{ latencyMs: 10, bandwidthBps: 1e8 }] }]]),
    hostBehaviors: new Map(
      [0, 1, 2, 3].map((i) => [`cpu${i}`, { kind: 'host' as const, name: `cpu${i}`, availabilityPct: Array.from({ length: 20 }, () => 50 + rng.int(51)) }]),
    ),
  };
}

/** Clusters of hosts at a constant 100 % availability (one sample), behind the same 10 ms, 1e8 B/s links. */
export function constantGridOf(clusters: number, hostsPerCluster: number): GridDescription {
  const events: GridEvent[] = [];
  for (let c = 0; c < clusters; c++) {
    events.push({ kind: 'ADD_CLUSTER', timeS: 0, cluster: `cluster${c}`, behavior: 'link', offset: 0 });
    for (let h = 0; h < hostsPerCluster; h++) events.push({ kind: 'ADD_HOST', timeS: 0, cluster: `cluster${c}`, host: `host${c}.${h}`, behavior: 'full', offset: 0, arch: 0 });
  }
  return {
    version: '1',
    events,
    linkBehaviors: new Map([['link', { kind: 'link', name: 'link', samples: [{ latencyMs: 10, bandwidthBps: 1e8 }] }]]),
    hostBehaviors: new Map([['full', { kind: 'host' as const, name: 'full', availabilityPct: [100] }]]),
  };
}

/** `tasks` identical tasks: one private 1 MB input, 100 s of work, a 10 KB output. */
export function workQueueApp(tasks: number): Application {
  const files: FileSpec[] = [];
  const works: WorkSpec[] = [];
  for (let w = 0; w < tasks; w++) {
    files.push({ id: 2 * w, name: `in_${w}`, sizeBytes: 1_000_000, estSizeBytes: 1_000_000 });
    files.push({ id: 2 * w + 1, name: `out_${w}`, sizeBytes: 10_000, estSizeBytes: 10_000 });
    works.push({ id: w, inputs: [2 * w], outputs: [2 * w + 1], runTimeS: [100], estRunTimeS: [100] });
  }
  return { version: '1', files, works };
}

export const workQueue: Scenario = {
  name: '(a) work-queue sweep: 100,000 tasks, 1,000 hosts in 10 clusters',
  heuristic: 'workqueue',
  repetitions: 3,
  targetS: 3,
  targetRssMB: 1024,
  app: () => workQueueApp(100_000),
  grid: () => gridOf(10, 100, new Rng(1)),
};

export const constantWorkQueue: Scenario = {
  ...workQueue,
  name: "(a') work-queue sweep on a constant star: 100,000 tasks, 1,000 hosts at 100 % in 10 clusters",
  grid: () => constantGridOf(10, 100),
};

/** An MCell-style sweep of `tasks` tasks in chunks of 50 sharing a 50 MB file, each with a private 100 KB input. */
export function mcellApp(tasks: number): Application {
  const rng = new Rng(2);
  const chunks = Math.ceil(tasks / 50);
  const files: FileSpec[] = [];
  const works: WorkSpec[] = [];
  const file = (name: string, sizeBytes: number) => files.push({ id: files.length, name, sizeBytes, estSizeBytes: sizeBytes }) - 1;
  const shared = Array.from({ length: chunks }, (_, c) => file(`chunk_${c}`, 50_000_000));
  for (let w = 0; w < tasks; w++) {
    const input = file(`param_${w}`, 100_000);
    const output = file(`out_${w}`, 10_000 + rng.int(10_000));
    const runS = 90 + rng.int(21);
    works.push({ id: w, inputs: [shared[Math.floor(w / 50)]!, input], outputs: [output], runTimeS: [runS], estRunTimeS: [runS] });
  }
  return { version: '1', files, works };
}

export const mcell: Scenario = {
  name: '(b) MCell-style sweep: 20,000 tasks in chunks of 50 sharing a 50 MB file, 200 hosts in 4 clusters',
  heuristic: 'xsufferage',
  repetitions: 2,
  targetS: 5,
  targetRssMB: 300,
  app: () => mcellApp(20_000),
  grid: () => gridOf(4, 50, new Rng(3)),
};
