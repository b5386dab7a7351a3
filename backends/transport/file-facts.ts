// Size and SHA-256 of a file: what a task's output must match at the origin before the task counts as done.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

export interface FileFacts {
  readonly sizeBytes: number;
  readonly sha256: string;
}

export async function fileFacts(path: string): Promise<FileFacts> {
  const st = await stat(path);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { sizeBytes: st.size, sha256: hash.digest('hex') };
}

export function bufferFacts(data: Buffer): FileFacts {
  return { sizeBytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
}

export function sameFacts(a: FileFacts, b: FileFacts): boolean {
  return a.sizeBytes === b.sizeBytes && a.sha256 === b.sha256;
}

/** A file's facts, or undefined when it does not exist or cannot be read. */
export async function fileFactsIfPresent(path: string): Promise<FileFacts | undefined> {
  try {
    return await fileFacts(path);
  } catch {
    return undefined;
  }
}
