// Logging a NodeSSH connection in to a machine, and closing it, as a host's connections and a jump host's
// shared one both do: the credentials (a key file, the SSH agent), keep-alives, the login deadline and the
// host key checked against known_hosts; and what a refused login means, including a server that asks for more
// than a key (a password or one-time code after it, or no key at all): said as such, since no retry mends it and
// "check the key" would send the user the wrong way.
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
 * What the server said of the login: the methods it took at first, and whether it accepted a key and asked
 * for more (a partial success, or a key the agent was asked to sign with).
 */
interface AuthTrail {
  methodsAtStart: readonly string[] | undefined;
  keyAccepted: boolean;
  /** The methods the server still asked for after accepting a key, when it said (not for the agent's keys). */
  methodsAfterKey: readonly string[] | undefined;
}

/**
 * ssh2's own order of methods (none, the key file, the agent), noting what the server answers; it stops at
 * once when the server takes no keys at all.
 */
function authHandlerFor(methods: readonly string[], trail: AuthTrail): (methodsLeft: string[] | null, partialSuccess: boolean | null) => string | false {
  let next = 0;
  return (methodsLeft, partialSuccess) => {
    if (methodsLeft !== null && trail.methodsAtStart === undefined) trail.methodsAtStart = methodsLeft;
    if (partialSuccess === true) {
      trail.keyAccepted = true;
      trail.methodsAfterKey = methodsLeft ?? undefined;
    }
    if (trail.methodsAtStart !== undefined && !trail.methodsAtStart.includes('publickey')) return false;
    return next < methods.length ? methods[next++]! : false;
  };
}

/** A refused login said as what the server asked for, where it asked for something other than a key. */
function explained(err: unknown, trail: AuthTrail): unknown {
  if (!(err instanceof Error) || !/All configured authentication methods failed/i.test(err.message)) return err;
  if (trail.keyAccepted) {
    const more = trail.methodsAfterKey === undefined ? '' : ` (${trail.methodsAfterKey.join(', ')})`;
    return new Error(`${MORE_THAN_A_KEY}: it accepted the key, then asked for more${more}`);
  }
  if (trail.methodsAtStart !== undefined && !trail.methodsAtStart.includes('publickey')) return new Error(`${MORE_THAN_A_KEY}: it takes no SSH key, only ${trail.methodsAtStart.join(', ')}`);
  return err;
}

const MORE_THAN_A_KEY = 'the login needs more than a key';

/**
 * The SSH agent's socket a login that uses the agent goes to: the one the configuration's IdentityAgent names,
 * else SSH_AUTH_SOCK's; undefined when neither is set (or the login uses no agent).
 */
export function agentSocketOf(login: SshLogin): string | undefined {
  return login.agent ? (login.agentSocket ?? (process.env['SSH_AUTH_SOCK'] || undefined)) : undefined;
}

/**
 * Connects `ssh` to `login` (inside `sock`, a channel a jump host forwards, when given), with `agent` the
 * SSH agent's socket when it is to be used. `keyProblem` hears why a host key was refused.
 */
export function connectAs(ssh: NodeSSH, login: SshLogin, agent: string | undefined, terms: LoginTerms, keyProblem: (reason: string) => void, sock?: Duplex): Promise<unknown> {
  const knownName = knownHostsName(login.address, login.port);
  const trail: AuthTrail = { methodsAtStart: undefined, keyAccepted: false, methodsAfterKey: undefined };
  const methods = ['none', ...(login.identityFile !== undefined ? ['publickey'] : []), ...(agent !== undefined ? ['agent'] : [])];
  return ssh
    .connect({
      ...(sock !== undefined ? { sock } : {}),
      host: login.address,
      port: login.port,
      username: login.user,
      ...(login.identityFile !== undefined ? { privateKeyPath: login.identityFile } : {}),
      ...(agent !== undefined ? { agent: agentFor(agent, login, () => (trail.keyAccepted = true)) } : {}),
      authHandler: authHandlerFor(methods, trail),
      keepaliveInterval: terms.keepaliveIntervalMs,
      keepaliveCountMax: terms.keepaliveCountMax,
      readyTimeout: terms.deadlineS * 1000,
      hostVerifier: (key: Buffer): boolean => {
        const verdict = checkHostKey(login.knownHostsFile, knownName, key, terms.acceptNew || login.acceptNewHostKey === true, login.globalKnownHostsFiles);
        if (!verdict.ok) keyProblem(verdict.reason);
        return verdict.ok;
      },
    })
    .catch((err: unknown) => {
      throw explained(err, trail);
    });
}

/**
 * Why a failed login will fail again, as said after the machine's name; undefined when a retry may mend it.
 * The key file cannot be used (`identityFile`, the one the login names), the login was refused, sshd cut it
 * short after refusing as many keys as its MaxAuthTries allows (an agent holding many keys), or the server
 * asks for more than a key (a password, a one-time code), which gridsweep cannot give.
 */
export function lastingLoginRefusal(message: string, identityFile: string | undefined): string | undefined {
  if (message.startsWith(MORE_THAN_A_KEY)) {
    return `${message}; gridsweep logs in with keys alone: run it where the host takes a key alone (often on the cluster's login node itself, where a Slurm cluster without "login" submits directly)`;
  }
  if (/privateKeyPath does not exist|Cannot parse privateKey|passphrase/i.test(message)) return `cannot use the identity file ${identityFile}: ${message}`;
  if (/All configured authentication methods failed/i.test(message)) return 'authentication refused; check "user" and the key in authorized_keys';
  if (/Too many authentication failures/i.test(message)) {
    return 'refused the login after too many keys were offered; name its key with IdentityFile and IdentitiesOnly yes in ~/.ssh/config (or "identityFile" in the grid file), so that the SSH agent\'s other keys are not offered first';
  }
  return undefined;
}

/**
 * Closes a connection at once, established or still being set up. (NodeSSH's dispose() only ends it
 * politely: the socket stays open, and keeps this process alive, until a hung host answers.)
 */
export function destroyConnection(ssh: NodeSSH): void {
  (ssh.connection as unknown as { destroy(): void } | null)?.destroy();
  ssh.dispose();
}
