// Outputs are written under a temporary name and renamed, so a reader never sees half a file.
import { renameSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';

function temporaryName(path: string): string {
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
