// Logging a NodeSSH connection in to a machine, and closing it, as a host's connections and a jump host's
// shared one both do: the credentials (a key file, the SSH agent), keep-alives, the login deadline and the
// host key checked against known_hosts; and what a refused login means.
import type { NodeSSH } from 'node-ssh';
import type { Duplex } from 'node:stream';
import type { SshLogin } from '../../src/realgrid/ssh-login.js';
import { agentFor } from './agent-keys.js';
import { checkHostKey, knownHostsName } from './known-hosts.js';

export interface LoginTerms {
  /** Seconds the machine may take to log in. */
  readonly deadlineS: number;
  readonly keepaliveIntervalMs: number;
  readonly keepaliveCountMax: number;
  /** Accept and remember a host key not yet known. */
  readonly acceptNew: boolean;
}

/**
 * Connects `ssh` to `login` (inside `sock`, a channel a jump host forwards, when given), with `agent` the
 * SSH agent's socket when it is to be used. `keyProblem` hears why a host key was refused.
 */
export function connectAs(ssh: NodeSSH, login: SshLogin, agent: string | undefined, terms: LoginTerms, keyProblem: (reason: string) => void, sock?: Duplex): Promise<unknown> {
  const knownName = knownHostsName(login.address, login.port);
  return ssh.connect({
    ...(sock !== undefined ? { sock } : {}),
    host: login.address,
    port: login.port,
    username: login.user,
    ...(login.identityFile !== undefined ? { privateKeyPath: login.identityFile } : {}),
    ...(agent !== undefined ? { agent: agentFor(agent, login) } : {}),
    keepaliveInterval: terms.keepaliveIntervalMs,
    keepaliveCountMax: terms.keepaliveCountMax,
    readyTimeout: terms.deadlineS * 1000,
    hostVerifier: (key: Buffer): boolean => {
      const verdict = checkHostKey(login.knownHostsFile, knownName, key, terms.acceptNew || login.acceptNewHostKey === true, login.globalKnownHostsFiles);
      if (!verdict.ok) keyProblem(verdict.reason);
      return verdict.ok;
    },
  });
}

/**
 * What a failed login's message says that no retry mends: the key file cannot be used, the login was refused,
 * or sshd cut it short after refusing as many keys as its MaxAuthTries allows (an agent holding many keys).
 */
export function lastingLoginFailure(message: string): 'identity file' | 'refused' | 'too many keys' | undefined {
  if (/privateKeyPath does not exist|Cannot parse privateKey|passphrase/i.test(message)) return 'identity file';
  if (/All configured authentication methods failed/i.test(message)) return 'refused';
  if (/Too many authentication failures/i.test(message)) return 'too many keys';
  return undefined;
}

/** What to do when sshd refused as many keys as it allows. */
export const TOO_MANY_KEYS_HINT = 'name its key with IdentityFile and IdentitiesOnly yes in ~/.ssh/config (or "identityFile" in the grid file), so that the SSH agent\'s other keys are not offered first';

/**
 * Closes a connection at once, established or still being set up. (NodeSSH's dispose() only ends it
 * politely: the socket stays open, and keeps this process alive, until a hung host answers.)
 */
export function destroyConnection(ssh: NodeSSH): void {
  (ssh.connection as unknown as { destroy(): void } | null)?.destroy();
  ssh.dispose();
}
