// (b) The sched_* state moves and do_schedule() (Berman et al. 1999, §7.3.2, Fig. 10), on a fake grid.
import { describe, expect, it } from 'vitest';
import type { Application } from '../../src/model/application.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';
import { Harness, file, work } from './support/harness.js';

const host = (id: string, clusterId: string, arch = 0) => ({ id, clusterId, arch });

/** Two Works sharing file 0; private inputs 1, 2; outputs 3, 4. */
function twoWorks(): Application {
  return {
    version: '1',
    files: [file(0, 1000), file(1, 100), file(2, 100), file(3, 10), file(4, 10)],
    works: [work(0, [0, 1], [3], [100]), work(1, [0, 2], [4], [100])],
  };
}

describe('a run on one host', () => {
  it('sends each input once, computes when inputs are in, retrieves, and finishes', () => {
    const h = new Harness(twoWorks());
    h.start([host('c1.a', 'c1')]);
    expect(h.ofType('plan')).toHaveLength(1);
    // The shared file (usage 2) goes first; one transfer at a time on the link.
    expect(h.grid.log).toEqual(['store 0 c1']);
    h.complete(h.find((op) => op.kind === 'store'), 1);
    expect(h.grid.log.at(-1)).toBe('store 1 c1');
    h.complete(h.find((op) => op.kind === 'store'), 2);
    expect(h.grid.log.slice(-2)).toEqual(['compute 0 c1.a', 'store 2 c1']);
    expect(h.scheduler.workStatus(0)).toBe('running');
    h.complete(h.find((op) => op.kind === 'store'), 3);
    // The host is busy with Work 0: Work 1 waits, the output of Work 0 is not computed yet.
    expect(h.grid.active.map((op) => op.kind)).toEqual(['compute']);
    h.complete(h.find((op) => op.kind === 'compute'), 100);
    expect(h.grid.log.slice(-2)).toEqual(['compute 1 c1.a', 'retrieve 0 c1.a']);
    expect(h.scheduler.workStatus(0)).toBe('retrieving');
    h.complete(h.find((op) => op.kind === 'retrieve'), 101);
    expect(h.ofType('work-done')).toEqual([{ type: 'work-done', t: 101, work: 0, host: 'c1.a' }]);
    expect(h.scheduler.isFinished()).toBe(false);
    h.complete(h.find((op) => op.kind === 'compute'), 200);
    h.complete(h.find((op) => op.kind === 'retrieve'), 201);
    expect(h.scheduler.isFinished()).toBe(true);
    expect(h.scheduler.stats.worksDone).toBe(2);
    expect(h.grid.log.filter((l) => l.startsWith('store 0'))).toHaveLength(1);
    // Every sched_* call is recorded; no timer is left once finished.
    expect(h.ofType('sched').map((r) => r.call)).toContain('sched_fileTransfer_done');
    expect(h.clock.pendingTimes()).toEqual([]);
  });

  // The plan lists every stored file first when it reads as many Works (times clusters) as the storages
  // hold files, and looks each input up directly otherwise (stored-inputs.ts): files no Work reads, stored
  // too, make the second case.
  for (const unread of [[], [3, 4]]) {
    it(`a plan finds a file a storage holds that the scheduler did not know of, and does not send it (${unread.length} more files stored)`, () => {
      const h = new Harness(twoWorks(), { heuristic: 'minmin', planIntervalS: 50 });
      h.start([host('c1.a', 'c1')]);
      expect(h.grid.log).toEqual(['store 0 c1']);
      // Work 1's private input reaches the storage by other means while the link is busy with file 0.
      h.grid.preStore('c1', 2);
      for (const fileId of unread) h.grid.preStore('c1', fileId);
      h.clock.advanceTo(50);
      expect(h.ofType('plan')).toHaveLength(2);
      for (let t = 51; !h.scheduler.isFinished() && t < 1000; t++) h.complete(h.grid.active[0]!, t);
      expect(h.scheduler.isFinished()).toBe(true);
      expect(h.grid.log.filter((l) => l.startsWith('store'))).toEqual(['store 0 c1', 'store 1 c1']);
    });
  }

  it('sets the next scheduling event at now + planIntervalS', () => {
    const h = new Harness(twoWorks(), { planIntervalS: 50 });
    h.start([host('c1.a', 'c1')]);
    expect(h.ofType('plan')[0]!.nextPlanS).toBe(50);
    expect(h.clock.pendingTimes()).toEqual([50]);
    h.clock.advanceTo(50);
    expect(h.ofType('plan')).toHaveLength(2);
    expect(h.clock.pendingTimes()).toEqual([100]);
  });
});

