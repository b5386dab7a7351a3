// OpenSSH's client configuration (ssh_config(5): ~/.ssh/config, then /etc/ssh/ssh_config), read for what a
// real grid file's SSH host leaves out, so that a host named by an alias connects where `ssh ALIAS` would (as
// GNU parallel's do, since it runs ssh): HostName, Port, User, IdentityFile, UserKnownHostsFile,
// GlobalKnownHostsFile, StrictHostKeyChecking, IdentitiesOnly, IdentityAgent and ProxyJump.
//
// Read as ssh reads it: the user's file, then the system-wide one, each from its start; lines before a file's
// first Host line apply to every host; a Host line's patterns match the name given (wildcards * and ?, a
// pattern starting with ! excludes, case ignored); the first value found for a keyword wins, so the specific
// blocks go first and `Host *` last; Include reads other files there (relative to ~/.ssh in the user's file,
// to /etc/ssh in the system's, * and ? in the last part of the path); Match blocks apply by host,
// originalhost, user and localuser (comma-separated patterns, a criterion negated by a leading !), all,
// canonical and final, and never by exec (it would run a command) nor by the other criteria. Tokens %h %p %r
// %u %n %d %% and a leading ~ are expanded in the paths, %h and %% in HostName. Not read: every other
// keyword. A ProxyCommand is not run: the caller reads one that is a jump host written out
// (proxy-command.ts) and refuses a host with any other.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { SourcePos } from '../model/grid.js';
import { InputError, unreadableFile } from '../util/diagnostics.js';

/** A keyword's value and where it was read. */
export interface SshConfigValue {
  /** The first word (ProxyCommand: every word, a command line). */
  readonly value: string;
  /** Every word, as written (quotes removed). */
  readonly words: readonly string[];
  readonly pos: SourcePos;
}

/** What the configuration says of one host name: the keywords read here, each as first found. */
export interface SshConfigHost {
  readonly hostName?: SshConfigValue;
  readonly port?: SshConfigValue;
  readonly user?: SshConfigValue;
  readonly identityFile?: SshConfigValue;
  readonly userKnownHostsFile?: SshConfigValue;
  readonly globalKnownHostsFile?: SshConfigValue;
  readonly strictHostKeyChecking?: SshConfigValue;
  readonly identitiesOnly?: SshConfigValue;
  readonly identityAgent?: SshConfigValue;
  readonly proxyJump?: SshConfigValue;
  readonly proxyCommand?: SshConfigValue;
}

/** Where a path keyword's tokens say the host is reached (%h %p %r). */
export interface SshRemote {
  readonly host: string;
  readonly port: number;
  readonly user: string;
}

/** The user the paths' tokens name. */
export interface SshConfigUser {
  readonly home: string;
  readonly localUser: string;
}

const KEYWORDS: Readonly<Record<string, keyof SshConfigHost>> = {
  hostname: 'hostName',
  port: 'port',
  user: 'user',
  identityfile: 'identityFile',
  userknownhostsfile: 'userKnownHostsFile',
  globalknownhostsfile: 'globalKnownHostsFile',
  stricthostkeychecking: 'strictHostKeyChecking',
  identitiesonly: 'identitiesOnly',
  identityagent: 'identityAgent',
  proxyjump: 'proxyJump',
  proxycommand: 'proxyCommand',
};

/** Include's depth limit, as OpenSSH's. */
const MAX_INCLUDE_DEPTH = 16;

interface Entry {
  readonly key: keyof SshConfigHost;
  /** The value's words, as written (quotes removed). */
  readonly words: readonly string[];
  readonly pos: SourcePos;
}

/**
 * What a Match line asks: each criterion must hold. `never`: exec (it would run a command) and the criteria
 * not read here (address, tagged, version, ...), so that such a block does not apply.
 */
type MatchCriterion =
  | { readonly kind: 'all' }
  | { readonly kind: 'never' }
  | { readonly kind: 'host' | 'originalhost' | 'user' | 'localuser'; readonly patterns: readonly string[]; readonly negated: boolean };

