// The ProxyCommands that are a jump host written out, as older ssh configurations and many clusters' user
// guides give them: `ssh -W %h:%p login` (or `ssh login -W %h:%p`), and `ssh login nc %h %p`, with
// `exec` before, the options -q -x -T -a -C -4 -6, and -p PORT, -l USER and -i KEY. Such a command
// opens, through `login`, a channel to the host's own address and port: what a jump host does, so it is
// read as one. gridsweep runs no command, so any other ProxyCommand stays refused by the caller.
import { basename } from 'node:path';
import type { SshConfigValue } from './ssh-config.js';

/** A ProxyCommand read as a jump host; `identityFile` as written, at the command's place (the caller expands it). */
export interface ProxyCommandHop {
  readonly host: string;
  readonly user?: string;
  readonly port?: number;
  readonly identityFile?: SshConfigValue;
}

const FLAGS = new Set(['-q', '-x', '-T', '-a', '-C', '-4', '-6']);

/** The jump host `v` (a ProxyCommand) stands for, or undefined if it is not one of the forms above. */
export function proxyCommandHop(v: SshConfigValue): ProxyCommandHop | undefined {
  const words = v.words[0] === 'exec' ? v.words.slice(1) : v.words;
  if (words.length === 0 || basename(words[0]!) !== 'ssh') return undefined;
  let destination: string | undefined;
  let forwards = false;
  let user: string | undefined;
  let port: number | undefined;
  let identityFile: SshConfigValue | undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (FLAGS.has(w)) continue;
    if (w === '-W' && (words[i + 1] === '%h:%p' || words[i + 1] === '[%h]:%p')) {
      forwards = true;
      i++;
    } else if (w === '-p' || w === '-l' || w === '-i') {
      const arg = words[++i];
      if (arg === undefined) return undefined;
      if (w === '-p') {
        port = Number(arg);
        if (!/^\d+$/.test(arg) || !(port >= 1 && port <= 65535)) return undefined;
      } else if (w === '-l') {
        user = arg;
      } else {
        identityFile = { value: arg, words: [arg], pos: v.pos };
      }
    } else if (destination === undefined && !w.startsWith('-') && !w.includes('%')) {
      destination = w;
      // `nc %h %p` after the destination: the remote command that forwards.
      if (words.length === i + 4 && words[i + 1] === 'nc' && words[i + 2] === '%h' && words[i + 3] === '%p') {
        forwards = true;
        break;
      }
    } else {
      return undefined;
    }
  }
  if (destination === undefined || !forwards) return undefined;
  const at = destination.lastIndexOf('@');
  if (at >= 0) user ??= destination.slice(0, at);
  const host = destination.slice(at + 1);
  if (host === '' || host.includes(':')) return undefined;
  return { host, ...(user !== undefined ? { user } : {}), ...(port !== undefined ? { port } : {}), ...(identityFile !== undefined ? { identityFile } : {}) };
}
