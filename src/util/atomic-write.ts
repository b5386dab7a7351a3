// Outputs are written under a temporary name and renamed, so a reader never sees half a file; the folder
// an output is asked for is made if it is missing (`-o out/run.html` works on a fresh clone).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The temporary name an output is written under until it is complete; its folder is made if missing. */
export function temporaryName(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  return `${path}.${process.pid}.tmp`;
}

export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const tmp = temporaryName(path);
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = temporaryName(path);
  await writeFile(tmp, data);
  await rename(tmp, path);
}
