// The retry rule for real runs: a Work is never placed on a host InformationService.hostsToAvoid names.
import { describe, expect, it } from 'vitest';
import type { Application } from '../../../src/model/application.js';
import type { WorkId } from '../../../src/model/application.js';
import type { HostId } from '../../../src/model/grid.js';
import { listHeuristics } from '../../../src/scheduler/heuristics/registry.js';
import { Rng } from '../../../src/util/rng.js';
import { Harness, file, work } from '../support/harness.js';

/** A harness whose fake information service also answers hostsToAvoid (the scheduler asks it at each use). */
function harness(app: Application, options: ConstructorParameters<typeof Harness>[1], avoidList: [WorkId, HostId[]][]) {
  const h = new Harness(app, options);
  const avoid = new Map(avoidList.map(([w, hs]) => [w, new Set(hs)]));
  Object.assign(h.grid, { hostsToAvoid: (workId: WorkId): ReadonlySet<HostId> => avoid.get(workId) ?? new Set() });
  return Object.assign(h, { avoid });
}

const hosts = [
  { id: 'c1.a', clusterId: 'c1', arch: 0 },
  { id: 'c1.b', clusterId: 'c1', arch: 1 },
  { id: 'c2.a', clusterId: 'c2', arch: 0 },
];

describe('hostsToAvoid', () => {
  // 12 Works, every one fastest on arch 0; a seeded random avoid set per Work (never every host).
  const app: Application = {
    version: '1',
    files: [...Array.from({ length: 3 }, (_, k) => file(k, 500)), ...Array.from({ length: 12 }, (_, k) => file(3 + k, 20))],
    works: Array.from({ length: 12 }, (_, w) => work(w, [w % 3], [3 + w], [20 + w, 60])),
  };
  const rng = new Rng(11);
  const avoid: [WorkId, HostId[]][] = app.works.map((w) => [w.id, hosts.filter(() => rng.next() < 0.45).map((h) => h.id).slice(0, 2)]);

  for (const { name } of listHeuristics()) {
    it(`${name}: never computes a Work on a host it must avoid`, () => {
      const h = harness(app, { heuristic: name, planIntervalS: 60, deltaS: 60 }, avoid);
      h.start(hosts);
      h.runToEnd();
      const computes = h.grid.log.filter((l) => l.startsWith('compute')).map((l) => l.split(' '));
      expect(computes).toHaveLength(12);
      for (const [, w, host] of computes) expect(h.avoid.get(Number(w))?.has(host!) ?? false, `Work ${w} on ${host}`).toBe(false);
    });
  }

  it('the best host is skipped for the next best one', () => {
    const one: Application = { version: '1', files: [file(0, 10)], works: [work(0, [], [0], [10, 100])] };
    const h = harness(one, { heuristic: 'minmin' }, [[0, ['c1.a', 'c2.a']]]);
    h.start(hosts);
    expect(h.grid.log).toEqual(['compute 0 c1.b']);
  });

  it('a Work every host must avoid waits (is not placed)', () => {
    const one: Application = { version: '1', files: [file(0, 10), file(1, 10)], works: [work(0, [], [0], [10, 10]), work(1, [], [1], [10, 10])] };
    const h = harness(one, { heuristic: 'workqueue' }, [[0, hosts.map((x) => x.id)]]);
    h.start(hosts);
    expect(h.grid.log).toEqual(['compute 1 c1.a']);
    expect(h.scheduler.workStatus(0)).toBe('todo');
  });

  it('work stealing does not take a Work onto a host it must avoid', () => {
    const two: Application = { version: '1', files: [file(0, 10), file(1, 10)], works: [work(0, [], [0], [100]), work(1, [], [1], [100])] };
    const h = harness(two, { workStealing: true, replanOn: 'never', keepWorksPerHost: 5, planIntervalS: 10_000, deltaS: 10_000 }, [[1, ['c1.b']]]);
    h.start([hosts[0]!]);
    expect(h.scheduler.hostFifo('c1.a')).toEqual([1]);
    h.grid.addHost(hosts[1]!);
    h.scheduler.sched_new_host([hosts[1]!]);
    expect(h.grid.log.filter((l) => l.endsWith('c1.b'))).toEqual([]);
    expect(h.scheduler.hostFifo('c1.a')).toEqual([1]);
  });
});
