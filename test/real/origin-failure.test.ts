// The origin's failures, file by file: the journal on a disk that fills up rejects with an OriginWriteError
// (ENOSPC, its path), leaves a torn last line that reading ignores and that opening to append cuts off; the
// task logs tell onOriginFailure; the classification takes ENOSPC, EDQUOT, EROFS, EIO, ENOTDIR and EISDIR
// and nothing else, and the advice names the file system to free (or what is in the way).
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal, readJournal } from '../../backends/real/journal.js';
import { asOriginFailure, fileSystemOf, originFailureAdvice, OriginWriteError, refusedRoom } from '../../backends/real/origin-failure.js';
import { TaskLogs } from '../../backends/real/task-logs.js';
import type { TaskExit } from '../../backends/transport/endpoint.js';
import { Tmpfs } from './support/tmpfs.js';

const tmpfs = new Tmpfs();
const plain = mkdtempSync(join(tmpdir(), 'gridsweep-origin-failure-'));
afterAll(() => {
  tmpfs.removeAll();
  rmSync(plain, { recursive: true, force: true });
});

const started = (work: number) => ({ type: 'started', work, host: 'h', cluster: 'c', attempt: 1 }) as const;

describe('the journal on a disk that fills up', () => {
  it('rejects with an OriginWriteError once full, leaves a torn line that reading ignores, and is cut back to whole lines on open', async (ctx) => {
    const dir = tmpfs.mount('journal-disk', '8k');
    if (!dir) return ctx.skip(tmpfs.whyNot);
    const path = join(dir, 'journal.jsonl');
    // Every line has the same length L: work 5, and `at` is always 24 characters.
    const lineBytes = `${JSON.stringify({ ...started(5), at: new Date(0).toISOString() })}\n`.length;
    // The tmpfs holds 2 pages, 8192 bytes: floor(8192 / L) whole lines, then part of the next one (8192 is
    // not a multiple of L), then ENOSPC.
    expect(8192 % lineBytes).not.toBe(0);
    const whole = Math.floor(8192 / lineBytes);
    const journal = Journal.open(path);
    let written = 0;
    let failure: unknown;
    for (;;) {
      try {
        await journal.append(started(5));
        written++;
      } catch (err) {
        failure = err;
        break;
      }
    }
    await journal.close();
    expect(written).toBe(whole);
    expect(failure).toBeInstanceOf(OriginWriteError);
    expect((failure as OriginWriteError).code).toBe('ENOSPC');
    expect((failure as OriginWriteError).path).toBe(path);
    expect((failure as OriginWriteError).message).toBe(`the journal could not be written: ${path}: ENOSPC (no space left on the device)`);
    const text = readFileSync(path, 'utf8');
    expect(text.length).toBe(8192);
    expect(text.endsWith('\n')).toBe(false);
    expect(readJournal(path)).toHaveLength(whole);

    // Room again: the next run opens it (cutting the torn tail), appends, and every line reads back.
    tmpfs.resize(dir, '64k');
    const next = Journal.open(path);
    await next.append(started(6));
    await next.close();
    const entries = readJournal(path);
    expect(entries).toHaveLength(whole + 1);
    expect(entries.at(-1)).toMatchObject({ type: 'started', work: 6 });
  });

  it('opening cuts a torn last line (a crash mid-write) so that the next line starts a line of its own', async () => {
    const path = join(plain, 'torn.jsonl');
    const line = (work: number): string => `${JSON.stringify({ ...started(work), at: new Date(0).toISOString() })}\n`;
    writeFileSync(path, `${line(1)}${line(2)}{"type":"verif`);
    expect(readJournal(path)).toHaveLength(2);
    const journal = Journal.open(path);
    await journal.append(started(3));
    await journal.close();
    // The torn bytes are gone: the two whole lines, then the new one, each ending in a newline.
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith(`${line(1)}${line(2)}{"type":"started","work":3,`)).toBe(true);
    expect(text.split('\n')).toHaveLength(4);
    expect(readJournal(path).map((e) => (e.type === 'started' ? e.work : -1))).toEqual([1, 2, 3]);
    // A journal that is only a torn line is emptied, and one that ends whole is left alone.
    writeFileSync(path, '{"type":"ru');
    Journal.open(path).close();
    expect(readFileSync(path, 'utf8')).toBe('');
    writeFileSync(path, line(1));
    await Journal.open(path).close();
    expect(readFileSync(path, 'utf8')).toBe(line(1));
  });
});

