// The journal's group commit on a real file: entries appended in one turn of the event loop share one
// write and one fsync, each append resolves only once its entry is in the file, and closing writes what is
// still waiting. A batch appended while another is being synced goes in the next fsync, in order. A line
// appended with appendWritten (a task's 'started') resolves once written, before its fsync, which follows
// within the bound or with the next durable line; a process SIGKILLed right then still leaves it in the file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, readJournal, WRITTEN_SYNC_BOUND_MS } from '../../backends/real/journal.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function freshJournal(): Journal {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-journal-'));
  dirs.push(dir);
  return Journal.open(join(dir, 'journal.jsonl'));
}

const started = (work: number) => ({ type: 'started', work, host: 'h', cluster: 'c', attempt: 1 }) as const;

describe('the journal', () => {
  it('commits the entries of one turn with one fsync, each append resolving once its entry is in the file', async () => {
    const journal = freshJournal();
    const seenOnResolve: number[] = [];
    const appends = Array.from({ length: 100 }, (_, work) =>
      journal.append(started(work)).then(() => {
        seenOnResolve.push(readJournal(journal.path).length);
      }),
    );
    expect(readFileSync(journal.path, 'utf8')).toBe('');
    await Promise.all(appends);
    expect(journal.syncs).toBe(1);
    expect(Math.min(...seenOnResolve)).toBe(100);
    expect(readJournal(journal.path).map((e) => (e.type === 'started' ? e.work : -1))).toEqual(Array.from({ length: 100 }, (_, i) => i));
    await journal.close();
  });

  it('appends made while a batch is being synced go in the next one, in order', async () => {
    const journal = freshJournal();
    const first = journal.append(started(0));
    // The first batch is written on the next turn; these come while it is being synced.
    await new Promise((resolve) => setImmediate(resolve));
    const later = [journal.append(started(1)), journal.append(started(2))];
    await Promise.all([first, ...later]);
    expect(journal.syncs).toBe(2);
    expect(readJournal(journal.path).map((e) => (e.type === 'started' ? e.work : -1))).toEqual([0, 1, 2]);
    await journal.close();
  });

  it('writes what is still waiting when closed, then refuses more', async () => {
    const journal = freshJournal();
    const waiting = journal.append(started(7));
    await journal.close();
    await waiting;
    expect(readJournal(journal.path)).toHaveLength(1);
    await expect(journal.append(started(8))).rejects.toThrow(/is closed/);
  });

  it("appendWritten resolves once the line is in the file, before its fsync, which follows within the bound", async () => {
    const journal = freshJournal();
    await journal.appendWritten(started(3));
    // Written, not yet synced: nothing durable asked for an fsync.
    expect(journal.syncs).toBe(0);
    expect(readJournal(journal.path)).toMatchObject([{ type: 'started', work: 3 }]);
    await new Promise((resolve) => setTimeout(resolve, WRITTEN_SYNC_BOUND_MS + 300));
    expect(journal.syncs).toBe(1);
    await journal.close();
    expect(journal.syncs).toBe(1);
  });

  it('a durable line appended after written ones shares their fsync, in order', async () => {
    const journal = freshJournal();
    await journal.appendWritten(started(0));
    await journal.appendWritten(started(1));
    expect(journal.syncs).toBe(0);
    await journal.append({ type: 'failed', work: 0, host: 'h', reason: 'exit 1', final: false });
    // One fsync made all three lines durable (the bound's timer, 200 ms, has not fired: it was cleared).
    expect(journal.syncs).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, WRITTEN_SYNC_BOUND_MS + 100));
    expect(journal.syncs).toBe(1);
    expect(readJournal(journal.path).map((e) => `${e.type} ${'work' in e ? e.work : ''}`)).toEqual(['started 0', 'started 1', 'failed 0']);
    await journal.close();
  });

  it('a process SIGKILLed as soon as appendWritten resolved leaves the line in the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridsweep-journal-'));
    dirs.push(dir);
    const path = join(dir, 'journal.jsonl');
    const script = join(dir, 'kill-after-start.mts');
    // The child appends a 'started' line and kills itself (SIGKILL: no exit handler, nothing flushed)
    // the moment the append resolves, telling first how many fsyncs it had made (0: not yet synced).
    writeFileSync(
      script,
      [
        `import { Journal } from ${JSON.stringify(join(PACKAGE_ROOT, 'backends', 'real', 'journal.ts'))};`,
        `const journal = Journal.open(${JSON.stringify(path)});`,
        `await journal.appendWritten({ type: 'started', work: 9, host: 'h', cluster: 'c', attempt: 2 });`,
        `process.stdout.write(\`syncs \${journal.syncs}\\n\`);`,
        `process.kill(process.pid, 'SIGKILL');`,
      ].join('\n'),
    );
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    expect(child.stdout).toBe('syncs 0\n');
    expect(readJournal(path)).toMatchObject([{ type: 'started', work: 9, attempt: 2 }]);
  });
});
