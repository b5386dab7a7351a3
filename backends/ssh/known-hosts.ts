// Host-key checking as OpenSSH does it: against the user's known_hosts file and then the system-wide ones
// (read only; clusters often list their nodes' keys there), plain or hashed (|1|salt|hash) entries, with
// OpenSSH's "accept-new": an unknown host's key is added (hashed) to the user's file, a changed key is
// always refused. A key that any file holds for the host is accepted, even beside a different one.
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

/** The lines of a known_hosts file, none if it is missing or cannot be read (as ssh, which goes on). */
function linesOf(file: string): string[] {
  try {
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  } catch {
    return [];
  }
}

/**
 * Checks `keyBlob` offered by `name` against `file` and then `globalFiles`; with `acceptNew`, records a
 * host that none of them knows in `file`.
 */
export function checkHostKey(file: string, name: string, keyBlob: Buffer, acceptNew: boolean, globalFiles: readonly string[] = []): HostKeyVerdict {
  const type = keyTypeOf(keyBlob);
  const key = keyBlob.toString('base64');
  let known = false;
  let sameTypeMismatch: string | undefined;
  let otherTypesIn: string | undefined;
  let revokedIn: string | undefined;
  for (const f of [file, ...globalFiles]) {
    const lines = linesOf(f);
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
        if (fields[2] === key) revokedIn ??= `${f}:${i + 1}`;
        continue;
      }
      if (fields[1] === type && fields[2] === key) {
        known = true;
      } else if (fields[1] === type) {
        sameTypeMismatch ??= `${f}:${i + 1}`;
      } else {
        otherTypesIn ??= f;
      }
    }
  }
  // A revoked key is refused wherever it is also listed.
  if (revokedIn !== undefined) return { ok: false, reason: `the host key of ${name} is marked @revoked in ${revokedIn}` };
  if (known) return { ok: true, how: 'known' };
  if (sameTypeMismatch !== undefined) {
    return {
      ok: false,
      reason: `HOST KEY MISMATCH for ${name}: it offered a ${type} key different from ${sameTypeMismatch}. Someone may be intercepting the connection, or the host was reinstalled; if you trust the new key, remove that line.`,
    };
  }
  if (otherTypesIn !== undefined) {
    return { ok: false, reason: `${name} offered a ${type} key but ${otherTypesIn} holds other key types for it; add the ${type} key yourself if you trust it.` };
  }
  if (!acceptNew) {
    // The system-wide files this machine has are named too: the key may belong there.
    const searched = globalFiles.filter((g) => existsSync(g));
    const where = searched.length > 0 ? `${file} (nor in ${searched.join(', ')})` : file;
    return { ok: false, reason: `${name} is not in ${where}. Add its key (ssh-keyscan, or ssh to it once) or run with --accept-new.` };
  }
  const salt = randomBytes(20);
  const hash = createHmac('sha1', salt).update(name).digest('base64');
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `|1|${salt.toString('base64')}|${hash} ${type} ${key}\n`, { mode: 0o600 });
  return { ok: true, how: 'added' };
}
