// How an SSH machine of a real grid file (a host, a Slurm login node, a jump host) is logged in to. Each
// setting comes from the first of: the grid file's own field; the ssh client configuration's value for the
// address the grid file gives (an alias there, ssh-config.ts); for a jump host, the host's own setting; then
// what ssh itself would use — port 22, the local user, ~/.ssh/known_hosts, and as credentials the SSH agent
// (SSH_AUTH_SOCK's, or the socket the configuration's IdentityAgent names) with the first of
// ~/.ssh/id_ed25519, id_ecdsa and id_rsa that exists (one protected by a passphrase is left to the agent,
// whose copy of it is then offered first, as ssh offers a configured key before the agent's others; with
// IdentitiesOnly, alone). The port is the machine's own (22 for a jump host the grid file gives none), and the known_hosts file a jump
// host does not name is its host's; the grid file's knownHosts for the whole file comes before the
// configuration's UserKnownHostsFile. Host keys are also looked for, read only, in the system-wide files
// (ssh's GlobalKnownHostsFile, /etc/ssh/ssh_known_hosts and ssh_known_hosts2 unless the configuration names
// others), where clusters often list their nodes' keys. A machine whose configuration says
// StrictHostKeyChecking accept-new (or no) has a key not yet known accepted and recorded, as --accept-new
// does for every machine; a changed key is refused all the same. A machine's jump hosts are found as ssh finds
// them: the grid file's "jump" (one, or a list reached in order), else its ProxyJump (a list: each hop after
// the first reached through the one before) or a ProxyCommand that is a jump host written out; and each jump
// host is reached in turn as its own configuration says, up to MAX_JUMP_HOSTS in a row.
import { existsSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { isEncryptedKeyFile } from './key-files.js';
import { proxyCommandHop } from './proxy-command.js';
import { acceptsNewHostKeys, identityAgentKind, parseFlag, parsePort, parseProxyJump, type SshConfig, type SshConfigHost } from './ssh-config.js';
import type { RawSshConnection, RawSshMachine } from './ssh-connection-schema.js';

/** How to log in to a machine over SSH. */
export interface SshLogin {
  readonly address: string;
  readonly port: number;
  readonly user: string;
  readonly identityFile?: string;
  /** Offer the keys of the SSH agent (at agentSocket, else SSH_AUTH_SOCK's). */
  readonly agent: boolean;
  /** Where host keys are looked for and a new one is added (accept-new). */
  readonly knownHostsFile: string;
  /** Where host keys are looked for too, read only: the system-wide files. */
  readonly globalKnownHostsFiles: readonly string[];
  /**
   * A key file left to the agent (it has a passphrase, which gridsweep cannot ask for): the agent's copy of it
   * is offered first, as ssh offers a configured key before the agent's others.
   */
  readonly agentKeyFile?: string;
  /** The agent's socket, where the configuration's IdentityAgent names one (else SSH_AUTH_SOCK's). */
  readonly agentSocket?: string;
  /** The configuration's IdentitiesOnly: of the agent's keys, only the copy of agentKeyFile is offered. */
  readonly identitiesOnly?: true;
  /** The configuration's StrictHostKeyChecking lets a host key not yet known in, as --accept-new does. */
  readonly acceptNewHostKey?: true;
  /** The jump host the connection goes through (OpenSSH's ProxyJump), itself perhaps through another. */
  readonly jump?: SshLogin;
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

/** How to log in to `name` (described by `h` at `pointer`), through its jump hosts if it has any. */
export function sshLoginOf(ctx: SshLoginContext, name: string, h: RawSshConnection, pointer: string): SshLogin {
  if (h.identityFile !== undefined && h.agent) ctx.problem(pointer, `host "${name}" names both "identityFile" and "agent"`, 'keep one of them');
  const configured = ctx.config?.lookUp(h.address, h.user);
  const login = machineLogin(ctx, h, undefined, configured);
  if (login.identityFile === undefined && !login.agent) {
    ctx.problem(pointer, `host "${name}" names no credentials, and none were found`, `add "identityFile": "path/to/key" or "agent": true (or an IdentityFile for ${h.address} in ~/.ssh/config, or start ssh-agent)`);
  }
  if (h.jump !== undefined) {
    const hops = Array.isArray(h.jump) ? h.jump : [h.jump];
    hops.forEach((hop, k) => {
      if (hop.identityFile !== undefined && hop.agent) ctx.problem(`${pointer}/jump${Array.isArray(h.jump) ? `/${k}` : ''}`, `the jump host of "${name}" names both "identityFile" and "agent"`, 'keep one of them');
    });
    return withJump(login, throughHops(ctx, { name, pointer }, hops, login, 1));
  }
  return withJump(login, configuredJump(ctx, { name, pointer }, h.address, configured, login, 1));
}

/** Who a jump host is reached for, as problems name it. */
interface Reaching {
  readonly name: string;
  readonly pointer: string;
}

/** At most this many jump hosts in a row: more is a ProxyJump that leads back to itself. */
const MAX_JUMP_HOSTS = 8;

function withJump(login: SshLogin, jump: SshLogin | undefined): SshLogin {
  return jump === undefined ? login : { ...login, jump };
}

/**
 * The last of `hops` (the grid file's "jump", or a ProxyJump's list, in the order they are reached), reached
 * through the ones before it; the first is reached as the configuration says of it, as `ssh -J a,b` reaches
 * a. `leadsTo` is the machine the last one leads to: what a hop leaves out is that machine's.
 */
function throughHops(ctx: SshLoginContext, who: Reaching, hops: readonly RawSshMachine[], leadsTo: SshLogin, depth: number): SshLogin | undefined {
  if (depth > MAX_JUMP_HOSTS) {
    ctx.problem(who.pointer, `host "${who.name}" goes through more than ${MAX_JUMP_HOSTS} jump hosts in a row`, 'check the ProxyJump lines of the ssh client configuration for one that leads back to a host before it');
    return undefined;
  }
  const last = hops[hops.length - 1]!;
  const configured = ctx.config?.lookUp(last.address, last.user);
  const login = machineLogin(ctx, last, leadsTo, configured);
  // As ssh: a machine whose jump host is itself (`Host *` with a ProxyJump, the jump host included).
  if (login.address === leadsTo.address && login.port === leadsTo.port && login.user === leadsTo.user) {
    ctx.problem(who.pointer, `host "${who.name}": ${login.user}@${login.address} would be its own jump host (a jump host loop)`, `leave ${last.address} out of the Host line that gives the ProxyJump (e.g. Host * !${last.address})`);
    return undefined;
  }
  const through = hops.length > 1 ? throughHops(ctx, who, hops.slice(0, -1), login, depth + 1) : configuredJump(ctx, who, last.address, configured, login, depth + 1);
  return withJump(login, through);
}

/**
 * The jump host the configuration gives the machine at `address` (as `configured` says of it): its ProxyJump
 * hosts, or a ProxyCommand that is a jump host written out (`ssh -W %h:%p login`); any other command is not
 * run, and is a problem.
 */
function configuredJump(ctx: SshLoginContext, who: Reaching, address: string, configured: SshConfigHost | undefined, login: SshLogin, depth: number): SshLogin | undefined {
  if (configured?.proxyJump !== undefined) {
    const hops = parseProxyJump(configured.proxyJump);
    return hops === undefined ? undefined : throughHops(ctx, who, hops.map((hop) => ({ address: hop.host, ...optionalHop(hop) })), login, depth);
  }
  const command = configured?.proxyCommand;
  if (command === undefined || command.value.toLowerCase() === 'none') return undefined;
  const hop = proxyCommandHop(command);
  if (hop === undefined) {
    // A file outside the user's home (the system-wide configuration) is not theirs to change.
    const theirs = command.pos.file.startsWith(ctx.env.home + '/');
    const hint = `give ${address} a ProxyJump there instead, or a "jump" here${theirs ? '' : ', with "sshConfig" naming a configuration of your own'}`;
    const problem =
      depth === 1
        ? `host "${who.name}": the ssh client configuration gives it a ProxyCommand (${where(command.pos)}), which gridsweep does not run`
        : `host "${who.name}" goes through ${address}, whose ProxyCommand in the ssh client configuration (${where(command.pos)}) gridsweep does not run`;
    ctx.problem(who.pointer, problem, hint);
    return undefined;
  }
  const identityFile = hop.identityFile !== undefined ? ctx.config!.path(hop.identityFile, hop.host, { host: hop.host, port: hop.port ?? 22, user: hop.user ?? login.user }) : undefined;
  return throughHops(ctx, who, [{ address: hop.host, ...optionalHop(hop), ...(identityFile !== undefined ? { identityFile } : {}) }], login, depth);
}

/** A hop's user and port, those it gives. */
function optionalHop(hop: { readonly user?: string; readonly port?: number }): { user?: string; port?: number } {
  return { ...(hop.user !== undefined ? { user: hop.user } : {}), ...(hop.port !== undefined ? { port: hop.port } : {}) };
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
  // IdentityAgent: the agent's socket where the configuration names one, no agent for "none".
  const agentKind = c.identityAgent === undefined ? 'environment' : identityAgentKind(c.identityAgent);
  let agentSocket = agentKind === 'path' ? config!.path(c.identityAgent!, m.address, remote) : undefined;
  const agentAtHand = agentKind === 'path' || (agentKind === 'environment' && env.agentSocket !== undefined);
  let identityFile: string | undefined;
  let agent: boolean;
  let agentKeyFile: string | undefined;
  if (m.identityFile !== undefined || m.agent === true) {
    identityFile = m.identityFile !== undefined ? ctx.fromFile(m.identityFile) : undefined;
    agent = m.agent === true;
  } else if (c.identityFile !== undefined) {
    ({ identityFile, agent, agentKeyFile } = keyBesideAgent(config!.path(c.identityFile, m.address, remote), agentAtHand));
  } else if (inherited !== undefined) {
    identityFile = inherited.identityFile;
    agent = inherited.agent;
    agentKeyFile = inherited.agentKeyFile;
    agentSocket ??= inherited.agentSocket;
  } else {
    ({ identityFile, agent, agentKeyFile } = keyBesideAgent(
      DEFAULT_KEYS.map((k) => join(env.home, '.ssh', k)).find((p) => existsSync(p)),
      agentAtHand,
    ));
  }
  const acceptNewHostKey = c.strictHostKeyChecking !== undefined && acceptsNewHostKeys(c.strictHostKeyChecking);
  // IdentitiesOnly: the configured key alone, from its file or the agent's copy of it, never the agent's others.
  const identitiesOnly = c.identitiesOnly !== undefined && parseFlag(c.identitiesOnly, 'IdentitiesOnly');
  if (identitiesOnly && identityFile !== undefined) agent = false;
  return {
    address,
    port,
    user,
    ...(identityFile !== undefined ? { identityFile } : {}),
    agent,
    ...(agentKeyFile !== undefined ? { agentKeyFile } : {}),
    ...(agent && agentSocket !== undefined ? { agentSocket } : {}),
    ...(identitiesOnly && agentKeyFile !== undefined ? { identitiesOnly } : {}),
    knownHostsFile,
    globalKnownHostsFiles,
    ...(acceptNewHostKey ? { acceptNewHostKey } : {}),
  };
}

/**
 * A key the grid file did not name, with the agent when there is one (`agent`), as ssh offers both. A key protected
 * by a passphrase is left to the agent, which usually holds it (gridsweep cannot ask for the passphrase);
 * with no agent it stays, and the login says it cannot be used.
 */
function keyBesideAgent(identityFile: string | undefined, agent: boolean): { identityFile: string | undefined; agent: boolean; agentKeyFile?: string } {
  if (identityFile !== undefined && agent && isEncryptedKeyFile(identityFile)) return { identityFile: undefined, agent, agentKeyFile: identityFile };
  return { identityFile, agent };
}
