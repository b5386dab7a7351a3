// The one quoting function for commands sent over SSH: the remote side runs them through the user's login
// shell, so every argument is wrapped in single quotes, inside which a POSIX shell interprets nothing; a
// single quote itself is written as '\'' (close, escaped quote, reopen).

/** Quotes one argument so that a POSIX shell passes it through literally. */
export function shellQuote(arg: string): string {
  if (arg.includes('\0')) throw new Error('an argument cannot contain a NUL byte');
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Quotes every argument and joins them with spaces: an argv turned into one shell command line. */
export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
