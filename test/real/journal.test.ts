// The journal's group commit on a real file: entries appended in one turn of the event loop share one
// write and one fsync, each append resolves only once its entry is in the file, and closing writes what is
// still waiting. A batch appended while another is being synced goes in the next fsync, in order.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, readJournal } from '../../backends/real/journal.js';

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
});
