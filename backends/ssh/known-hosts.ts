// Host-key checking against an OpenSSH known_hosts file, plain or hashed (|1|salt|hash) entries, with
// OpenSSH's "accept-new": an unknown host's key is added (hashed), a changed key is always refused.
import { createHmac, randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** How OpenSSH names a host in known_hosts: the bare address on port 22, `[address]:port` otherwise. */
export function knownHostsName(address: string, port: number): string {
  return port === 22 ? address : `[${address}]:${port}`;
}

/** The key type named at the start of an SSH public-key blob (e.g. "ssh-ed25519"). */
export function keyTypeOf(blob: Buffer): string {
  const len = blob.readUInt32BE(0);
  return blob.subarray(4, 4 + len).toString('latin1');
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

function hostFieldMatches(field: string, name: string): boolean {
  if (field.startsWith('|1|')) {
    const [, , salt, hash] = field.split('|');
    if (!salt || !hash) return false;
    const mac = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64');
    return mac === hash;
  }
  let matched = false;
  for (const pattern of field.split(',')) {
    if (pattern.startsWith('!')) {
      if (globToRegExp(pattern.slice(1)).test(name)) return false;
    } else if (globToRegExp(pattern).test(name)) matched = true;
  }
  return matched;
}

export type HostKeyVerdict =
  | { readonly ok: true; readonly how: 'known' | 'added' }
  | { readonly ok: false; readonly reason: string };

/** Checks `keyBlob` offered by `name` against `file`; with `acceptNew`, records a host seen for the first time. */
export function checkHostKey(file: string, name: string, keyBlob: Buffer, acceptNew: boolean): HostKeyVerdict {
  const type = keyTypeOf(keyBlob);
  const key = keyBlob.toString('base64');
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  let sameTypeMismatch: number | undefined;
  let anyEntry = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    let fields = line.split(/\s+/);
    let marker: string | undefined;
    if (fields[0]!.startsWith('@')) {
      marker = fields[0];
      fields = fields.slice(1);
    }
    if (fields.length < 3 || !hostFieldMatches(fields[0]!, name)) continue;
    if (marker === '@cert-authority') continue;
    if (marker === '@revoked') {
      if (fields[2] === key) return { ok: false, reason: `the host key of ${name} is marked @revoked in ${file}:${i + 1}` };
      continue;
    }
    anyEntry = true;
    if (fields[1] === type && fields[2] === key) return { ok: true, how: 'known' };
    if (fields[1] === type) sameTypeMismatch = i + 1;
  }
  if (sameTypeMismatch !== undefined) {
    return {
      ok: false,
      reason: `HOST KEY MISMATCH for ${name}: it offered a ${type} key different from ${file}:${sameTypeMismatch}. Someone may be intercepting the connection, or the host was reinstalled; if you trust the new key, remove that line.`,
    };
  }
  if (anyEntry) {
    return { ok: false, reason: `${name} offered a ${type} key but ${file} holds other key types for it; add the ${type} key yourself if you trust it.` };
  }
  if (!acceptNew) {
    return { ok: false, reason: `${name} is not in ${file}. Add its key (ssh-keyscan, or ssh to it once) or run with --accept-new.` };
  }
  const salt = randomBytes(20);
  const hash = createHmac('sha1', salt).update(name).digest('base64');
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `|1|${salt.toString('base64')}|${hash} ${type} ${key}\n`, { mode: 0o600 });
  return { ok: true, how: 'added' };
}
