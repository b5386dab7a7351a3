// Watching the real grid file while a run goes on. Edits are debounced; the file's folder is watched (not
// the file itself) so that editors which save by writing a new file and renaming it over the old one are
// seen too, with the kernel's own notifications (fs.watch) filtered by name: the folder often holds the
// run's journal and outputs too, whose every write must cost no more than a name comparison. A good edit is turned into a RealGridChange against the grid the run is using; a bad one is
// reported (file:line:column) and ignored, and the run keeps the last good grid.
import { readFileSync, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { InputError } from '../util/diagnostics.js';
import { diffRealGrids, isEmptyChange, type RealGridChange } from './diff.js';
import { parseRealGrid, type RealGrid } from './real-grid-file.js';

export type RealGridWatchEvent =
  | { readonly kind: 'change'; readonly change: RealGridChange; readonly grid: RealGrid }
  /** The edit does not parse or validate; `message` names file:line:column. */
  | { readonly kind: 'invalid'; readonly message: string }
  /** The file is gone (or unreadable); the run goes on with the last good grid. */
  | { readonly kind: 'missing'; readonly message: string };

export interface RealGridWatcher {
  /** Resolves once the file is being watched and any edit since `initial` was read has been reported. */
  readonly ready: Promise<void>;
  /** The grid the run is using now (the last good one, with what cannot change kept). */
  current(): RealGrid;
  close(): Promise<void>;
}

export interface RealGridWatchOptions {
  /** Quiet time after the last file event before the file is read again; default 250 ms. */
  readonly debounceMs?: number;
}

export function watchRealGrid(path: string, initial: RealGrid, onEvent: (event: RealGridWatchEvent) => void, options: RealGridWatchOptions = {}): RealGridWatcher {
  const debounceMs = options.debounceMs ?? 250;
  const target = resolve(path);
  let current = initial;
  /** The text last read; none yet, so the first read is compared with `initial` however it came. */
  let lastText: string | undefined;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const reread = (): void => {
    if (closed) return;
    let text: string;
    try {
      text = readFileSync(target, 'utf8');
    } catch (err) {
      lastText = undefined;
      onEvent({ kind: 'missing', message: `${path}: cannot read the real grid file (${(err as NodeJS.ErrnoException).code ?? 'error'}); the run goes on with the last good grid` });
      return;
    }
    if (text === lastText) return;
    lastText = text;
    let next: RealGrid;
    try {
      next = parseRealGrid(text, path);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      onEvent({ kind: 'invalid', message: err.message });
      return;
    }
    const change = diffRealGrids(current, next);
    current = change.effective;
    if (!isEmptyChange(change)) onEvent({ kind: 'change', change, grid: current });
  };

  const name = basename(target);
  const watcher = watch(dirname(target), (_event, filename) => {
    if (filename !== null && filename !== name) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      reread();
    }, debounceMs);
  });
  // The folder removed under the run: the run goes on with the grid it has.
  watcher.on('error', () => undefined);
  // Now watching, the file is read again: an edit made since `initial` was read (the run's start, which
  // can take a while) is applied instead of missed.
  const ready = Promise.resolve().then(reread);
  return {
    ready,
    current: () => current,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
