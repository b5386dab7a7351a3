// The edit loop: watch the input files, re-run when they change (debounced), and show either the new
// runs or the parse error on the dashboard page; the next good edit brings the charts back.
import { watch } from 'chokidar';
import { InputError } from '../util/diagnostics.js';
import type { Dashboard } from './server.js';
import type { DashboardSource } from './source.js';

export interface InputWatcher {
  /** Resolves once the files are being watched (edits before this may be missed). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/** Calls `onChange` with the changed paths once edits have been quiet for `debounceMs` (default 150). */
export function watchInputs(paths: readonly string[], onChange: (changed: string[]) => void, options: { debounceMs?: number } = {}): InputWatcher {
  const debounceMs = options.debounceMs ?? 150;
  const watcher = watch([...paths], { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 40, pollInterval: 10 } });
  let timer: NodeJS.Timeout | null = null;
  const changed = new Set<string>();
  watcher.on('all', (event, path) => {
    if (event !== 'add' && event !== 'change' && event !== 'unlink') return;
    changed.add(path);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      const list = [...changed];
      changed.clear();
      onChange(list);
    }, debounceMs);
  });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async close() {
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}

export type WatchOutcome = { readonly ok: true; readonly sources: readonly DashboardSource[] } | { readonly ok: false; readonly message: string };

export interface WatchLoopOptions {
  readonly paths: readonly string[];
  /** Parses the inputs and runs the simulation(s) again; throw InputError when the inputs are bad. */
  readonly rerun: () => Promise<readonly DashboardSource[]>;
  readonly dashboard: Pick<Dashboard, 'showError' | 'replaceSources'>;
  readonly debounceMs?: number;
  /** Told after each re-run (for a terminal message, or tests). */
  readonly onOutcome?: (outcome: WatchOutcome) => void;
}

/**
 * Re-runs on every change of the inputs. Good runs replace the dashboard's runs; an InputError is shown
 * on the page instead of the charts (other errors too, marked as internal). Runs never overlap: edits
 * during a run cause one more run after it.
 */
export function runWatchLoop(options: WatchLoopOptions): InputWatcher {
  let running = false;
  let again = false;
  const once = async (): Promise<void> => {
    running = true;
    try {
      do {
        again = false;
        let outcome: WatchOutcome;
        try {
          const sources = await options.rerun();
          options.dashboard.replaceSources(sources);
          outcome = { ok: true, sources };
        } catch (err) {
          const message = err instanceof InputError ? err.message : `internal error while re-running: ${err instanceof Error ? err.message : String(err)}`;
          options.dashboard.showError(message);
          outcome = { ok: false, message };
        }
        options.onOutcome?.(outcome);
      } while (again);
    } finally {
      running = false;
    }
  };
  return watchInputs(
    options.paths,
    () => {
      if (running) again = true;
      else void once();
    },
    options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {},
  );
}
