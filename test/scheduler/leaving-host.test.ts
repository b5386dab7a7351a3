// A host leaving the run (InformationService.hostIsLeaving, real runs) finishes its running Work but takes
// nothing new: do_plan() keeps none of its queued Works and plans none on it, whatever the heuristic.
import { describe, expect, it } from 'vitest';
import type { Application } from '../../src/model/application.js';
import type { HostId } from '../../src/model/grid.js';
import { listHeuristics } from '../../src/scheduler/heuristics/registry.js';
import { Harness, file, work } from './support/harness.js';

const hosts = [
  { id: 'c1.a', clusterId: 'c1', arch: 0 },
  { id: 'c1.b', clusterId: 'c1', arch: 0 },
  { id: 'c2.a', clusterId: 'c2', arch: 0 },
];

// 12 Works without inputs, fastest on c1.a's architecture (all hosts share it), each with an output.
const app: Application = {
  version: '1',
  files: Array.from({ length: 12 }, (_, k) => file(k, 100)),
  works: Array.from({ length: 12 }, (_, w) => work(w, [], [w], [100])),
};

describe('a leaving host', () => {
  for (const { name } of listHeuristics()) {
    it(`${name}: the plan queues nothing on it, keeps its running Work, and gives the Works to the others`, () => {
      const h = new Harness(app, { heuristic: name, planIntervalS: 50, deltaS: 10_000, keepWorksPerHost: 2 });
      const leaving = new Set<HostId>();
      Object.assign(h.grid, { hostIsLeaving: (hostId: HostId) => leaving.has(hostId) });
      h.start(hosts);
      const computing = h.find((op) => op.kind === 'compute' && op.hostId === 'c1.a');
      const runningWork = computing.kind === 'compute' ? computing.workId : -1;

      leaving.add('c1.a');
      const plans = h.ofType('plan').length;
      h.clock.advanceTo(50); // the next plan
      expect(h.ofType('plan')).toHaveLength(plans + 1);

      expect(h.scheduler.hostFifo('c1.a')).toEqual([]);
      expect(h.scheduler.workStatus(runningWork)).toBe('running');
      const others = [...h.scheduler.hostFifo('c1.b'), ...h.scheduler.hostFifo('c2.a')];
      // The work queue gives a Work to idle hosts only (none here); every other heuristic plans every Work.
      if (name !== 'workqueue') expect(others).toHaveLength(12 - 3);
      // The leaving host finishes its Work, and its output comes back.
      h.complete(computing, 100);
      h.complete(h.find((op) => op.kind === 'retrieve' && op.workId === runningWork), 101);
      expect(h.scheduler.workStatus(runningWork)).toBe('done');
      expect(h.grid.log.filter((l) => l.startsWith('compute') && l.endsWith('c1.a'))).toEqual([`compute ${runningWork} c1.a`]);
    });

    it(`${name}: an idle leaving host (its Work done, not gone yet) gets nothing from the next plan`, () => {
      const h = new Harness(app, { heuristic: name, planIntervalS: 50, deltaS: 10_000, keepWorksPerHost: 2 });
      const leaving = new Set<HostId>();
      Object.assign(h.grid, { hostIsLeaving: (hostId: HostId) => leaving.has(hostId) });
      h.start(hosts);
      leaving.add('c1.a');
      h.complete(h.find((op) => op.kind === 'compute' && op.hostId === 'c1.a'), 10);
      h.clock.advanceTo(50);
      expect(h.scheduler.hostFifo('c1.a')).toEqual([]);
      expect(h.grid.log.filter((l) => l.startsWith('compute') && l.endsWith('c1.a'))).toHaveLength(1);
    });
  }
});
