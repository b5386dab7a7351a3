// `gridsweep run` when the origin's disk fills up, through the real CLI on local slots: the origin is a
// 300 KiB tmpfs this test mounts (tests run as root; skipped, saying why, where mounting is refused), and
// 20 tasks write 30 KiB each (600 KiB: the disk fills about half-way). The run must end by itself, with
// exit status 4 and a message naming the file, the errno and what to do, having marked no host or cluster
// down and run no task twice; once the disk is bigger, the same command finishes the rest without running
// a verified task again. Once with the journal on the full disk (the default place), once elsewhere; the
// run record on a full disk; a read-only origin (EROFS: the run stops before any task) and a read-only
// place for the record.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import { runGridsweep } from './support/gridsweep-from-source.js';
import { BOUND_MS, checkFinished, checkStopped, computed, makeFullOrigin, recordOf, runWithinBound, TASKS, verifiedIn } from './support/full-origin.js';
import { Tmpfs } from './support/tmpfs.js';

const tmpfs = new Tmpfs();
afterAll(() => tmpfs.removeAll());
const makeOrigin = (name: string, size: string) => makeFullOrigin(tmpfs, name, size);

describe('gridsweep run: the origin runs out of space', () => {
  it('journal on the full disk: ends with exit 4 and what to do; after remounting bigger, the same command finishes the rest', async (ctx) => {
    const o = makeOrigin('same-disk', '300k');
    if (!o) return ctx.skip(tmpfs.whyNot);
    const recordPath = join(o.elsewhere, 'record.jsonl');
    const command = ['run', o.sweep, '--grid', o.grid, '--record', recordPath, '--no-watch'];
    const [first, ms] = await runWithinBound(command);
    const journal = join(o.dir, '.gridsweep', 'sweep', 'journal.jsonl');
    const verified = checkStopped(first, ms, o.dir, recordOf(recordPath), journal);

    tmpfs.resize(o.dir, '4m');
    const second = await runGridsweep(command);
    checkFinished(second, o.dir, recordOf(recordPath), verified);
    expect(verifiedIn(journal).size).toBe(TASKS);
  }, 120_000);

  it('journal elsewhere: ends with exit 4 and says to add --resume; after deleting a filler file, --resume finishes the rest', async (ctx) => {
    // 900 KiB, 600 of them taken by a filler: 300 KiB free, as above; deleting the filler makes room for
    // all 20 outputs (600 KiB).
    const o = makeOrigin('journal-elsewhere', '900k');
    if (!o) return ctx.skip(tmpfs.whyNot);
    writeFileSync(join(o.dir, 'filler'), Buffer.alloc(600 * 1024, 1));
    const recordPath = join(o.elsewhere, 'record.jsonl');
    const journal = join(o.elsewhere, 'journal.jsonl');
    const command = ['run', o.sweep, '--grid', o.grid, '--record', recordPath, '--journal', journal, '--no-watch'];
    const [first, ms] = await runWithinBound(command);
    const verified = checkStopped(first, ms, o.dir, recordOf(recordPath), journal);
    // The journal is off the full disk: it is an output that could not be written.
    expect(first.stderr).toMatch(/stopped: an output could not be written/);
    expect(first.stderr).toContain('run the same command again with --resume');

    rmSync(join(o.dir, 'filler'));
    const second = await runGridsweep([...command, '--resume']);
    checkFinished(second, o.dir, recordOf(recordPath), verified);
  }, 120_000);
});

describe('gridsweep run: the run record runs out of space', () => {
  it('the record on a full disk stops the run as the origin does (exit 4, naming the record); after resizing, the same command finishes', async (ctx) => {
    const o = makeOrigin('roomy', '4m');
    const small = tmpfs.mount('record-disk', '8k');
    if (!o || !small) return ctx.skip(tmpfs.whyNot);
    const recordPath = join(small, 'record.jsonl');
    const command = ['run', o.sweep, '--grid', o.grid, '--record', recordPath, '--no-watch'];
    const [first, ms] = await runWithinBound(command);
    expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(4);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(first.stderr).toContain(`gridsweep run: stopped: the run record could not be written: ${recordPath}: ENOSPC (no space left on the device)`);
    expect(first.stderr).toContain(`to finish: free space on ${small} and run the same command again`);
    expect(first.stdout).not.toMatch(/^down /m);
    const journal = join(o.dir, '.gridsweep', 'sweep', 'journal.jsonl');
    const entries = readJournal(journal);
    expect(entries.filter((e) => e.type === 'failed')).toEqual([]);
    const starts = entries.flatMap((e) => (e.type === 'started' ? [e.work] : []));
    expect(new Set(starts).size).toBe(starts.length);
    // 8 KiB of record is not enough for 20 tasks (each takes a start and an end line of compute and of
    // output transfer, about 4 x 100 bytes): the run stopped before the end.
    const verified = verifiedIn(journal);
    expect(verified.size).toBeLessThan(TASKS);

    tmpfs.resize(small, '1m');
    const second = await runGridsweep(command);
    checkFinished(second, o.dir, recordOf(recordPath), verified);
  }, 120_000);
});

describe('gridsweep run: a read-only origin', () => {
  it('stops before any task with exit 4 and EROFS, naming the journal and the mount to make writable; once writable, the same command does it all', async (ctx) => {
    const o = makeOrigin('read-only', '2m');
    if (!o) return ctx.skip(tmpfs.whyNot);
    tmpfs.remount(o.dir, 'ro');
    const recordPath = join(o.elsewhere, 'record.jsonl');
    const command = ['run', o.sweep, '--grid', o.grid, '--record', recordPath, '--no-watch'];
    const [first] = await runWithinBound(command);
    expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(4);
    // The journal's directory is the first thing a run writes at the origin.
    expect(first.stderr).toContain(`gridsweep run: stopped: the journal could not be written: ${join(o.dir, '.gridsweep', 'sweep')}: EROFS (the file system is read-only)`);
    expect(first.stderr).toContain(`to finish: make ${o.dir} writable again and run the same command again`);

    // Nothing was written: no journal, so the second run is a first run, and does every task once.
    expect(existsSync(join(o.dir, '.gridsweep'))).toBe(false);
    tmpfs.remount(o.dir, 'rw');
    const second = await runGridsweep(command);
    expect(second.code, `${second.stdout}\n${second.stderr}`).toBe(0);
    expect(second.stdout).toMatch(/tasks: 20 done and verified, 0 skipped/);
    expect(computed(recordOf(recordPath)).sort((a, b) => a - b)).toEqual(Array.from({ length: TASKS }, (_, i) => i));
  }, 120_000);

  it('a run record that cannot be created (read-only) stops the run at once with exit 4', async (ctx) => {
    const o = makeOrigin('roomy-2', '2m');
    const ro = tmpfs.mount('read-only-record', '64k');
    if (!o || !ro) return ctx.skip(tmpfs.whyNot);
    tmpfs.remount(ro, 'ro');
    const recordPath = join(ro, 'record.jsonl');
    const [first] = await runWithinBound(['run', o.sweep, '--grid', o.grid, '--record', recordPath, '--no-watch']);
    expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(4);
    expect(first.stderr).toContain(`gridsweep run: stopped: the run record could not be written: ${recordPath}: EROFS (the file system is read-only)`);
  }, 60_000);
});