interface Block {
  /** A Host line's patterns, or a Match line's criteria. */
  readonly host?: readonly string[];
  readonly match?: readonly MatchCriterion[];
  readonly entries: Entry[];
}

function errorAt(pos: SourcePos, message: string, hint: string): InputError {
  return new InputError([{ severity: 'error', pos, message, hint }]);
}

/** A line's words: split at blanks, double quotes keeping blanks; `Keyword=value` splits at the '='. */
function words(line: string, file: string, lineNo: number): { readonly word: string; readonly column: number }[] {
  const out: { word: string; column: number }[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i]!)) i++;
    if (i >= line.length || line[i] === '#') break;
    // The '=' between the keyword and its value (with blanks around it or not).
    if (out.length === 1 && line[i] === '=') {
      i++;
      continue;
    }
    const column = i + 1;
    let word = '';
    if (line[i] === '"') {
      const end = line.indexOf('"', i + 1);
      if (end < 0) throw errorAt({ file, line: lineNo, column }, 'an unterminated quote in the ssh client configuration', 'close the quote');
      word = line.slice(i + 1, end);
      i = end + 1;
    } else {
      while (i < line.length && !/\s/.test(line[i]!) && !(out.length === 0 && line[i] === '=')) word += line[i++];
    }
    out.push({ word, column });
  }
  return out;
}

function globMatch(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i').test(name);
}

/** Whether patterns (a Host line's, or a Match criterion's list) take `name`: one matches, and no negated one does. */
function hostMatches(patterns: readonly string[], name: string): boolean {
  let matched = false;
  for (const p of patterns) {
    if (p.startsWith('!')) {
      if (globMatch(p.slice(1), name)) return false;
    } else if (globMatch(p, name)) {
      matched = true;
    }
  }
  return matched;
}

/**
 * A Match line's words as criteria (each but all, canonical and final takes the word after it; a leading
 * ! negates one read here, and leaves one not read here never holding).
 */
function matchCriteria(args: readonly string[], pos: SourcePos): MatchCriterion[] {
  const out: MatchCriterion[] = [];
  for (let i = 0; i < args.length; i++) {
    const negated = args[i]!.startsWith('!');
    const word = args[i]!.toLowerCase().replace(/^!/, '');
    // canonical and final name passes of ssh's own reading; read once here, their blocks apply.
    if (word === 'all' || word === 'canonical' || word === 'final') {
      out.push({ kind: 'all' });
      continue;
    }
    const list = args[++i];
    if (list === undefined) throw errorAt(pos, `Match ${args[i - 1]} without its argument in the ssh client configuration`, 'give it one, or remove the line');
    if (word === 'host' || word === 'originalhost' || word === 'user' || word === 'localuser') out.push({ kind: word, patterns: list.split(','), negated });
    else out.push({ kind: 'never' });
  }
  return out;
}

/** A configuration file to read, and the folder its relative Include paths start from. */
export interface SshConfigFile {
  readonly path: string;
  readonly includeDir: string;
}

/** The files an Include word names, in order (a missing one names none, as for ssh). */
function includedFiles(word: string, user: SshConfigUser, includeDir: string): string[] {
  const path = word.startsWith('~/') ? join(user.home, word.slice(2)) : isAbsolute(word) ? word : join(includeDir, word);
  const base = basename(path);
  if (!/[*?]/.test(base)) return existsSync(path) ? [path] : [];
  const dir = dirname(path);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => globMatch(base, f) && statSync(join(dir, f)).isFile())
    .sort()
    .map((f) => join(dir, f));
}

export class SshConfig {
  private constructor(
    private readonly blocks: readonly Block[],
    private readonly user: SshConfigUser,
  ) {}

