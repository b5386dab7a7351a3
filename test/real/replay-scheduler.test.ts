// The replaying scheduler's state moves on the fake grid: a Work lost with its host, then found computed
// there when the host comes back (a connection that blinked), is not computed again: the copy the record
// had restarted is cancelled and the output crosses the link at its recorded place.
import { describe, expect, it } from 'vitest';
import type { ReplayPlan } from '../../src/scheduler/replay/replay-plan.js';
import { ReplayScheduler } from '../../src/scheduler/replay/replay-scheduler.js';
import type { Application } from '../../src/model/application.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { FakeClock, FakeGrid, type Op } from '../scheduler/support/fake-grid.js';
import { file, work } from '../scheduler/support/harness.js';

describe('ReplayScheduler.sched_work_recovered', () => {
  it('turns the Work lost with its host into a computed one, cancelling the copy started since', () => {
    const app: Application = { version: '1', files: [file(0, 10), file(1, 10)], works: [work(0, [0], [1], [5])] };
    // Only the fields the replay reads: the order per host and per link.
    const plan = {
      hostOrder: new Map([['h1', [0]]]),
      hostCluster: new Map([['h1', 'c1']]),
      linkOrder: new Map([['c1', [{ kind: 'input', fileId: 0 }, { kind: 'output', workId: 0 }]]]),
    } as unknown as ReplayPlan;
    const grid = new FakeGrid();
    const clock = new FakeClock();
    const records: RunRecordEvent[] = [];
    const replay = new ReplayScheduler(app, plan, { gridOS: grid, info: grid, clock, record: (e) => records.push(e) });
    const h1 = grid.addHost({ id: 'h1', clusterId: 'c1', arch: 0 });
    const finish = (kind: Op['kind']): void => {
      const op = grid.active.find((o) => o.kind === kind)!;
      grid.finish(op);
      if (op.kind === 'store') replay.sched_fileTransfer_done({ kind: 'input', fileId: op.fileId, clusterId: op.clusterId });
      if (op.kind === 'retrieve') replay.sched_fileTransfer_done({ kind: 'output', workId: op.workId, clusterId: op.clusterId });
    };

    replay.sched_new_work(app.works);
    replay.sched_new_host([h1]);
    finish('store');
    expect(grid.log).toEqual(['store 0 c1', 'compute 0 h1']);
    grid.removeHost('h1');
    replay.sched_host_failed(['h1']);
    grid.addHost(h1);
    replay.sched_new_host([h1]);
    expect(grid.log.at(-1)).toBe('compute 0 h1');
    replay.sched_work_recovered([0], 'h1');
    expect(grid.log.slice(-2)).toEqual(['cancel 0 h1', 'retrieve 0 h1']);
    finish('retrieve');
    expect(replay.isFinished()).toBe(true);
    expect(records.filter((r) => r.type === 'work-done')).toEqual([expect.objectContaining({ work: 0, host: 'h1' })]);
  });
});
