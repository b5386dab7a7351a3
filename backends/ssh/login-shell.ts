// sshd runs every command through the user's login shell. The commands here are written for a POSIX shell
// (sh, bash, dash, ksh, zsh); on a site where users have csh or tcsh (common on older clusters) or fish,
// their quoting breaks: csh allows no newline and expands `!` inside single quotes, and has no `$(...)`.
// The first command of a connection asks which shell it is; on a shell of another family every command
// travels encoded in base64 (letters, digits, `+`, `/` and `=`, which no shell interprets), in words short
// enough for csh's limit on a word's length, and a POSIX /bin/sh decodes and runs it. On a POSIX login
// shell commands go as they are, readable in the host's process list.

/** Printed before the login shell's path by the first command (what a chatty shell prints comes before it). */
const SHELL_MARK = '--gridsweep-login-shell--';

/** The first command of a connection: it prints the login shell's path, and is the same in every family. */
export const LOGIN_SHELL_COMMAND = `echo ${SHELL_MARK} "$SHELL"`;

/** What the first command printed: the login shell's path, and what the shell printed before it (if anything). */
export interface LoginShellAnswer {
  readonly shell: string;
  readonly printed: string | undefined;
}

/** Reads LOGIN_SHELL_COMMAND's output; undefined when the mark is missing (the shell did not run it). */
export function readLoginShellAnswer(stdout: string): LoginShellAnswer | undefined {
  const at = stdout.lastIndexOf(`${SHELL_MARK} `);
  if (at < 0) return undefined;
  const end = stdout.indexOf('\n', at);
  const shell = stdout.slice(at + SHELL_MARK.length + 1, end < 0 ? undefined : end).trim();
  const printed = stdout.slice(0, at).trim();
  return { shell, printed: printed === '' ? undefined : printed.slice(0, 200) };
}

/** Shells that read POSIX sh's syntax, by the program's name. Any other gets the encoded form, which all take. */
const POSIX_SHELLS = new Set(['sh', 'bash', 'rbash', 'dash', 'ash', 'ksh', 'ksh93', 'mksh', 'pdksh', 'oksh', 'lksh', 'zsh', 'yash', 'posh', 'busybox']);

/** Whether commands written for a POSIX shell can be given to this login shell as they are. */
export function takesPosixCommands(shell: string): boolean {
  return POSIX_SHELLS.has(shell.slice(shell.lastIndexOf('/') + 1));
}

/** csh refuses longer words ("Word too long"); tcsh and the POSIX shells have no such limit. */
const WORD_CHARS = 1000;

/** A command line that any login shell hands to /bin/sh unchanged: the command in base64 words. */
export function throughPosixShell(command: string): string {
  const encoded = Buffer.from(command, 'utf8').toString('base64');
  const words: string[] = [];
  for (let k = 0; k < encoded.length; k += WORD_CHARS) words.push(encoded.slice(k, k + WORD_CHARS));
  // Decoded first, so that a host without base64 fails the command instead of running nothing.
  const run = 'c=$(printf %s "$@" | base64 -d) || { echo "gridsweep: cannot decode the command: base64 -d failed on this host" >&2; exit 127; }; eval "$c"';
  return `exec /bin/sh -c '${run}' sh ${words.join(' ')}`;
}
