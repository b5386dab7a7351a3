// The exit statuses of `gridsweep`, in one place so that the commands, `gridsweep --help` and the README
// say the same thing. Scripts and CI tell a run that did not finish (3) from one that failed (1), and from one
// stopped by its own origin's disk (4).

export const EXIT = {
  ok: 0,
  /** Bad input, a failed task or run, a schedule violation. */
  failure: 1,
  /** Bad command line: unknown option or command, a missing or bad value. */
  usage: 2,
  /** A simulation stopped before every Work was done (the grid could make no more progress), or a real run with no host left to come. */
  unfinished: 3,
  /** A real run stopped because the origin could not be written (full, over quota, read-only, I/O error). */
  originWrite: 4,
  /** A bug in gridsweep (sysexits' EX_SOFTWARE). */
  internal: 70,
  /** Interrupted by Ctrl-C (SIGINT), 128 + 2 as shells report it. */
  interrupted: 130,
} as const;

/** The "Exit status" block of `gridsweep --help` and of the README's CLI reference. */
export function exitStatusHelp(): string[] {
  return [
    `  ${EXIT.ok}    success`,
    `  ${EXIT.failure}    failure: bad input, a task or run that failed, a schedule violation (trace --check)`,
    `  ${EXIT.usage}    usage error: unknown command or option, missing or bad option value`,
    `  ${EXIT.unfinished}    not finished: a simulation stopped before every Work was done (simulate; experiment if`,
    '       any run did), or a real run whose batch clusters were given up with no other host left (run);',
    '       1 wins when something also failed',
    `  ${EXIT.originWrite}    the origin could not be written (run: disk full, over quota, read-only, I/O error, or a file`,
    '       or folder in the way of an output); the verified outputs are kept: free space (or move what',
    '       is in the way) and run the same command again to finish',
    `  ${EXIT.internal}   internal error (a bug: please report it)`,
    `  ${EXIT.interrupted}  interrupted (Ctrl-C)`,
  ];
}
