// The SSH agent as a login uses it. Its keys go in the order ssh offers them: the agent's copy of the configured
// key first (a key file left to the agent because it has a passphrase), then the agent's others, none of them
// with IdentitiesOnly. sshd drops a client after MaxAuthTries (6 by default) refused keys, so offering an
// agent's keys in its own order can lock out the right one when the agent holds several. The copy is found by
// the key file's public half (key-files.ts); when that cannot be read, the agent's keys go in the agent's
// order. And it says when it has signed: the server has accepted one of its keys (a key is signed for only after
// the server says it would take it), so a login that fails after that was asked for more than a key.
import { createRequire } from 'node:module';
import { publicKeyOf } from '../../src/realgrid/key-files.js';
import type { SshLogin } from '../../src/realgrid/ssh-login.js';

/** A key the agent holds, as ssh2 parses it. */
interface AgentKey {
  getPublicSSH(): Buffer;
}

type IdentitiesCallback = (err: Error | null, keys?: AgentKey[]) => void;

interface OpenSshAgentClass {
  new (socketPath: string): { getIdentities(cb: IdentitiesCallback): void; sign(...args: unknown[]): void };
}

// ssh2 ships no types, and accepts as an agent only an instance of its own classes: those of the copy
// node-ssh connects with, so it is loaded from where node-ssh is.
const nodeSshRequire = createRequire(createRequire(import.meta.url).resolve('node-ssh'));
const { OpenSSHAgent } = nodeSshRequire('ssh2') as { OpenSSHAgent: OpenSshAgentClass };

/** The agent at `socketPath`, listing the key `preferred` first (and only it when `only`), telling `onSign`. */
class LoginAgent extends OpenSSHAgent {
  constructor(
    socketPath: string,
    private readonly preferred: Buffer | undefined,
    private readonly only: boolean,
    private readonly onSign: () => void,
  ) {
    super(socketPath);
  }

  override getIdentities(cb: IdentitiesCallback): void {
    super.getIdentities((err, keys) => {
      if (err !== null || keys === undefined) return cb(err ?? new Error('the SSH agent listed no keys'));
      const preferred = this.preferred;
      if (preferred === undefined) return cb(null, keys);
      const isPreferred = (k: AgentKey): boolean => k.getPublicSSH().equals(preferred);
      cb(null, [...keys.filter(isPreferred), ...(this.only ? [] : keys.filter((k) => !isPreferred(k)))]);
    });
  }

  /** ssh2's sign(pubKey, data, [options], cb): the signature made, the server had accepted the key. */
  override sign(...args: unknown[]): void {
    const cb = args[args.length - 1] as (err: Error | null, signature?: Buffer) => void;
    super.sign(...args.slice(0, -1), (err: Error | null, signature?: Buffer) => {
      if (err === null || err === undefined) this.onSign();
      cb(err, signature);
    });
  }
}

/** What to give ssh2 as the agent of `login` (its socket at `socketPath`); `onSign` hears the server accept a key. */
export function agentFor(socketPath: string, login: SshLogin, onSign: () => void): object {
  const preferred = login.agentKeyFile === undefined ? undefined : publicKeyOf(login.agentKeyFile);
  return new LoginAgent(socketPath, preferred, preferred !== undefined && login.identitiesOnly === true, onSign);
}