  /** Reads the configuration `files`, in order, and what they include; an InputError names a malformed line. */
  static read(files: readonly SshConfigFile[], user: SshConfigUser): SshConfig {
    const blocks: Block[] = [];
    const readFile = (file: string, includeDir: string, depth: number): void => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw unreadableFile(file, 'the ssh client configuration', err, { hint: 'check the path, or give "sshConfig": false in the real grid file' });
      }
      const lines = text.split(/\r?\n/);
      for (let n = 0; n < lines.length; n++) {
        const ws = words(lines[n]!, file, n + 1);
        if (ws.length === 0) continue;
        const keyword = ws[0]!.word.toLowerCase();
        const pos = { file, line: n + 1, column: ws[0]!.column };
        const args = ws.slice(1).map((w) => w.word);
        if (keyword === 'host') {
          blocks.push({ host: args, entries: [] });
        } else if (keyword === 'match') {
          blocks.push({ match: matchCriteria(args, pos), entries: [] });
        } else if (keyword === 'include') {
          if (depth >= MAX_INCLUDE_DEPTH) throw errorAt(pos, `Include nested more than ${MAX_INCLUDE_DEPTH} deep in the ssh client configuration`, 'look for a file that includes itself');
          for (const a of args) for (const f of includedFiles(a, user, includeDir)) readFile(f, includeDir, depth + 1);
        } else {
          const key = KEYWORDS[keyword];
          if (key === undefined) continue;
          if (args.length === 0) throw errorAt(pos, `${ws[0]!.word} without a value in the ssh client configuration`, 'give it a value, or remove the line');
          blocks[blocks.length - 1]!.entries.push({ key, words: args, pos });
        }
      }
    };
    for (const f of files) {
      // Each file starts as if under `Host *`, whatever block the one before ended in.
      blocks.push({ host: ['*'], entries: [] });
      readFile(f.path, f.includeDir, 0);
    }
    return new SshConfig(blocks, user);
  }

  /**
   * What the configuration says of the host `name` (as the grid file or a ProxyJump names it); `user`: the
   * user the grid file gives it, if any (Match user reads it, else the configuration's so far).
   */
  lookUp(name: string, user?: string): SshConfigHost {
    const found: { -readonly [K in keyof SshConfigHost]?: SshConfigValue } = {};
    // As ssh does, a Match reads the HostName and User found so far.
    const holds = (c: MatchCriterion): boolean => {
      if (c.kind === 'all') return true;
      if (c.kind === 'never') return false;
      const subject =
        c.kind === 'host'
          ? found.hostName
            ? expandTokens(found.hostName.value, { h: name }, found.hostName.pos)
            : name
          : c.kind === 'originalhost'
            ? name
            : c.kind === 'user'
              ? (user ?? found.user?.value ?? this.user.localUser)
              : this.user.localUser;
      return hostMatches(c.patterns, subject) !== c.negated;
    };
    for (const block of this.blocks) {
      if (block.host !== undefined ? !hostMatches(block.host, name) : !block.match!.every(holds)) continue;
      for (const e of block.entries) {
        if (found[e.key] !== undefined) continue;
        // ProxyCommand keeps its words (a command line); the others take their first.
        found[e.key] = { value: e.key === 'proxyCommand' ? e.words.join(' ') : e.words[0]!, words: e.words, pos: e.pos };
      }
    }
    if (found.hostName) found.hostName = { ...found.hostName, value: expandTokens(found.hostName.value, { h: name }, found.hostName.pos) };
    return found;
  }

  /** A path keyword's value with its tokens and a leading ~ expanded, for the host `name` reached as `remote`. */
  path(v: SshConfigValue, name: string, remote: SshRemote): string {
    return this.expandPath(v.value, v.pos, name, remote);
  }

  /** The same for every word of a keyword that lists paths (none for `none`). */
  paths(v: SshConfigValue, name: string, remote: SshRemote): string[] {
    if (v.words.length === 1 && v.words[0]!.toLowerCase() === 'none') return [];
    return v.words.map((w) => this.expandPath(w, v.pos, name, remote));
  }

  private expandPath(text: string, pos: SourcePos, name: string, remote: SshRemote): string {
    const expanded = expandTokens(text, { h: remote.host, p: String(remote.port), r: remote.user, u: this.user.localUser, n: name, d: this.user.home }, pos);
    return expanded === '~' ? this.user.home : expanded.startsWith('~/') ? join(this.user.home, expanded.slice(2)) : expanded;
  }
}

