// The sshd_config of the OpenSSH servers the harnesses start (loopback: test/support/sshd.ts; network
// namespaces: netns-grid.ts): public-key login only, against the one authorized_keys file the harness
// generated, no PAM, sftp built in (or, on request, OpenSSH's sftp-server program, which sshd starts through
// the user's login shell as most systems' sshd_config does, or none). It lives under bench/ for the reason
// real-grid-json.ts does.

export interface KeyOnlySshdOptions {
  readonly port: number;
  readonly listenAddress: string;
  readonly hostKey: string;
  readonly pidFile: string;
  readonly authorizedKeysFile: string;
  /** The harness's own lines: connection limits, the sessions' environment. */
  readonly extraLines: readonly string[];
  /** SFTP's server as a program started through the login shell, instead of sshd's built-in one. */
  readonly sftpThroughShell?: boolean;
  /** No SFTP at all (no Subsystem line), as some hardened hosts have. */
  readonly noSftp?: boolean;
}

export function keyOnlySshdConfig(o: KeyOnlySshdOptions): string {
  return [
    `Port ${o.port}`,
    `ListenAddress ${o.listenAddress}`,
    `HostKey ${o.hostKey}`,
    `PidFile ${o.pidFile}`,
    `AuthorizedKeysFile ${o.authorizedKeysFile}`,
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'UsePAM no',
    'StrictModes no',
    'PermitRootLogin prohibit-password',
    'LogLevel ERROR',
    ...(o.noSftp ? [] : [`Subsystem sftp ${o.sftpThroughShell ? '/usr/lib/openssh/sftp-server' : 'internal-sftp'}`]),
    ...o.extraLines,
    '',
  ].join('\n');
}
