// setTimeout for delays of any length. Node keeps a timer's delay in 32 bits: one longer than 2^31 - 1 ms
// (24.8 days) fires after 1 ms instead, with only a warning. A real run's deadlines (a large transfer at
// the assumed bandwidth), a Slurm pilot's walltime of a month, or a task time limit can be that long; here
// such a delay is waited out in steps of at most that length. Infinity never fires.

/** The longest delay Node's setTimeout honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LongTimeout {
  /** Cancels the timer (nothing happens if it has fired). */
  clear(): void;
}

/** Calls `fn` once after `delayMs` (negative or NaN: at once, as setTimeout does); `unref`: does not keep the process alive. */
export function setLongTimeout(fn: () => void, delayMs: number, options: { readonly unref?: boolean } = {}): LongTimeout {
  let handle: NodeJS.Timeout | undefined;
  const arm = (leftMs: number): void => {
    if (leftMs === Infinity) return;
    const stepMs = Math.min(leftMs, MAX_TIMER_MS);
    handle = setTimeout(() => (leftMs > MAX_TIMER_MS ? arm(leftMs - MAX_TIMER_MS) : fn()), stepMs);
    if (options.unref) handle.unref();
  };
  arm(delayMs);
  return {
    clear(): void {
      if (handle !== undefined) clearTimeout(handle);
      handle = undefined;
    },
  };
}
