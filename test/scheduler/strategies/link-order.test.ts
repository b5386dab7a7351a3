// Link ordering (Berman et al. 1999, §5.6.5): keep, greedy, hybrid.
import { describe, expect, it } from 'vitest';
import type { Application } from '../../../src/model/application.js';
import type { SchedulerOptions } from '../../../src/scheduler/options.js';
import { maySkipOutput } from '../../../src/scheduler/strategies/link-order.js';
import { Harness, file, work } from '../support/harness.js';

describe('maySkipOutput', () => {
  it('greedy always, keep never, hybrid only when not due soon and not skipped too often', () => {
    expect(maySkipOutput({ mode: 'greedy', waitS: 10, maxSkips: 1 }, 0, 99)).toBe(true);
    expect(maySkipOutput({ mode: 'keep', waitS: 10, maxSkips: 1 }, Infinity, 0)).toBe(false);
    const hybrid = { mode: 'hybrid', waitS: 10, maxSkips: 2 } as const;
    expect(maySkipOutput(hybrid, 11, 0)).toBe(true);
    expect(maySkipOutput(hybrid, 10, 0)).toBe(false);
    expect(maySkipOutput(hybrid, Infinity, 1)).toBe(true);
    expect(maySkipOutput(hybrid, Infinity, 2)).toBe(false);
  });
});

describe('hybrid through do_schedule', () => {
  /** Work 0 is estimated to finish almost at once, so the plan puts its output ahead of the other inputs. */
  const app: Application = {
    version: '1',
    files: [file(0, 10), file(1, 10), file(2, 500), file(3, 10), file(4, 10), file(5, 10)],
    works: [work(0, [0], [3], [0.001]), work(1, [1], [4], [1000]), work(2, [2], [5], [50])],
  };
  const hosts = [
    { id: 'c1.a', clusterId: 'c1', arch: 0 },
    { id: 'c1.b', clusterId: 'c1', arch: 0 },
  ];
  /** After Work 0 starts (expected to end 0.001 s later), what the link does. */
  function linkAfterStart(options: Partial<SchedulerOptions>): string[] {
    const h = new Harness(app, { keepWorksPerHost: 5, ...options });
    h.start(hosts);
    h.complete(h.find((op) => op.kind === 'store' && op.fileId === 0), 0.01);
    expect(h.scheduler.linkFifo('c1')[0]).toMatchObject({ kind: 'output', workId: 0 });
    const log = h.grid.log.slice(2);
    h.runToEnd();
    return log;
  }

  it('waits for an output due within hybridWaitS', () => {
    expect(linkAfterStart({ linkOrder: 'hybrid', hybridWaitS: 30, hybridMaxSkips: 10 })).toEqual([]);
  });

  it('skips an output not due within hybridWaitS', () => {
    expect(linkAfterStart({ linkOrder: 'hybrid', hybridWaitS: 0.0005, hybridMaxSkips: 10 })).toEqual(['store 1 c1']);
  });

  it('skips an output at most hybridMaxSkips times', () => {
    const h = new Harness(app, { keepWorksPerHost: 5, linkOrder: 'hybrid', hybridWaitS: 0, hybridMaxSkips: 1 });
    h.start(hosts);
    h.complete(h.find((op) => op.kind === 'store' && op.fileId === 0), 0.01);
    expect(h.grid.log.at(-1)).toBe('store 1 c1'); // skipped once
    h.complete(h.find((op) => op.kind === 'store' && op.fileId === 1), 1);
    // Work 1 computes on the other host; the link now waits for Work 0's output instead of sending file 2.
    expect(h.grid.active.filter((op) => op.kind !== 'compute')).toEqual([]);
    expect(h.scheduler.linkFifo('c1')[0]).toMatchObject({ kind: 'output', workId: 0 });
    h.complete(h.find((op) => op.kind === 'compute' && op.workId === 0), 5);
    expect(h.grid.log.at(-1)).toBe('retrieve 0 c1.a');
    h.runToEnd();
  });
});
