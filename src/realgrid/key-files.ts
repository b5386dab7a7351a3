// What can be read of an SSH private key file without its passphrase: whether it has one, and its public
// half, which an OpenSSH-format file keeps unencrypted in its header (as the .pub file beside it does).
// ssh reads the public half to find the agent's copy of a configured key it cannot decrypt itself.
import { readFileSync } from 'node:fs';

/** The unencrypted header of an OpenSSH-format private key: its cipher ("none": no passphrase) and first public key. */
interface OpenSshHeader {
  readonly cipher: string;
  readonly publicKey: Buffer | undefined;
}

const MAGIC = 'openssh-key-v1\0';

/** The header of an OpenSSH-format key file's text; undefined for another format (PEM) or a malformed one. */
function openSshHeader(text: string): OpenSshHeader | undefined {
  const body = /-----BEGIN OPENSSH PRIVATE KEY-----([\s\S]*?)-----END OPENSSH PRIVATE KEY-----/.exec(text)?.[1];
  if (body === undefined) return undefined;
  const bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (bytes.length < MAGIC.length + 4 || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  // The magic, then as SSH strings the cipher, the KDF and its options; then the number of keys and the
  // first public key, a string too.
  let at = MAGIC.length;
  const strings: Buffer[] = [];
  for (let k = 0; k < 3; k++) {
    if (at + 4 > bytes.length) return undefined;
    const length = bytes.readUInt32BE(at);
    if (at + 4 + length > bytes.length) return undefined;
    strings.push(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  const cipher = strings[0]!.toString('latin1');
  if (at + 8 > bytes.length || bytes.readUInt32BE(at) < 1) return { cipher, publicKey: undefined };
  const length = bytes.readUInt32BE(at + 4);
  const publicKey = at + 8 + length <= bytes.length ? Buffer.from(bytes.subarray(at + 8, at + 8 + length)) : undefined;
  return { cipher, publicKey };
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether a private key file is protected by a passphrase (OpenSSH's format or PEM); false if unreadable. */
export function isEncryptedKeyFile(path: string): boolean {
  const text = readText(path);
  if (text === undefined) return false;
  if (/Proc-Type:\s*4,ENCRYPTED|-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(text)) return true;
  const header = openSshHeader(text);
  return header !== undefined && header.cipher !== 'none';
}

/**
 * The public key (its SSH wire form) of the private key file at `path`: from the .pub file beside it, as ssh
 * reads it, else from the key file's OpenSSH header; undefined when neither says (a PEM key without .pub).
 */
export function publicKeyOf(path: string): Buffer | undefined {
  const pub = readText(`${path}.pub`)?.trim().split(/\s+/)[1];
  if (pub !== undefined && /^[A-Za-z0-9+/]+=*$/.test(pub)) return Buffer.from(pub, 'base64');
  const text = readText(path);
  return text === undefined ? undefined : openSshHeader(text)?.publicKey;
}
