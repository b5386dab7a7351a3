// Works lost with a failure go at once to a host that is idle then (scheduler.ts, afterFailure): a failure
// that gives Works back runs do_schedule(), whatever replanOn says. Before, they waited for the next
// scheduling event while the idle host waited too: in a real run of the work queue, a task lost with its
// host at the end of a sweep waited up to a plan interval with every other host idle.
import { describe, expect, it } from 'vitest';
import type { Application } from '../../src/model/application.js';
import { Harness, file, work } from './support/harness.js';

/** Works of the given estimated run times on arch 0, no inputs, one empty output each. */
function works(...runTimesS: number[]): Application {
  return { version: '1', files: runTimesS.map((_, k) => file(k, 0)), works: runTimesS.map((s, k) => work(k, [], [k], [s])) };
}
const hostA = { id: 'c1.a', clusterId: 'c1', arch: 0 };
const hostB = { id: 'c2.b', clusterId: 'c2', arch: 0 };

describe.each(['workqueue', 'minmin'] as const)('a failure that gives Works back while a host is idle (%s)', (heuristic) => {
  it.each(['add', 'never'] as const)('replanOn %s: the idle host starts the lost Work at the failure', (replanOn) => {
    // Work 0 (1000 s) on one host, Work 1 (10 s) on the other, which is done with it at 10 and has nothing
    // left to do. At 100 the first host fails: Work 0 starts on the idle one at 100 (the clock goes no
    // further), not at the next scheduling event (500).
    const h = new Harness(works(1000, 10), { planIntervalS: 500, replanOn, heuristic });
    h.start([hostA, hostB]);
    const long = h.find((op) => op.kind === 'compute' && op.workId === 0);
    const short = h.find((op) => op.kind === 'compute' && op.workId === 1);
    if (long.kind !== 'compute' || short.kind !== 'compute') throw new Error('unreachable');
    expect(long.hostId).not.toBe(short.hostId);
    h.complete(short, 10);
    h.complete(h.find((op) => op.kind === 'retrieve'), 10);
    h.clock.advanceTo(100);
    h.grid.removeHost(long.hostId);
    h.scheduler.sched_host_failed([long.hostId]);
    h.clock.advanceTo(100);
    expect(h.grid.active.filter((op) => op.kind === 'compute')).toEqual([{ kind: 'compute', workId: 0, hostId: short.hostId }]);
  });
});

describe('a failure that gives nothing back', () => {
  it('runs no do_schedule(): an idle host stays without a plan until the next event', () => {
    // Both Works done on a and b by 10; b fails at 100 with nothing of its own: no plan, no start.
    const h = new Harness(works(10, 10), { planIntervalS: 500, heuristic: 'minmin' });
    h.start([hostA, hostB]);
    h.complete(h.find((op) => op.kind === 'compute' && op.hostId === hostA.id), 10);
    h.complete(h.find((op) => op.kind === 'compute' && op.hostId === hostB.id), 10);
    h.clock.advanceTo(100);
    const plansBefore = h.ofType('plan').length;
    h.grid.removeHost(hostB.id);
    h.scheduler.sched_host_failed([hostB.id]);
    h.clock.advanceTo(100);
    expect(h.ofType('plan')).toHaveLength(plansBefore);
  });
});
