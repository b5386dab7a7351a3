// `gridsweep experiment SPEC --grid` on SSH hosts in network namespaces (test/support/netns.ts): two
// clusters, c0 (a0, a1) and c1 (b0). b0 has no `node`: in its mount namespace /usr/bin/node is covered by
// a file that cannot be executed, so `command -v node` finds none there. The experiment refuses b0 with a
// message naming it and what it lacks, computes every cell on a0 and a1, and writes the results of the
// worker-thread run of the same spec. A second run loses a host mid-experiment (every process of a1
// killed: the machine is gone for good) and then its controller (SIGKILL); the same command resumes from
// the journal: no task verified before is started again, each is verified once, the results are the local
// run's.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetnsGrid, type NetnsGrid } from '../support/netns.js';
import type { JournalEntry } from '../../backends/real/journal.js';
import { checkResumedJournal, disturbThenKill, expectSameResults, journalAtKill, gridsweep, makeScratch, startGridsweep } from '../experiment/support/grid-experiment.js';

describe('experiment --grid on namespaced SSH hosts', () => {
  let grid: NetnsGrid;
  const scratch = makeScratch(['H0', 'H4', 'xsufferage'], 4);
  beforeAll(async () => {
    grid = await startNetnsGrid([
      { name: 'c0', hosts: ['a0', 'a1'] },
      { name: 'c1', hosts: ['b0'] },
    ]);
    const b0 = grid.clusters.flatMap((c) => c.hosts).find((h) => h.name === 'b0')!;
    const notNode = join(scratch.dir, 'not-node');
    writeFileSync(notNode, 'not a program\n', { mode: 0o644 });
    const sshdPid = readFileSync(join(b0.root, 'sshd.pid'), 'utf8').trim();
    execFileSync('/usr/bin/nsenter', ['-t', sshdPid, '-m', '/usr/bin/mount', '--bind', notNode, process.execPath]);
  }, 60_000);
  afterAll(async () => {
    await grid?.stop();
    rmSync(scratch.dir, { recursive: true, force: true });
  }, 60_000);

  it('refuses the host without node, and gives the local results on the others', async () => {
    const local = join(scratch.dir, 'local');
    const remote = join(scratch.dir, 'remote');
    const gridPath = join(scratch.dir, 'ssh-grid.json');
    writeFileSync(gridPath, grid.realGridJson(scratch.dir, {}, 2));
    const l = await gridsweep(['experiment', scratch.specPath, '--out', local, '--jobs', '2']);
    expect(l.code, l.stderr).toBe(0);
    const g = await gridsweep(['experiment', scratch.specPath, '--out', remote, '--grid', gridPath]);
    expect(g.code, g.stderr).toBe(0);
    expect(g.stderr).toContain('REFUSED host b0: it has no node on its PATH; gridsweep experiment cells need Node.js >= 20; its cells go to the other hosts');
    expect(g.stderr).not.toMatch(/REFUSED host a[01]/);
    // once per machine, not per slot (b0.1, b0.2)
    expect(g.stderr.match(/REFUSED host/g)).toHaveLength(1);
    expect(g.stderr).toContain('real grid: 24 run(s) computed in 12 task(s), 0 failed');
    expect(g.stdout).toContain('24 runs: 24 simulated, 0 from the cache, 0 failed');
    expectSameResults(local, remote);
  }, 300_000);

  it('a host killed, then the controller killed and resumed: each task verified once, the local results', async () => {
    const local = join(scratch.dir, 'local-2');
    const remote = join(scratch.dir, 'remote-2');
    const gridPath = join(scratch.dir, 'ssh-grid-2.json');
    writeFileSync(gridPath, grid.realGridJson(scratch.dir, {}, 2));
    const l = await gridsweep(['experiment', scratch.specPath, '--out', local, '--jobs', '2']);
    expect(l.code, l.stderr).toBe(0);

    const args = ['experiment', scratch.specPath, '--out', remote, '--grid', gridPath];
    const first = startGridsweep(args);
    const killedAt = await disturbThenKill(first, remote, {
      disturbAfter: 2,
      disturb: () => {
        grid.killHost('a1');
        return true;
      },
      killAfter: 5,
      // Killed only once the controller has seen a1 go, which the checks below read in the journal.
      killWhen: () => /^(down +a1|failed +cell .* on a1)/m.test(first.stderr()),
    });
    const r1 = await first.result;
    expect(killedAt, r1.stderr).toBeGreaterThanOrEqual(5);
    expect(r1.signal).toBe('SIGKILL');
    const before = journalAtKill(remote);
    expect(new Set(before.flatMap((e) => (e.type === 'verified' ? [e.work] : []))).size).toBeGreaterThanOrEqual(5);

    const second = await gridsweep(args);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('resuming the grid run');
    expectSameResults(local, remote);

    // The whole journal: 24 cells in 12 tasks (2 per slot of the 3 hosts' 6 slots, b0's included though it
    // is refused later), each verified once, none verified before the kill started again.
    const journal = checkResumedJournal(remote, before, 12);
    // The dead host's tasks failed there (not for good) and ran again elsewhere.
    expect(journal.some((e) => e.type === 'failed' && e.host.startsWith('a1') && !e.final), JSON.stringify(journal.filter((e) => e.type === 'failed'))).toBe(true);
    // Nothing was verified on the dead host after it died: every verified task after the kill ran on a0.
    const afterResume = journal.slice(before.length).filter((e): e is Extract<JournalEntry, { type: 'verified' }> => e.type === 'verified');
    for (const e of afterResume) expect(e.host.startsWith('a1')).toBe(false);
  }, 300_000);
});
