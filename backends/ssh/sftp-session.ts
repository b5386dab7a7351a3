// The SFTP session of one SSH connection: opened at the first transfer and shared by the transfers after
// it. It holds one of the channels sshd allows a connection (MaxSessions), so an idle one can be closed
// when a command needs that channel; the next transfer opens another. A session that closes or fails is
// forgotten, as are all of them when the connection goes (forget()).
import type { NodeSSH } from 'node-ssh';

/** The SFTP session calls we use (ssh2's SFTPWrapper, which ships without types here). */
export interface Sftp {
  fastPut(local: string, remote: string, cb: (err: Error | null | undefined) => void): void;
  fastGet(remote: string, local: string, cb: (err: Error | null | undefined) => void): void;
  ext_openssh_rename(from: string, to: string, cb: (err: Error | null | undefined) => void): void;
  end(): void;
  on(event: 'close' | 'error', fn: () => void): void;
}

/** sshd has no SFTP server (no Subsystem sftp line in its sshd_config: some hardened hosts). */
export function noSftpServer(err: unknown): boolean {
  return err instanceof Error && /Unable to start subsystem: sftp/.test(err.message);
}

export class SftpSession {
  /** The session being opened or open. */
  private session: Promise<Sftp> | undefined;
  /** The same once open. */
  private open: Sftp | undefined;
  /** Calls in flight on it. */
  private calls = 0;

  /** Runs one SFTP call on `ssh`'s session, opening one if there is none. */
  async call(ssh: NodeSSH, call: (s: Sftp, cb: (err: Error | null | undefined) => void) => void): Promise<void> {
    this.calls++;
    try {
      const s = await this.sessionOn(ssh);
      await new Promise<void>((resolve, reject) => call(s, (err) => (err ? reject(err) : resolve())));
    } finally {
      this.calls--;
    }
  }

  /** Closes the session if no call is using it (a command refused a channel would otherwise wait for ever). */
  closeIdle(): void {
    const s = this.open;
    if (s === undefined || this.calls > 0) return;
    this.forget();
    s.end();
  }

  /** Forgets the session (its connection went or is new): the next call opens one. */
  forget(): void {
    this.session = undefined;
    this.open = undefined;
  }

  private sessionOn(ssh: NodeSSH): Promise<Sftp> {
    if (!this.session) {
      const p = ssh.requestSFTP().then((s) => s as unknown as Sftp);
      this.session = p;
      p.then(
        (s) => {
          if (this.session === p) this.open = s;
          const forget = (): void => {
            if (this.session === p) this.forget();
          };
          s.on('close', forget);
          s.on('error', forget);
        },
        () => {
          if (this.session === p) this.session = undefined;
        },
      );
    }
    return this.session;
  }
}
