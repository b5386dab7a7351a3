// How commands reach a login shell of any family (backends/ssh/login-shell.ts), checked against the real
// shells: the first command's answer, and the encoded form run through sh, bash, dash, tcsh, csh and fish.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LOGIN_SHELL_COMMAND, readLoginShellAnswer, takesPosixCommands, throughPosixShell } from '../../backends/ssh/login-shell.js';
import { shellCommand } from '../../backends/transport/shell-quote.js';
import { NASTY } from '../support/shell-words.js';

const SHELLS = ['/bin/sh', '/bin/bash', '/bin/dash', '/usr/bin/tcsh', '/usr/bin/bsd-csh', '/usr/bin/fish'];

/** What sshd does with a command: the login shell's -c, with SHELL set to it. */
function asSshdRuns(shell: string, command: string): string {
  return execFileSync(shell, ['-c', command], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', SHELL: shell, HOME: '/nonexistent' } });
}

describe('the first command of a connection', () => {
  it.each(SHELLS)('is answered with the login shell by %s', (shell) => {
    expect(readLoginShellAnswer(asSshdRuns(shell, LOGIN_SHELL_COMMAND))).toEqual({ shell, printed: undefined });
  });

  it('keeps what a chatty shell printed before the answer, with or without a newline', () => {
    expect(readLoginShellAnswer('Welcome\nmodule notice: --gridsweep-login-shell-- /bin/tcsh\n')).toEqual({ shell: '/bin/tcsh', printed: 'Welcome\nmodule notice:' });
    expect(readLoginShellAnswer('Welcome\n')).toBeUndefined();
  });

  it('tells the POSIX family by the program, and gives any other the encoded form', () => {
    for (const shell of ['/bin/sh', '/bin/bash', '/usr/bin/zsh', '/bin/ksh', '/bin/dash']) expect(takesPosixCommands(shell), shell).toBe(true);
    for (const shell of ['/bin/tcsh', '/bin/csh', '/usr/bin/fish', '', '/opt/odd/myshell']) expect(takesPosixCommands(shell), shell).toBe(false);
  });
});

describe.each(SHELLS)('a command encoded for the login shell %s', (shell) => {
  it('runs as /bin/sh runs it: every word literal, lines, exit status', () => {
    const command = `printf '%s\\0' ${shellCommand(NASTY)}\nfor k in 1 2; do printf 'line %s\\0' "$k"; done\nexit 3`;
    let out = '';
    let status = 0;
    try {
      out = asSshdRuns(shell, throughPosixShell(command));
    } catch (err) {
      const e = err as { status: number; stdout: string };
      status = e.status;
      out = e.stdout;
    }
    expect(status).toBe(3);
    expect(out.split('\0').slice(0, -1)).toEqual([...NASTY, 'line 1', 'line 2']);
  });

  it('fails, saying why, on a host without base64 (rather than running nothing)', () => {
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync(shell, ['-c', throughPosixShell('echo ran')], { encoding: 'utf8', stdio: 'pipe', env: { PATH: '/nonexistent', SHELL: shell, HOME: '/nonexistent' } });
    } catch (err) {
      failure = err as { status: number; stderr: string };
    }
    expect(failure?.status).toBe(127);
    expect(failure?.stderr).toContain('gridsweep: cannot decode the command: base64 -d failed on this host');
  });

  it('carries a command of 90 KB (csh refuses words over about 1,000 bytes)', () => {
    const word = 'x'.repeat(90_000);
    expect(asSshdRuns(shell, throughPosixShell(`printf %s ${word} | wc -c`)).trim()).toBe('90000');
  });
});