/**
 * Two Works sharing an input on hosts c1.a and c2.b, run until one computes on c1.a; then c1.a fails.
 * Returns the harness and that Work.
 */
function failWhileComputing(): { h: Harness; workId: number } {
  const app: Application = {
    version: '1',
    files: [file(0, 100), file(1, 10), file(2, 10)],
    works: [work(0, [0], [1], [100]), work(1, [0], [2], [100])],
  };
  const h = new Harness(app, { replanOn: 'both', keepWorksPerHost: 5, deltaS: 10_000 });
  h.start([host('c1.a', 'c1'), host('c2.b', 'c2', 0)]);
  h.runUntil((op) => op.kind === 'compute' && op.hostId === 'c1.a');
  const running = h.find((op) => op.kind === 'compute' && op.hostId === 'c1.a');
  const workId = running.kind === 'compute' ? running.workId : -1;
  h.grid.removeHost('c1.a');
  h.scheduler.sched_host_failed(['c1.a']);
  return { h, workId };
}

describe('failures', () => {
  it('a host failure empties its FIFO and sends its running Work back to be done again', () => {
    const { h, workId } = failWhileComputing();
    expect(h.scheduler.workStatus(workId)).toBe('todo');
    expect(h.scheduler.hostFifo('c1.a')).toEqual([]);
    expect(h.ofType('work-failed')).toEqual([{ type: 'work-failed', t: h.clock.nowS(), work: workId, host: 'c1.a', reason: 'host-failed', final: false }]);
    h.clock.advanceTo(h.clock.nowS()); // the re-plan on failure
    h.runToEnd();
    expect(h.grid.log.filter((l) => l === `compute ${workId} c2.b`)).toHaveLength(1);
    expect(h.scheduler.stats.reExecutions).toBe(1);
    expect(h.scheduler.stats.workFailures).toBe(1);
  });

  it('a Work lost with its host but found computed there when it returns is brought back, and its new copy cancelled', () => {
    const { h, workId } = failWhileComputing();
    h.clock.advanceTo(h.clock.nowS()); // the re-plan on failure
    h.runUntil((op) => op.kind === 'compute' && op.workId === workId);
    const copy = h.find((op) => op.kind === 'compute' && op.workId === workId);
    const copyHost = copy.kind === 'compute' ? copy.hostId : '';
    expect(copyHost).toBe('c2.b');
    h.grid.addHost(host('c1.a', 'c1'));
    h.scheduler.sched_new_host([host('c1.a', 'c1')]);
    h.scheduler.sched_work_recovered([workId], 'c1.a');
    expect(h.grid.log).toContain(`cancel ${workId} c2.b`);
    expect(h.grid.active).not.toContain(copy);
    expect(h.ofType('sched').map((r) => r.call)).toContain('sched_work_recovered');
    h.clock.advanceTo(h.clock.nowS());
    h.runToEnd();
    expect(h.scheduler.isFinished()).toBe(true);
    expect(h.grid.log.filter((l) => l.startsWith(`retrieve ${workId} `))).toEqual([`retrieve ${workId} c1.a`]);
    expect(h.ofType('work-done').filter((r) => r.work === workId)).toEqual([expect.objectContaining({ host: 'c1.a' })]);
    // Recovering a Work already done changes nothing.
    const calls = h.grid.log.length;
    h.scheduler.sched_work_recovered([workId], 'c1.a');
    expect(h.grid.log.length).toBe(calls);
    expect(h.scheduler.workStatus(workId)).toBe('done');
  });

  it('a disk failure fails its hosts, drops its link FIFO and in-flight transfer, and loses its stored files', () => {
    const app: Application = {
      version: '1',
      files: [file(0, 1000), file(1, 1000), file(2, 10), file(3, 10)],
      works: [work(0, [0], [2], [10]), work(1, [1], [3], [10])],
    };
    const h = new Harness(app, { replanOn: 'both' });
    h.start([host('c1.a', 'c1'), host('c1.b', 'c1')]);
    h.complete(h.find((op) => op.kind === 'store'), 1);
    expect(h.scheduler.linkFifo('c1').length + h.grid.active.length).toBeGreaterThan(0);
    h.grid.removeCluster('c1');
    h.scheduler.sched_disk_failed(['c1']);
    expect(h.scheduler.linkFifo('c1')).toEqual([]);
    expect(h.scheduler.workStatus(0)).toBe('todo');
    expect(h.scheduler.workStatus(1)).toBe('todo');
    // The cluster comes back: both files are sent again (what was stored is gone), and the run completes.
    const before = h.grid.log.length;
    h.grid.addHost(host('c1.a', 'c1'));
    h.scheduler.sched_new_host([host('c1.a', 'c1')]);
    h.clock.advanceTo(h.clock.nowS());
    h.runToEnd();
    const resent = h.grid.log.slice(before).filter((l) => l.startsWith('store'));
    expect(resent.sort()).toEqual(['store 0 c1', 'store 1 c1']);
  });

  it('outputs waiting in a failed cluster are lost: the Work runs again', () => {
    const app: Application = { version: '1', files: [file(0, 10), file(1, 10)], works: [work(0, [0], [1], [10])] };
    const h = new Harness(app, { replanOn: 'both' });
    h.start([host('c1.a', 'c1'), host('c2.a', 'c2')]);
    const store = h.find((op) => op.kind === 'store');
    const cluster = store.kind === 'store' ? store.clusterId : '';
    h.complete(store, 1);
    const compute = h.find((op) => op.kind === 'compute');
    h.complete(compute, 2);
    const retrieve = h.find((op) => op.kind === 'retrieve');
    h.grid.removeCluster(cluster);
    h.scheduler.sched_disk_failed([cluster]);
    expect(h.grid.active).not.toContain(retrieve);
    expect(h.scheduler.workStatus(0)).toBe('todo');
    expect(h.ofType('work-failed').map((r) => r.reason)).toEqual(['outputs-lost']);
    h.clock.advanceTo(h.clock.nowS());
    h.runToEnd();
    expect(h.scheduler.isFinished()).toBe(true);
  });

  it('a program that keeps failing is given up after maxExitFailures', () => {
    const app: Application = { version: '1', files: [file(0, 10)], works: [work(0, [], [0], [10])] };
    const h = new Harness(app, { maxExitFailures: 2 });
    h.start([host('c1.a', 'c1')]);
    for (let attempt = 1; attempt <= 2; attempt++) {
      const op = h.find((o) => o.kind === 'compute');
      h.grid.finish(op);
      h.scheduler.sched_work_failed([0], { reason: 'exit', hostId: 'c1.a', exitCode: 1, signal: null, stderrTail: 'boom' });
      h.clock.advanceTo(h.clock.nowS() + 300);
    }
    expect(h.ofType('work-failed').map((r) => r.final)).toEqual([false, true]);
    expect(h.scheduler.workStatus(0)).toBe('failed');
    expect(h.scheduler.isFinished()).toBe(true);
  });
});

