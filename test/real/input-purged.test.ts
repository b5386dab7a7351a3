// An input deleted from a cluster's storage while the run goes on (a scratch file system's purge, an
// over-eager cleanup): the next task that needs it does not run, and that is the storage's failure, not
// the task's. That input alone is forgotten and sent again, and that task runs again; the cluster's other
// tasks run on (sched_input_lost). Before, the whole cluster was failed, every task running there killed
// and run again; and before that, every task that needed it failed ("cannot open task.sh"), each failure
// counting towards giving the task up.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import type { RunRecordEvent } from '../../src/record/events.js';
import { expandSweep } from '../../src/sweep/expand.js';
import { loadSweepFile } from '../../src/sweep/sweep-file.js';
import { checkRunRecord } from '../support/invariants.js';
import { expectEachTaskDoneOnce, makeOrigin, runCli, type Origin } from '../support/run-support.js';

const origins: Origin[] = [];
afterAll(() => origins.forEach((o) => rmSync(o.dir, { recursive: true, force: true })));

describe('an input deleted from the storage during the run', () => {
  it('is sent again; no task counts a failure for it, and every task is verified once', async () => {
    const seeds = 6;
    const o = makeOrigin({ realGridJson: (dir) => JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: `${dir}/storage`, hosts: { type: 'local', slots: 2 } }] }) }, seeds, 0.5);
    origins.push(o);
    let purged = false;
    const args = ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue', '--no-watch'];
    const r = await runCli(args, (line) => {
      if (purged || !/^done /.test(line)) return;
      // The program every task runs (input 0, task.sh), gone from the run's files.
      const runs = join(o.dir, 'storage', 'gridsweep');
      for (const run of readdirSync(runs)) rmSync(join(runs, run, 'files', 'f0'));
      purged = true;
    }, 60);
    const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
    expect(purged, log).toBe(true);
    expect(r.killedAtLimit, log).toBe(false);
    expect(r.code, log).toBe(0);
    const lost = r.stdout.split('\n').filter((l) => l.startsWith('lost '));
    expect(lost.length, log).toBeGreaterThan(0);
    for (const l of lost) expect(l).toMatch(/^lost +task\.sh from the storage of here \(removed since stored\?\): sent again; task \d+ runs again$/);
    // Neither the cluster nor a host went down, and no task counts a failure.
    expect(r.stdout, log).not.toMatch(/^(down|failed) /m);
    expect(r.stdout, log).toMatch(/^inputs sent: \d+ transfer\(s\), at most 2 per file and cluster$/m);
    // Only the tasks that could not start ran again: the one running beside them went on (before, the
    // whole cluster was failed, and every task running there was killed and run again).
    const journal = readJournal(o.journalPath);
    expect(journal.filter((e) => e.type === 'started').length, log).toBe(2 * seeds + lost.length);
    expect(journal.filter((e) => e.type === 'failed' && e.final)).toEqual([]);
    expectEachTaskDoneOnce(o, seeds);
    // The record keeps the model's rules on failures: each task that could not start failed once, there.
    const record = readFileSync(o.recordPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecordEvent);
    expect(record.filter((e) => e.type === 'work-failed').map((e) => (e.type === 'work-failed' ? e.reason : ''))).toEqual(lost.map(() => 'input-lost'));
    const app = expandSweep(loadSweepFile(o.sweepPath), { originDir: o.dir }).application;
    expect(checkRunRecord(record, app).filter((v) => / fails on host /.test(v))).toEqual([]);
  }, 90_000);
});
