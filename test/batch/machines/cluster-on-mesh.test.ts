// Batch clusters on meshes: schedules by hand where contiguity changes what can start (and EASY must ask
// the allocator before a backfill), the refusals of impossible choices, and every registered allocator on
// generated traces under the schedule checker, with an independent replay of the allocation log.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allObservers, type ScheduleObserver } from '../../../src/batch/batch-cluster.js';
import { checkClusterChoice, ClusterSetupError, createPlacement, machineOf } from '../../../src/batch/cluster-setup.js';
import type { BatchJob } from '../../../src/batch/job.js';
import { readAllocationLog } from '../../../src/batch/machines/allocation-log.js';
import { listNodeAllocatorAliases, listNodeAllocatorFamilies } from '../../../src/batch/machines/node-allocators/registry.js';
import { getBatchPolicy } from '../../../src/batch/policies/registry.js';
import { runTrace } from '../../../src/trace/run-trace.js';
import { ScheduleChecker } from '../../../src/batch/schedule-checker.js';
import { writeGeneratedWorkload } from '../../../src/batch/swf/write-generated.js';
import { simulateTrace } from '../../../src/batch/trace-simulation.js';

const dir = mkdtempSync(join(tmpdir(), 'gs-mesh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function job(id: number, submitS: number, cores: number, runS: number, requestedS = runS): BatchJob {
  return { id, submitS, cores, runS, requestedS, userId: -1 };
}

function schedule(jobs: readonly BatchJob[], machineName: string, allocator: string, policy: string) {
  const machine = machineOf(machineName);
  const nodes = 'nodes' in machine ? machine.nodes : 0;
  const starts: Record<number, number> = {};
  const nodesOf: Record<number, number[]> = {};
  const recorder: ScheduleObserver = {
    started: (s) => {
      starts[s.job.id] = s.startS;
      nodesOf[s.job.id] = s.allocation.filter((_, i) => i % 2 === 0);
    },
  };
  const checker = new ScheduleChecker({ nodes, coresPerNode: 1 }, policy);
  let i = 0;
  const placement = createPlacement(machine, { nodes, coresPerNode: 1 }, allocator);
  const result = simulateTrace({ next: () => jobs[i++] }, { nodes, coresPerNode: 1, policy: getBatchPolicy(policy), allocator: placement, observer: allObservers(recorder, checker) });
  return { starts, nodesOf, violations: checker.violations(), metrics: result.metrics };
}

describe('contiguity decides what can start', () => {
  // mesh:4x1. At 0: 1 (1 node, 100 s), 2 (1 node, 10 s), 3 (1 node, 100 s) take nodes 0, 1, 2.
  // At 5: 4 asks for 2 nodes; only node 3 is free. At 10 job 2 ends: nodes 1 and 3 are free — enough,
  // but not neighbours.
  const jobs = [job(1, 0, 1, 100), job(2, 0, 1, 10), job(3, 0, 1, 100), job(4, 5, 2, 10)];

  it('a non-contiguous allocator starts job 4 at 10 s on nodes 1 and 3', () => {
    const r = schedule(jobs, 'mesh:4x1', 'linear:row-major:free-list', 'fcfs');
    expect(r.starts).toEqual({ 1: 0, 2: 0, 3: 0, 4: 10 });
    expect(r.nodesOf[4]).toEqual([1, 3]);
    expect(r.violations).toEqual([]);
    expect(r.metrics.allocation?.fragmentationNodeSeconds).toBe(0);
  });

  it('contiguous first-fit makes job 4 wait until 100 s, and counts the gap as fragmentation', () => {
    // From 10 to 100 s two nodes are free and the head job needs two: 2 × 90 = 180 node-seconds.
    const r = schedule(jobs, 'mesh:4x1', 'contiguous', 'fcfs');
    expect(r.starts).toEqual({ 1: 0, 2: 0, 3: 0, 4: 100 });
    expect(r.nodesOf[4]).toEqual([0, 1]);
    expect(r.violations).toEqual([]);
    expect(r.metrics.allocation?.fragmentationNodeSeconds).toBe(180);
  });
});

describe('EASY asks a contiguous allocator before a backfill', () => {
  // mesh:8x1. At 0: 1 → node 0 (5 s), 2 → nodes 1–2 (50 s), 3 → node 3 (5 s), 4 → nodes 4–6 (100 s),
  // 5 → node 7 (5 s). At 5 jobs 1, 3, 5 end: nodes 0, 3, 7 are free.
  // At 6 job 6 asks for 4 nodes (the head). At 50 job 2 ends and nodes 0–3 form a box: its reservation.
  // At 7 job 7 asks for 1 node for 1000 s. Counting cores, 5 nodes are free at 50 and one is spare, so
  // job 7 would start at 7 on node 0 — and then no box of 4 is free at 50 (nodes 1–3 and 7), breaking
  // the reservation. Asking the allocator, job 7 waits; at 50 job 6 takes nodes 0–3 and job 7 node 7.
  const jobs = [job(1, 0, 1, 5), job(2, 0, 2, 50), job(3, 0, 1, 5), job(4, 0, 3, 100), job(5, 0, 1, 5), job(6, 6, 4, 10), job(7, 7, 1, 1000)];

  it('contiguous: job 7 waits, so job 6 starts at its reserved 50 s', () => {
    const r = schedule(jobs, 'mesh:8x1', 'contiguous', 'easy');
    expect(r.nodesOf).toMatchObject({ 1: [0], 2: [1, 2], 3: [3], 4: [4, 5, 6], 5: [7] });
    expect(r.starts).toMatchObject({ 6: 50, 7: 50 });
    expect(r.nodesOf[6]).toEqual([0, 1, 2, 3]);
    expect(r.violations).toEqual([]);
  });

  it('non-contiguous: counting is exact, so job 7 backfills at 7 s and job 6 still starts at 50 s', () => {
    const r = schedule(jobs, 'mesh:8x1', 'linear:row-major:free-list', 'easy');
    expect(r.starts).toMatchObject({ 6: 50, 7: 7 });
    expect(r.violations).toEqual([]);
  });
});

describe('impossible choices are refused with what would work', () => {
  it('conservative backfilling with a contiguous allocator', () => {
    expect(() => checkClusterChoice(machineOf('mesh:8x8'), 'contiguous', 'conservative')).toThrow(/plans by counting free cores.*use fcfs, sjf, ljf, easy/);
  });

  it('a bag allocator on a mesh, and a processor allocator on the bag', () => {
    expect(() => checkClusterChoice(machineOf('mesh:8x8'), 'first-fit', 'easy')).toThrow(/for the bag of cores; on mesh:8x8 use linear:row-major:free-list/);
    expect(() => checkClusterChoice(machineOf('bag'), 'mbs', 'easy')).toThrow(ClusterSetupError);
    expect(() => checkClusterChoice(machineOf('bag'), 'mbs', 'easy')).toThrow(/--machine mesh:8x8x4/);
  });

  it('a bad parameter, naming the values allowed', () => {
    expect(() => checkClusterChoice(machineOf('mesh:8x8'), 'linear:zigzag', 'easy')).toThrow(/row-major, snake, hilbert/);
  });

  it('the defaults: first-fit on the bag, the lowest-numbered free nodes on a mesh', () => {
    expect(checkClusterChoice(machineOf('bag'), undefined, 'easy').allocator).toBe('first-fit');
    expect(checkClusterChoice(machineOf('torus:4x4'), undefined, 'easy').allocator).toBe('linear:row-major:free-list');
  });
});

/** Every allocator name a user can give alone: each family with its defaults, each alias, and a few parameters. */
function everyAllocator(): string[] {
  const names = new Set<string>();
  for (const f of listNodeAllocatorFamilies()) {
    names.add(f.name);
    for (const p of f.parameters) if (Array.isArray(p.values)) for (const v of p.values) names.add([f.name, ...f.parameters.map((q) => (q === p ? v : q.default))].join(':'));
  }
  for (const a of Object.keys(listNodeAllocatorAliases())) names.add(a);
  return [...names].sort();
}

describe('every allocator on a generated trace with round requested times', () => {
  // 600 jobs on 64 nodes (one core each), requested times rounded to the hour: ties at the shadow time.
  const workload = join(dir, 'w.swf');
  writeGeneratedWorkload({ jobs: 600, nodes: 64, coresPerNode: 1, load: 0.95, requestRoundingS: 3600 }, 7, workload);
  const allocators = everyAllocator();

  it('has the families the README lists', () => {
    expect(allocators).toEqual(expect.arrayContaining(['contiguous', 'linear', 'mbs', 'random']));
  });

  for (const machine of ['mesh:8x8', 'mesh:4x4x4', 'torus:8x8']) {
    for (const policy of ['fcfs', 'easy']) {
      it(`${machine}, ${policy}: no node given twice, every job started on free nodes, promises kept; non-contiguous allocators agree on every start`, () => {
        let reference: string | undefined;
        for (const allocator of allocators) {
          const log = join(dir, `${machine}-${policy}-${allocator}.log`.replace(/:/g, '_'));
          const run = runTrace({ workloadPath: workload, machine, policy, allocator, check: true, allocationLog: log });
          expect(run.violations, allocator).toEqual([]);
          const { header, jobs } = readAllocationLog(log);
          expect(header.topology.name).toBe(machine);
          // Replay the log independently: no node is held by two jobs at once.
          const events = jobs.flatMap((j) => [...j.nodes].flatMap((n) => [{ t: j.startS, d: 1, n, j: j.job }, { t: j.endS, d: -1, n, j: j.job }]));
          events.sort((a, b) => a.t - b.t || a.d - b.d);
          const held = new Map<number, number>();
          for (const e of events) {
            if (e.d === -1) held.delete(e.n);
            else {
              expect(held.get(e.n), `${allocator}: node ${e.n} of job ${e.j} at ${e.t} s`).toBeUndefined();
              held.set(e.n, e.j);
            }
          }
          expect(jobs.length).toBe(run.metrics.jobs);
          if (allocator.startsWith('contiguous')) continue;
          const starts = jobs.map((j) => `${j.job}@${j.startS}`).sort().join(' ');
          reference ??= starts;
          expect(starts === reference, `${allocator} changed start times`).toBe(true);
        }
      });
    }
  }
});
