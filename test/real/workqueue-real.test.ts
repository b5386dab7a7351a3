// Issue 13's bug: under the work queue a real run started a host's next task only at the next scheduling
// event (60 s by default) — the scheduler's self-scheduling called the information service's hostsToAvoid
// unbound, and the error it threw was swallowed as if the finished task had failed. Here the plan interval
// is 600 s, so a run that waits for it cannot finish within the test's limit.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runReal } from '../../backends/real/runner.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { makeOrigin, sweepOf, type Origin } from './support/origin.js';
import { freshRunInput } from './support/run-input.js';

const origins: Origin[] = [];
afterAll(() => origins.forEach((o) => o.remove()));

const LIMIT_S = 40;

describe('work queue in a real run', () => {
  it('gives a host its next task as soon as it finishes one, not at the next scheduling event', async () => {
    const origin = makeOrigin(sweepOf(8, '0.05'));
    origins.push(origin);
    const gridPath = join(origin.dir, 'grid.json');
    writeFileSync(gridPath, JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: 'storage', hosts: { type: 'local', slots: 2 } }] }));
    const options = { ...DEFAULT_SCHEDULER_OPTIONS, heuristic: 'workqueue', planIntervalS: 600 };
    const events: RunRecordEvent[] = [];
    const run = runReal({ ...freshRunInput(origin, gridPath, join(origin.dir, 'journal.jsonl')), scheduler: options, record: (e) => events.push(e), log: () => undefined }, (app, deps) => new Scheduler(app, options, deps));
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const computes = events.filter((e) => e.type === 'start' && e.kind === 'compute').length;
        reject(new Error(`the run did not end within ${LIMIT_S} s: ${computes} of 16 tasks started (waiting for the next scheduling event?)`));
      }, LIMIT_S * 1000);
    });
    try {
      const result = await Promise.race([run, limit]);
      expect(result.worksDone).toBe(16);
    } finally {
      clearTimeout(timer);
    }
    // Per host, each task starts within seconds of the previous one's end (the plan interval is 600 s).
    const endOf = new Map<number, number>();
    for (const e of events) if (e.type === 'end') endOf.set(e.id, e.t);
    const byHost = new Map<string, Array<{ startS: number; endS: number }>>();
    for (const e of events) {
      if (e.type !== 'start' || e.kind !== 'compute' || e.resource.type !== 'host') continue;
      const list = byHost.get(e.resource.host) ?? [];
      list.push({ startS: e.t, endS: endOf.get(e.id)! });
      byHost.set(e.resource.host, list);
    }
    expect(byHost.size).toBe(2);
    for (const [host, computes] of byHost) {
      for (let i = 1; i < computes.length; i++) expect(computes[i]!.startS - computes[i - 1]!.endS, `${host}, task ${i + 1}`).toBeLessThan(10);
    }
  }, (LIMIT_S + 20) * 1000);
});
