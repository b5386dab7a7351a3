// Outputs are written under a temporary name and renamed, so a reader never sees half a file; the folder
// an output is asked for is made if it is missing (`-o out/run.html` works on a fresh clone). An output
// that cannot be put in place leaves nothing behind: its temporary file is removed. A path that names a
// folder is refused before anything is written, so a long run does not end on it.
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileErrorReason } from './diagnostics.js';

/** A file system error on an output, in words that name the output (not its temporary name). */
function outputError(path: string, err: unknown): Error {
  const e = err as NodeJS.ErrnoException;
  // Keeps code, errno and syscall: callers tell a full disk or a read-only origin by them.
  return Object.assign(new Error(`cannot write ${path} (${fileErrorReason(err)})`), { code: e.code, errno: e.errno, syscall: e.syscall ?? 'write', path });
}

/** The temporary name an output is written under until it is complete; its folder is made if missing. */
export function temporaryName(path: string): string {
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    // not there yet, as usual
  }
  if (isFolder) throw outputError(path, Object.assign(new Error('EISDIR'), { code: 'EISDIR', syscall: 'open' }));
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (err) {
    throw outputError(path, err);
  }
  return `${path}.${process.pid}.tmp`;
}

/** Renames a complete temporary file into place; if that fails, removes it and throws an error naming `path`. */
export function moveIntoPlace(tmp: string, path: string): void {
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw outputError(path, err);
  }
}

export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const tmp = temporaryName(path);
  try {
    writeFileSync(tmp, data);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw outputError(path, err);
  }
  moveIntoPlace(tmp, path);
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = temporaryName(path);
  try {
    await writeFile(tmp, data);
  } catch (err) {
    await rm(tmp, { force: true });
    throw outputError(path, err);
  }
  moveIntoPlace(tmp, path);
}