describe('do_schedule', () => {
  /** Work 0 is estimated to finish almost at once, so the chart puts its output ahead of the next inputs. */
  function linkOrderApp(): Application {
    return {
      version: '1',
      files: [file(0, 10), file(1, 10), file(2, 500), file(3, 10), file(4, 10), file(5, 10)],
      works: [work(0, [0], [3], [0.001]), work(1, [1], [4], [1000]), work(2, [2], [5], [50])],
    };
  }

  for (const linkOrder of ['greedy', 'keep'] as const) {
    it(`${linkOrder}: an output not computed yet at the head of the link FIFO ${linkOrder === 'greedy' ? 'is skipped' : 'blocks the link'}`, () => {
      const h = new Harness(linkOrderApp(), { linkOrder, keepWorksPerHost: 5 });
      h.start([host('c1.a', 'c1'), host('c1.b', 'c1')]);
      // Send the input of Work 0: it computes (and takes longer than estimated).
      h.complete(h.find((op) => op.kind === 'store' && op.fileId === 0), 0.01);
      expect(h.grid.log).toEqual(['store 0 c1', 'compute 0 c1.a', ...(linkOrder === 'greedy' ? ['store 1 c1'] : [])]);
      // Precondition: the head of the link FIFO is Work 0's output, inputs come after it.
      const fifo = h.scheduler.linkFifo('c1');
      expect(fifo[0]).toMatchObject({ kind: 'output', workId: 0 });
      expect(fifo.slice(1).some((i) => i.kind === 'input')).toBe(true);
      const linkOps = h.grid.active.filter((op) => op.kind !== 'compute');
      if (linkOrder === 'greedy') expect(linkOps.map((op) => op.kind === 'store' && op.fileId)).toEqual([1]);
      else expect(linkOps).toEqual([]);
      // Once Work 0 is computed, its output goes (in 'keep' mode, before file 2).
      h.complete(h.find((op) => op.kind === 'compute' && op.workId === 0), 5);
      if (linkOrder === 'keep') expect(h.grid.log.at(-1)).toBe('retrieve 0 c1.a');
      h.runToEnd();
    });
  }

  it('work stealing: an idle host takes a ready Work queued on another host of its cluster', () => {
    const app: Application = {
      version: '1',
      files: [file(0, 10), file(1, 10), file(2, 10)],
      works: [work(0, [0], [1], [100]), work(1, [0], [2], [100])],
    };
    const h = new Harness(app, { workStealing: true, replanOn: 'never', keepWorksPerHost: 5, planIntervalS: 10_000, deltaS: 10_000 });
    h.start([host('c1.a', 'c1')]);
    h.complete(h.find((op) => op.kind === 'store'), 1);
    expect(h.scheduler.hostFifo('c1.a')).toEqual([1]);
    h.grid.addHost(host('c1.b', 'c1'));
    h.scheduler.sched_new_host([host('c1.b', 'c1')]);
    expect(h.grid.log.at(-1)).toBe('compute 1 c1.b');
    expect(h.scheduler.hostFifo('c1.a')).toEqual([]);
  });

  it('an idle host does not re-plan over and over when the plan has nothing for it', () => {
    const app: Application = { version: '1', files: [file(0, 10), file(1, 10)], works: [work(0, [0], [1], [100])] };
    const h = new Harness(app, { planIntervalS: 1000 });
    h.start([host('c1.a', 'c1'), host('c1.b', 'c1'), host('c1.c', 'c1')]);
    h.runToEnd();
    expect(h.scheduler.isFinished()).toBe(true);
    expect(h.ofType('plan')).toHaveLength(1);
  });

  it('planDurationS: the grid works from the kept FIFO heads until the plan is merged', () => {
    const app: Application = {
      version: '1',
      files: [file(0, 10), file(1, 10), file(2, 10)],
      works: [work(0, [], [0], [10]), work(1, [], [1], [10]), work(2, [], [2], [10])],
    };
    const h = new Harness(app, { planDurationS: 30, planIntervalS: 100, deltaS: 100 });
    h.start([host('c1.a', 'c1')]);
    // The first plan is still running: nothing queued, nothing started.
    expect(h.grid.log).toEqual([]);
    h.clock.advanceTo(30);
    expect(h.grid.log).toEqual(['compute 0 c1.a']);
    expect(h.scheduler.hostFifo('c1.a')).toEqual([1, 2]);
    h.complete(h.find((op) => op.kind === 'compute'), 40);
    // The second plan (t = 100) keeps one Work; the other waits for the merge at t = 130.
    h.complete(h.find((op) => op.kind === 'retrieve'), 41);
    h.clock.advanceTo(100);
    expect(h.scheduler.hostFifo('c1.a')).toEqual([2]);
    h.clock.advanceTo(130);
    h.runToEnd();
    expect(h.ofType('plan').every((p) => p.simulatedDurationS === 30)).toBe(true);
  });
});

describe('every heuristic drives a small run to completion', () => {
  const app: Application = {
    version: '1',
    files: [...Array.from({ length: 4 }, (_, k) => file(k, 2000)), ...Array.from({ length: 12 }, (_, k) => file(4 + k, 100 + k))],
    works: Array.from({ length: 12 }, (_, w) => work(w, [w % 4, (w + 1) % 4], [4 + w], [50 + w, 80, 30 + 2 * w])),
  };
  for (const { name } of listHeuristics()) {
    it(name, () => {
      const h = new Harness(app, { heuristic: name, planIntervalS: 60, deltaS: 60 });
      h.start([host('c1.a', 'c1', 0), host('c1.b', 'c1', 1), host('c2.a', 'c2', 2)]);
      h.runToEnd();
      expect(h.ofType('work-done').map((r) => r.work).sort((a, b) => a - b)).toEqual(app.works.map((w) => w.id));
      // No input is ever sent twice to the same cluster.
      const stores = h.grid.log.filter((l) => l.startsWith('store'));
      expect(new Set(stores).size).toBe(stores.length);
    });
  }
});
