// An edit of the real grid file made while the run was starting (after the file was read, before it was
// watched) is reported once the watcher is ready, instead of being missed. The agent made tasks start
// before the watcher was ready, and a host removed that early stayed in the run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRealGrid } from '../../src/realgrid/real-grid-file.js';
import { watchRealGrid, type RealGridWatchEvent } from '../../src/realgrid/watch.js';

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-watch-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const gridText = (hosts: readonly string[]) =>
  JSON.stringify({ realgrid: 1, clusters: [{ name: 'c1', storage: '/s', hosts: hosts.map((name) => ({ name, address: '127.0.0.1', identityFile: 'k', arch: 0 })) }] });

describe('watching the real grid file from the start of a run', () => {
  it('reports an edit made before the watcher was ready', async () => {
    const path = join(dir, 'grid.json');
    writeFileSync(path, gridText(['h1', 'h2']));
    const initial = parseRealGrid(gridText(['h1', 'h2']), path);
    writeFileSync(path, gridText(['h1']));
    const events: RealGridWatchEvent[] = [];
    const watcher = watchRealGrid(path, initial, (e) => events.push(e), { debounceMs: 50 });
    await watcher.ready;
    await watcher.close();
    expect(events).toHaveLength(1);
    expect(events[0]!.kind).toBe('change');
    if (events[0]!.kind === 'change') expect(events[0]!.change.removed.map((r) => r.endpoint.name)).toEqual(['h2']);
  });

  it('reports nothing when the file is as it was read', async () => {
    const path = join(dir, 'same.json');
    writeFileSync(path, gridText(['h1', 'h2']));
    const events: RealGridWatchEvent[] = [];
    const watcher = watchRealGrid(path, parseRealGrid(gridText(['h1', 'h2']), path), (e) => events.push(e), { debounceMs: 50 });
    await watcher.ready;
    await watcher.close();
    expect(events).toEqual([]);
  });
});