describe('task logs on a full disk', () => {
  it('tell onOriginFailure, with the log that could not be written', async (ctx) => {
    const dir = tmpfs.mount('logs-disk', '4k');
    if (!dir) return ctx.skip(tmpfs.whyNot);
    const logs = TaskLogs.open(join(dir, 'logs'));
    const told: OriginWriteError[] = [];
    logs.onOriginFailure = (err) => told.push(err);
    // 8 KiB of stdout does not fit in one 4 KiB page.
    const exit: TaskExit = { exitCode: 0, signal: null, stderrTail: '', kept: { stdout: Buffer.alloc(8192, 120), stderr: Buffer.alloc(0), stdoutBytes: 8192, stderrBytes: 0 } };
    logs.write(7, exit);
    await logs.close();
    expect(told.map((e) => [e.what, e.path, e.code])).toEqual([['a task log', join(dir, 'logs', '7.out'), 'ENOSPC']]);
    expect(logs.problem).toContain('ENOSPC');
  });
});

describe('a short download (SFTP does not report a full disk)', () => {
  it('is the origin refusing room when the bytes it lacks cannot be written, and not when they can', (ctx) => {
    const dir = tmpfs.mount('short-disk', '8k');
    if (!dir) return ctx.skip(tmpfs.whyNot);
    // 4 KiB arrived of a 12 KiB output on a 8 KiB disk: the 8 KiB missing do not fit in the 4 KiB left.
    const part = join(dir, 'out.dat.gridsweep-part');
    writeFileSync(part, Buffer.alloc(4096, 1));
    const refused = refusedRoom('an output', join(dir, 'out.dat'), part, 8192);
    expect(refused).toBeInstanceOf(OriginWriteError);
    expect([refused?.what, refused?.path, refused?.code]).toEqual(['an output', join(dir, 'out.dat'), 'ENOSPC']);
    // On a disk with room: the 8 KiB are written (the part is now 12 KiB), nothing is refused.
    const roomy = join(plain, 'out.dat.gridsweep-part');
    writeFileSync(roomy, Buffer.alloc(4096, 1));
    expect(refusedRoom('an output', join(plain, 'out.dat'), roomy, 8192)).toBeUndefined();
    expect(statSync(roomy).size).toBe(12288);
  });
});

describe('what counts as the origin failing', () => {
  const errno = (code: string): Error => Object.assign(new Error(`${code}: something`), { code });

  it('ENOSPC, EDQUOT, EROFS, EIO, ENOTDIR and EISDIR, each with its reason; nothing else', () => {
    expect(asOriginFailure(errno('ENOSPC'), 'an output', '/o/r/1.dat')?.message).toBe('an output could not be written: /o/r/1.dat: ENOSPC (no space left on the device)');
    expect(asOriginFailure(errno('EDQUOT'), 'an output', '/o/r/1.dat')?.message).toBe('an output could not be written: /o/r/1.dat: EDQUOT (the disk quota is exceeded)');
    expect(asOriginFailure(errno('EROFS'), 'the journal', '/o/j')?.message).toBe('the journal could not be written: /o/j: EROFS (the file system is read-only)');
    expect(asOriginFailure(errno('EIO'), 'the run record', '/o/r')?.message).toBe('the run record could not be written: /o/r: EIO (an input/output error)');
    expect(asOriginFailure(errno('ENOTDIR'), 'an output', '/o/r/1.dat')?.message).toBe('an output could not be written: /o/r/1.dat: ENOTDIR (a part of its path is a file, not a folder)');
    expect(asOriginFailure(errno('EISDIR'), 'an output', '/o/r/1.dat')?.message).toBe('an output could not be written: /o/r/1.dat: EISDIR (it is a folder)');
    expect(originFailureAdvice(new OriginWriteError('an output', '/o/r/1.dat', 'ENOTDIR', ''))).toBe('move what is in the way of /o/r/1.dat elsewhere and run the same command again; the outputs verified so far are kept and their tasks are not run again');
    for (const code of ['EACCES', 'ENOENT', 'EPIPE', 'ECONNRESET']) expect(asOriginFailure(errno(code), 'an output', '/o/x')).toBeUndefined();
    expect(asOriginFailure(new Error('no code'), 'an output', '/o/x')).toBeUndefined();
  });

  it('the advice names the mount point holding the file, and what to run', (ctx) => {
    const dir = tmpfs.mount('advice-disk', '4k');
    if (!dir) return ctx.skip(tmpfs.whyNot);
    // A file not yet there, two directories down: its file system is the tmpfs, mounted at `dir`.
    const err = new OriginWriteError('an output', join(dir, 'results', 'deep', '3.dat'), 'ENOSPC', '');
    expect(fileSystemOf(err.path)).toBe(dir);
    expect(originFailureAdvice(err)).toBe(`free space on ${dir} and run the same command again; the outputs verified so far are kept and their tasks are not run again`);
    expect(originFailureAdvice(new OriginWriteError('the journal', join(dir, 'j'), 'EROFS', ''), 'run the same command again with --resume')).toBe(
      `make ${dir} writable again and run the same command again with --resume; the outputs verified so far are kept and their tasks are not run again`,
    );
  });
});
