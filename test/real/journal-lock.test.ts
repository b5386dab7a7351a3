// One controller per journal (backends/real/journal-lock.ts). Before, a second `gridsweep run` of the same
// sweep, started while the first ran, ran every task again beside it, wrote the same outputs, and
// interleaved its lines with the first's in one journal.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JournalBusyError, lockJournal } from '../../backends/real/journal-lock.js';
import { readJournal } from '../../backends/real/journal.js';
import { expectEachTaskDoneOnce, makeOrigin, runCli, type Origin } from '../support/run-support.js';

const origins: Origin[] = [];
const dir = mkdtempSync(join(tmpdir(), 'gridsweep-journal-lock-'));
afterAll(() => {
  origins.forEach((o) => rmSync(o.dir, { recursive: true, force: true }));
  rmSync(dir, { recursive: true, force: true });
});

const localGrid = { realGridJson: (d: string) => JSON.stringify({ realgrid: 1, clusters: [{ name: 'here', storage: `${d}/storage`, hosts: { type: 'local', slots: 2 } }] }) };

describe('gridsweep run on a journal another run is using', () => {
  it('is refused, saying which run holds it; the first run ends as if alone', async () => {
    // Tasks of 3 s: the first run lasts about 12 s, longer than the second's start-up on a loaded machine (with
    // 1 s tasks it once ended before the second took the lock, which then found every task done).
    const o = makeOrigin(localGrid, 4, 3);
    origins.push(o);
    const args = ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue', '--no-watch'];
    let second: Promise<Awaited<ReturnType<typeof runCli>>> | undefined;
    const first = await runCli(args, (line) => {
      if (second === undefined && line.startsWith('start ')) second = runCli([...args, '--resume'], () => undefined, 60);
    }, 60);
    const refused = await second!;
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/^gridsweep run: the journal \S+journal\.jsonl is in use by another gridsweep run \(pid \d+, since \S+\); wait for it to end, or give this run another --journal$/m);
    expect(readJournal(o.journalPath).filter((e) => e.type === 'run')).toHaveLength(1);
    expectEachTaskDoneOnce(o, 4);
    expect(existsSync(`${o.journalPath}.lock`)).toBe(false);
  }, 90_000);

  it('a controller killed outright leaves its lock, and the same command takes it over and finishes', async () => {
    const o = makeOrigin(localGrid, 4, 1);
    origins.push(o);
    const args = ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--heuristic', 'workqueue', '--no-watch'];
    const killed = await runCli(args, (line, child) => {
      if (line.startsWith('done ')) child.kill('SIGKILL');
    }, 60);
    expect(killed.code).toBe(null);
    expect(existsSync(`${o.journalPath}.lock`)).toBe(true);
    const resumed = await runCli([...args, '--resume'], () => undefined, 60);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const verified = readJournal(o.journalPath).flatMap((e) => (e.type === 'verified' ? [e.work] : []));
    expect(verified.sort((a, b) => a - b)).toEqual([...Array(8).keys()]);
    expect(existsSync(`${o.journalPath}.lock`)).toBe(false);
  }, 90_000);
});

describe('lockJournal', () => {
  it('refuses a lock held on another machine, saying what to remove if that run is over', () => {
    const journal = join(dir, 'other-host.jsonl');
    writeFileSync(`${journal}.lock`, JSON.stringify({ pid: 1, host: `not-${hostname()}`, processStart: null, since: '2026-01-01T00:00:00.000Z' }));
    expect(() => lockJournal(journal)).toThrow(JournalBusyError);
    expect(() => lockJournal(journal)).toThrow(`in use by a gridsweep run on not-${hostname()} (pid 1, since 2026-01-01T00:00:00.000Z); wait for it to end, or give this run another --journal. If that run is over, remove ${journal}.lock`);
  });

  it('takes over a lock whose process is gone, a pid reused by another process, or a file that is no lock', () => {
    const gone = { pid: 2 ** 22 + 7, host: hostname(), processStart: null, since: 'x' };
    const reused = { pid: process.pid, host: hostname(), processStart: -1, since: 'x' };
    for (const [name, content] of [['gone', JSON.stringify(gone)], ['reused', JSON.stringify(reused)], ['garbage', '{"pid": ']] as const) {
      const journal = join(dir, `${name}.jsonl`);
      writeFileSync(`${journal}.lock`, content);
      const lock = lockJournal(journal);
      expect(JSON.parse(readFileSync(`${journal}.lock`, 'utf8')).pid, name).toBe(process.pid);
      lock.release();
      expect(existsSync(`${journal}.lock`), name).toBe(false);
    }
  });

  it('takes the folders it made away with it, unless the run wrote there', () => {
    const empty = join(dir, 'made', 'deeper', 'journal.jsonl');
    lockJournal(empty).release();
    expect(existsSync(join(dir, 'made'))).toBe(false);
    const used = join(dir, 'used', 'journal.jsonl');
    const lock = lockJournal(used);
    writeFileSync(used, '{}\n');
    lock.release();
    expect(readFileSync(used, 'utf8')).toBe('{}\n');
  });

  it('refuses a second lock in the same live process, and gives it once released', () => {
    const journal = join(dir, 'twice.jsonl');
    const lock = lockJournal(journal);
    expect(() => lockJournal(journal)).toThrow(/in use by another gridsweep run \(pid \d+/);
    lock.release();
    lockJournal(journal).release();
  });
});