/** Replaces %x tokens by `values` (and %% by %); an unknown token is an error at the value. */
function expandTokens(text: string, values: Readonly<Record<string, string>>, pos: SourcePos): string {
  return text.replace(/%(.)/g, (whole, token: string) => {
    if (token === '%') return '%';
    const v = values[token];
    if (v === undefined) throw errorAt(pos, `the token ${whole} in the ssh client configuration is not one gridsweep expands here`, `write the value out, or use %h %p %r %u %n %d`);
    return v;
  });
}

/** One jump host of a ProxyJump: [user@]host[:port] or ssh://[user@]host[:port]. */
export interface ProxyJumpHop {
  readonly host: string;
  readonly user?: string;
  readonly port?: number;
}

/**
 * ProxyJump's value as the jump hosts it lists, in the order they are reached (`a,b`: a, then b through a,
 * then the host through b); undefined for "none".
 */
export function parseProxyJump(v: SshConfigValue): readonly ProxyJumpHop[] | undefined {
  if (v.value.toLowerCase() === 'none') return undefined;
  return v.value.split(',').map((hop) => {
    const m = /^(?:ssh:\/\/)?(?:([^@]+)@)?(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hop);
    if (!m) throw errorAt(v.pos, `ProxyJump ${v.value}: ${hop === '' ? 'an empty jump host' : `${hop} is not [user@]host[:port]`}`, 'write each jump host as [user@]host[:port], separated by commas');
    const port = m[3] === undefined ? undefined : Number(m[3]);
    if (port !== undefined && !(port >= 1 && port <= 65535)) throw errorAt(v.pos, `ProxyJump ${v.value}: the port of ${hop} is not 1 to 65535`, 'give a TCP port');
    return { host: m[2]!.replace(/^\[(.*)\]$/, '$1'), ...(m[1] !== undefined ? { user: m[1] } : {}), ...(port !== undefined ? { port } : {}) };
  });
}

/**
 * Whether StrictHostKeyChecking's value lets a host not yet known in: accept-new, and no or off (read as
 * accept-new: a changed key is refused all the same). yes and ask do not (a run cannot ask).
 */
export function acceptsNewHostKeys(v: SshConfigValue): boolean {
  const value = v.value.toLowerCase();
  if (value === 'accept-new' || value === 'no' || value === 'off') return true;
  if (value === 'yes' || value === 'ask') return false;
  throw errorAt(v.pos, `StrictHostKeyChecking ${v.value} in the ssh client configuration is not yes, ask, accept-new, no nor off`, 'give one of them');
}

/**
 * IdentityAgent's value: no agent ("none"), the one SSH_AUTH_SOCK names ("SSH_AUTH_SOCK" or
 * "$SSH_AUTH_SOCK"), or a socket's path (expanded by the caller, as other paths). Another variable is an error:
 * gridsweep reads no other from the environment.
 */
export function identityAgentKind(v: SshConfigValue): 'none' | 'environment' | 'path' {
  if (v.value.toLowerCase() === 'none') return 'none';
  if (v.value === 'SSH_AUTH_SOCK' || v.value === '$SSH_AUTH_SOCK' || v.value === '${SSH_AUTH_SOCK}') return 'environment';
  if (v.value.startsWith('$')) throw errorAt(v.pos, `IdentityAgent ${v.value}: gridsweep reads no variable but SSH_AUTH_SOCK for the agent's socket`, "write the socket's path");
  return 'path';
}

/** A yes/no keyword's value (`keyword` names it in the error). */
export function parseFlag(v: SshConfigValue, keyword: string): boolean {
  const value = v.value.toLowerCase();
  if (value === 'yes') return true;
  if (value === 'no') return false;
  throw errorAt(v.pos, `${keyword} ${v.value} in the ssh client configuration is not yes nor no`, 'give yes or no');
}

/** Port's value as a TCP port. */
export function parsePort(v: SshConfigValue): number {
  const port = Number(v.value);
  if (!/^\d+$/.test(v.value) || !(port >= 1 && port <= 65535)) throw errorAt(v.pos, `Port ${v.value} in the ssh client configuration is not a TCP port`, 'give a port, 1 to 65535');
  return port;
}
