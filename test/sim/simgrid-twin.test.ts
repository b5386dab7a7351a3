// The simulated grid against SimGrid: a work-queue sweep (identical tasks, each a private input and an
// output over its cluster's link, hosts whose availability varies every 5 s) simulated by gridsweep's
// engine and by the SimGrid twin (bench/simgrid-twin/master-worker.cpp, built here against Debian's
// libsimgrid-dev) under the same policy: the makespans agree to 1e-9 relative, and a change to either
// model (latency, integration over availability, link order) shows here.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSimulation } from '../../backends/sim/run-simulation.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { Rng } from '../../src/util/rng.js';
import { MinimalWorkQueue } from '../../bench/support/minimal-work-queue.js';
import { constantGridOf, gridOf, workQueueApp } from '../../bench/support/sim-scenarios.js';
import { buildSimgridTwin, twinInput } from '../../bench/support/simgrid-twin.js';

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-simgrid-twin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gridsweep and SimGrid on the same work-queue sweep', () => {
  it('agree on the makespan to 1e-9 relative', () => {
    const twin = buildSimgridTwin(dir);
    const app = workQueueApp(3000);
    const grid = gridOf(3, 8, new Rng(5));
    writeFileSync(join(dir, 'twin.txt'), twinInput(app, grid));
    const out = execFileSync(twin, [join(dir, 'twin.txt'), '--log=root.thres:critical'], { encoding: 'utf8' });
    const simgrid = Number(/^makespan (\S+)$/m.exec(out)?.[1]);
    expect(out).toMatch(/^tasks 3000$/m);
    const ours = runSimulation({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'minimal-work-queue' }, seed: 1 }, (deps) => new MinimalWorkQueue(deps, app));
    expect(ours.finished).toBe(true);
    // 3000 tasks of 100 s on 24 hosts at 50–100 % availability: some 15,000 s.
    expect(simgrid).toBeGreaterThan(12_500);
    expect(Math.abs(ours.makespanS - simgrid) / simgrid).toBeLessThanOrEqual(1e-9);
  }, 120_000);

  it('agree on a constant star too (hosts at 100 %: the twin takes a constant speed, no profile)', () => {
    const twin = buildSimgridTwin(dir);
    const app = workQueueApp(3000);
    const grid = constantGridOf(3, 8);
    writeFileSync(join(dir, 'twin-constant.txt'), twinInput(app, grid));
    const out = execFileSync(twin, [join(dir, 'twin-constant.txt'), '--log=root.thres:critical'], { encoding: 'utf8' });
    const simgrid = Number(/^makespan (\S+)$/m.exec(out)?.[1]);
    expect(out).toMatch(/^tasks 3000$/m);
    const ours = runSimulation({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'minimal-work-queue' }, seed: 1 }, (deps) => new MinimalWorkQueue(deps, app));
    expect(ours.finished).toBe(true);
    // 3000 tasks of 100 s on 24 hosts at full speed: 125 rounds of 100 s, plus the transfers (an input
    // 0.01 s latency + 1e6 / 1e8 = 0.02 s, an output 0.0101 s, one link per 8 hosts): a little over 12,500 s.
    expect(simgrid).toBeGreaterThan(12_500);
    expect(simgrid).toBeLessThan(12_600);
    expect(Math.abs(ours.makespanS - simgrid) / simgrid).toBeLessThanOrEqual(1e-9);
  }, 120_000);
});
