// The one-line progress display of the long commands (experiment, demo, simulate): rewritten in place
// with a carriage return on a terminal's stderr, absent otherwise, so that pipes, files and tests get
// exactly the same bytes with or without it. `run` draws a bar instead (cli-progress), for its events.

export interface ProgressLine {
  /** Whether updates are drawn at all: when false, callers need not format the text (number formatting loads ICU data). */
  readonly active: boolean;
  /** Replaces the line with `text` (nothing when off). */
  update(text: string): void;
  /** Ends the line (a newline) if anything was shown; later updates start a new line. */
  done(): void;
}

/** A progress line on `stream`, shown only when it is a terminal and `enabled` (e.g. not --quiet). */
export function progressLine(stream: NodeJS.WriteStream = process.stderr, enabled = true): ProgressLine {
  if (!enabled || stream.isTTY !== true) return { active: false, update: () => undefined, done: () => undefined };
  let shownChars = 0;
  return {
    active: true,
    update(text) {
      // Pad over the rest of a longer previous line.
      stream.write(`\r${text}${' '.repeat(Math.max(0, shownChars - text.length))}`);
      shownChars = text.length;
    },
    done() {
      if (shownChars > 0) stream.write('\n');
      shownChars = 0;
    },
  };
}

/** `12/40 runs (3 cached, 1 failed)`: an experiment's progress over its matrix. */
export function formatMatrixProgress(p: { readonly done: number; readonly total: number; readonly cached: number; readonly failed: number }): string {
  return `${p.done}/${p.total} runs (${p.cached} cached${p.failed ? `, ${p.failed} failed` : ''})`;
}

/** A duration for humans: `45 s`, `12 min 5 s`, `3 h 20 min`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/**
 * A simulation's progress: `simulated 1,234 s, 120/40,000 Works done, 35.0 Works/s, ETA 18 min 58 s`.
 * The rate is Works done per wall second since the start; no ETA before the first Work is done.
 */
export function formatSimulationProgress(p: { readonly nowS: number; readonly worksDone: number; readonly worksTotal: number }, elapsedMs: number): string {
  const n = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
  const head = `simulated ${n(p.nowS)} s, ${n(p.worksDone)}/${n(p.worksTotal)} Works done`;
  if (p.worksDone === 0 || elapsedMs <= 0) return head;
  const rate = p.worksDone / (elapsedMs / 1000);
  const shownRate = rate < 100 ? rate.toFixed(1) : n(rate);
  return `${head}, ${shownRate} Works/s, ETA ${formatDuration((p.worksTotal - p.worksDone) / rate)}`;
}
