// An input deleted from a cluster's storage while the run goes on (a scratch file system's purge, an
// over-eager cleanup): the next task that needs it does not run, and that is the storage's failure, not
// the task's. The cluster is failed as a storage that misbehaves is (its running tasks run again), offered
// again, and the input is sent again. Before, every task that needed it failed ("cannot open task.sh"),
// each failure counting towards giving the task up, and the host was set aside for repeated failures.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
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
    expect(r.stdout, log).toMatch(/^down +here: its storage lost task\.sh \(removed since stored\?\): inputs are sent again$/m);
    expect(r.stdout, log).not.toMatch(/^failed /m);
    expect(r.stdout, log).toMatch(/^inputs sent: \d+ transfer\(s\), at most 2 per file and cluster$/m);
    // The attempts lost with the failed storage are noted, none as final.
    expect(readJournal(o.journalPath).filter((e) => e.type === 'failed' && e.final)).toEqual([]);
    expectEachTaskDoneOnce(o, seeds);
  }, 90_000);
});
