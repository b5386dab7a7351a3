// The controller killed (SIGKILL) while tasks run, then resumed: the agent lets the running tasks finish
// without it, and the resumed run collects them (their outputs fetched and verified) instead of running
// them again. On local slots, whose agent is a child process that outlives the controller as an SSH
// host's agent outlives its connection.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import { expectedOutput, makeOrigin, runCli, type Origin } from '../support/run-support.js';

const origins: Origin[] = [];
afterAll(() => origins.forEach((o) => rmSync(o.dir, { recursive: true, force: true })));

describe('a resumed run collects what finished while no controller ran', () => {
  it('tasks running when the controller was killed are collected, not run again', async () => {
    const o = makeOrigin({ realGridJson: (dir) => JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: `${dir}/storage`, hosts: { type: 'local', slots: 2 } }] }) }, 2, 3);
    origins.push(o);
    const args = ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue', '--no-watch'];
    let killed = false;
    const first = await runCli(args, (line, child) => {
      if (!killed && line.startsWith('start')) {
        killed = true;
        // the first two tasks (3 s each) have started by then
        setTimeout(() => child.kill('SIGKILL'), 1500);
      }
    });
    expect(first.code).toBe(null);
    const startedBefore = readJournal(o.journalPath).filter((e) => e.type === 'started').map((e) => e.type === 'started' && e.work);
    expect(startedBefore.length).toBe(2);
    // let the orphaned tasks finish
    await new Promise((r) => setTimeout(r, 4000));
    const second = await runCli([...args, '--resume'], () => undefined);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    for (const work of startedBefore) expect(second.stdout).toContain(`collected task ${work} on here.`);
    const journal = readJournal(o.journalPath);
    // every task started exactly once over both runs, and verified exactly once
    const starts = journal.filter((e) => e.type === 'started').map((e) => e.type === 'started' && e.work);
    expect([...starts].sort()).toEqual([0, 1, 2, 3]);
    const verified = journal.filter((e) => e.type === 'verified').map((e) => e.type === 'verified' && e.work);
    expect([...verified].sort()).toEqual([0, 1, 2, 3]);
    expect(second.stdout).toMatch(/tasks: 4 done and verified, 0 skipped/);
    for (const size of ['small', 'large']) {
      for (const seed of [1, 2]) expect(readFileSync(join(o.dir, 'results', `${size}-${seed}.txt`), 'utf8')).toBe(expectedOutput(o, seed, size));
    }
  }, 60_000);
});
