// How an SSH machine of a real grid file (a host, a Slurm login node, a jump host) is logged in to. Each
// setting comes from the first of: the grid file's own field; the ssh client configuration's value for the
// address the grid file gives (an alias there, ssh-config.ts); for a jump host, the host's own setting; then
// what ssh itself would use — port 22, the local user, ~/.ssh/known_hosts, and as credentials the SSH agent
// (when SSH_AUTH_SOCK is set) with the first of ~/.ssh/id_ed25519, id_ecdsa and id_rsa that exists (one
// protected by a passphrase is left to the agent). The
// port is the machine's own (22 for a jump host the grid file gives none), and the known_hosts file a jump
// host does not name is its host's; the grid file's knownHosts for the whole file comes before the
// configuration's UserKnownHostsFile. Host keys are also looked for, read only, in the system-wide files
// (ssh's GlobalKnownHostsFile, /etc/ssh/ssh_known_hosts and ssh_known_hosts2 unless the configuration names
// others), where clusters often list their nodes' keys. A machine whose configuration says
// StrictHostKeyChecking accept-new (or no) has a key not yet known accepted and recorded, as --accept-new
// does for every machine; a changed key is refused all the same.
import { existsSync, readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { proxyCommandHop, type ProxyCommandHop } from './proxy-command.js';
import { acceptsNewHostKeys, parsePort, parseProxyJump, type SshConfig, type SshConfigHost } from './ssh-config.js';
import type { RawSshConnection, RawSshMachine } from './ssh-connection-schema.js';

/** How to log in to a machine over SSH. */
export interface SshLogin {
  readonly address: string;
  readonly port: number;
  readonly user: string;
  readonly identityFile?: string;
  /** Offer the keys of the SSH agent (SSH_AUTH_SOCK). */
  readonly agent: boolean;
  /** Where host keys are looked for and a new one is added (accept-new). */
  readonly knownHostsFile: string;
  /** Where host keys are looked for too, read only: the system-wide files. */
  readonly globalKnownHostsFiles: readonly string[];
  /** The configuration's StrictHostKeyChecking lets a host key not yet known in, as --accept-new does. */
  readonly acceptNewHostKey?: true;
}

/** What the defaults depend on: the user's home, name and SSH agent. */
export interface SshEnvironment {
  readonly home: string;
  readonly localUser: string;
  /** SSH_AUTH_SOCK, if set. */
  readonly agentSocket: string | undefined;
  /** The system-wide known_hosts files ssh reads when its configuration names none. */
  readonly globalKnownHostsFiles: readonly string[];
  /** The system-wide ssh client configuration, read after the user's (undefined: none). */
  readonly systemSshConfig: string | undefined;
}

/** OpenSSH's default GlobalKnownHostsFile. */
const SYSTEM_KNOWN_HOSTS = ['/etc/ssh/ssh_known_hosts', '/etc/ssh/ssh_known_hosts2'];

export function currentSshEnvironment(): SshEnvironment {
  return { home: homedir(), localUser: userInfo().username, agentSocket: process.env['SSH_AUTH_SOCK'] || undefined, globalKnownHostsFiles: SYSTEM_KNOWN_HOSTS, systemSshConfig: '/etc/ssh/ssh_config' };
}

const DEFAULT_KEYS = ['id_ed25519', 'id_ecdsa', 'id_rsa'];

export interface SshLoginContext {
  readonly config: SshConfig | undefined;
  readonly env: SshEnvironment;
  /** A path as the grid file writes it, made absolute (relative to the file, ~ expanded). */
  readonly fromFile: (path: string) => string;
  /** The grid file's knownHosts for every host, made absolute, if it names one. */
  readonly gridKnownHosts: string | undefined;
  /** Records a problem at a JSON pointer of the grid file. */
  readonly problem: (pointer: string, message: string, hint: string) => void;
}

/** How to log in to `name` (described by `h` at `pointer`), with its jump host if it has one. */
export function sshLoginOf(ctx: SshLoginContext, name: string, h: RawSshConnection, pointer: string): SshLogin & { readonly jump?: SshLogin } {
  if (h.identityFile !== undefined && h.agent) ctx.problem(pointer, `host "${name}" names both "identityFile" and "agent"`, 'keep one of them');
  const configured = ctx.config?.lookUp(h.address, h.user);
  const login = machineLogin(ctx, h, undefined, configured);
  if (login.identityFile === undefined && !login.agent) {
    ctx.problem(pointer, `host "${name}" names no credentials, and none were found`, `add "identityFile": "path/to/key" or "agent": true (or an IdentityFile for ${h.address} in ~/.ssh/config, or start ssh-agent)`);
  }
  if (h.jump !== undefined) {
    if (h.jump.identityFile !== undefined && h.jump.agent) ctx.problem(`${pointer}/jump`, `the jump host of "${name}" names both "identityFile" and "agent"`, 'keep one of them');
    return { ...login, jump: machineLogin(ctx, h.jump, login) };
  }
  let hop: ProxyCommandHop | undefined;
  if (configured?.proxyJump !== undefined) {
    hop = parseProxyJump(configured.proxyJump);
  } else if (configured?.proxyCommand !== undefined && configured.proxyCommand.value.toLowerCase() !== 'none') {
    // `ssh -W %h:%p login` and the like are a jump host written out; any other command is not run.
    hop = proxyCommandHop(configured.proxyCommand);
    if (hop === undefined) {
      // A file outside the user's home (the system-wide configuration) is not theirs to change.
      const theirs = configured.proxyCommand.pos.file.startsWith(ctx.env.home + '/');
      const hint = `give ${h.address} a ProxyJump there instead, or a "jump" here${theirs ? '' : ', with "sshConfig" naming a configuration of your own'}`;
      ctx.problem(pointer, `host "${name}": the ssh client configuration gives it a ProxyCommand (${where(configured.proxyCommand.pos)}), which gridsweep does not run`, hint);
    }
  }
  if (hop === undefined) return login;
  // Looked up once, as machineLogin would (its user is the hop's).
  const jumpConfigured = ctx.config?.lookUp(hop.host, hop.user);
  const further = jumpConfigured?.proxyJump ?? jumpConfigured?.proxyCommand;
  if (further !== undefined && further.value.toLowerCase() !== 'none') {
    ctx.problem(pointer, `host "${name}" goes through ${hop.host}, which goes through another jump host (${where(further.pos)}); gridsweep goes through one`, `reach ${hop.host} directly, or give "${name}" a "jump" in the grid file`);
  }
  const identityFile = hop.identityFile !== undefined ? ctx.config!.path(hop.identityFile, hop.host, { host: hop.host, port: hop.port ?? 22, user: hop.user ?? login.user }) : undefined;
  const jump = machineLogin(ctx, { address: hop.host, ...(hop.port !== undefined ? { port: hop.port } : {}), ...(hop.user !== undefined ? { user: hop.user } : {}), ...(identityFile !== undefined ? { identityFile } : {}) }, login, jumpConfigured);
  return { ...login, jump };
}

function where(pos: { readonly file: string; readonly line: number }): string {
  return `${pos.file}:${pos.line}`;
}

/** One machine's login: its own fields, the configuration's for its address (`configured`, when already looked up), `inherited`'s, the defaults. */
function machineLogin(ctx: SshLoginContext, m: RawSshMachine, inherited: SshLogin | undefined, configured?: SshConfigHost): SshLogin {
  const { config, env } = ctx;
  const c = configured ?? config?.lookUp(m.address, m.user) ?? {};
  const address = c.hostName?.value ?? m.address;
  const port = m.port ?? (c.port !== undefined ? parsePort(c.port) : 22);
  const user = m.user ?? c.user?.value ?? inherited?.user ?? env.localUser;
  const remote = { host: address, port, user };
  // A jump host's keys are looked for where its host's are, unless it names a file of its own.
  const knownHostsFile =
    m.knownHosts !== undefined
      ? ctx.fromFile(m.knownHosts)
      : (inherited?.knownHostsFile ??
        ctx.gridKnownHosts ??
        (c.userKnownHostsFile !== undefined ? config!.path(c.userKnownHostsFile, m.address, remote) : join(env.home, '.ssh', 'known_hosts')));
  const globalKnownHostsFiles =
    c.globalKnownHostsFile !== undefined ? config!.paths(c.globalKnownHostsFile, m.address, remote) : (inherited?.globalKnownHostsFiles ?? env.globalKnownHostsFiles);
  let identityFile: string | undefined;
  let agent: boolean;
  if (m.identityFile !== undefined || m.agent === true) {
    identityFile = m.identityFile !== undefined ? ctx.fromFile(m.identityFile) : undefined;
    agent = m.agent === true;
  } else if (c.identityFile !== undefined) {
    ({ identityFile, agent } = keyBesideAgent(config!.path(c.identityFile, m.address, remote), env));
  } else if (inherited !== undefined) {
    identityFile = inherited.identityFile;
    agent = inherited.agent;
  } else {
    ({ identityFile, agent } = keyBesideAgent(
      DEFAULT_KEYS.map((k) => join(env.home, '.ssh', k)).find((p) => existsSync(p)),
      env,
    ));
  }
  const acceptNewHostKey = c.strictHostKeyChecking !== undefined && acceptsNewHostKeys(c.strictHostKeyChecking);
  return { address, port, user, ...(identityFile !== undefined ? { identityFile } : {}), agent, knownHostsFile, globalKnownHostsFiles, ...(acceptNewHostKey ? { acceptNewHostKey } : {}) };
}

/**
 * A key the grid file did not name, with the agent when there is one, as ssh offers both. A key protected
 * by a passphrase is left to the agent, which usually holds it (gridsweep cannot ask for the passphrase);
 * with no agent it stays, and the login says it cannot be used.
 */
function keyBesideAgent(identityFile: string | undefined, env: SshEnvironment): { identityFile: string | undefined; agent: boolean } {
  const agent = env.agentSocket !== undefined;
  return { identityFile: identityFile !== undefined && agent && isEncryptedKeyFile(identityFile) ? undefined : identityFile, agent };
}

/** Whether a private key file is protected by a passphrase (OpenSSH's format or PEM); false if unreadable. */
export function isEncryptedKeyFile(path: string): boolean {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return false;
  }
  if (/Proc-Type:\s*4,ENCRYPTED|-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(text)) return true;
  const body = /-----BEGIN OPENSSH PRIVATE KEY-----([\s\S]*?)-----END OPENSSH PRIVATE KEY-----/.exec(text)?.[1];
  if (body === undefined) return false;
  // "openssh-key-v1\0", then the cipher's name as an SSH string: "none" when there is no passphrase.
  const bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  const magic = 'openssh-key-v1\0';
  if (bytes.length < magic.length + 4 || bytes.toString('latin1', 0, magic.length) !== magic) return false;
  const nameLength = bytes.readUInt32BE(magic.length);
  return bytes.toString('latin1', magic.length + 4, magic.length + 4 + nameLength) !== 'none';
}
