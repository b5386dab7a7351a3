// A finished task's outputs arriving at the origin: each checked against the size and SHA-256 its host
// reported before it counts (fetched again if not, up to FETCH_ATTEMPTS times), and written beside its
// place, then renamed, so that an output is never half there. A write the origin's file system refuses
// (full, read-only...) throws an OriginWriteError: the origin's failure, not the cluster's.
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import type { Endpoint } from '../transport/endpoint.js';
import { bufferFacts, fileFacts, sameFacts } from '../transport/file-facts.js';
import type { OutputFacts } from './journal.js';
import { mkdirAtOrigin, mkdirAtOriginAsync, refusedRoom, writingAtOrigin, writingAtOriginAsync } from './origin-failure.js';

const FETCH_ATTEMPTS = 3;

/** A task attempt's outputs as its host reported them. */
export interface ReportedOutputs {
  readonly workKey: string;
  readonly outputs: readonly OutputFacts[];
  /** The outputs' bytes that came back with the task's exit (small ones, through the agent). */
  readonly outputData?: readonly (Buffer | undefined)[];
}

/** The size and SHA-256 of each of a finished attempt's outputs, measured on its host; undefined when one is missing. */
export async function reportedOutputs(e: Endpoint, workKey: string, paths: readonly string[]): Promise<OutputFacts[] | undefined> {
  const facts = await e.outputFacts(workKey, paths);
  if (facts.some((f) => f === undefined)) return undefined;
  return paths.map((path, i) => ({ path, ...facts[i]! }));
}

/**
 * Puts the outputs whose bytes came back with the task's exit at the origin. Small files, so written at
 * once rather than through the thread pool. Returns the indices of the outputs placed.
 */
export function placeArrivedOutputs(originDir: string, done: ReportedOutputs): Set<number> {
  const placed = new Set<number>();
  done.outputs.forEach((o, i) => {
    const data = done.outputData?.[i];
    if (data === undefined || !sameFacts(bufferFacts(data), o)) return;
    const dest = resolve(originDir, o.path);
    writingAtOrigin('an output', dest, () => {
      try {
        try {
          writeFileSync(`${dest}.gridsweep-part`, data);
        } catch (err) {
          // Its directory is made only when missing: one system call less per output in the usual case.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          mkdirAtOrigin('an output', dirname(dest));
          writeFileSync(`${dest}.gridsweep-part`, data);
        }
        renameSync(`${dest}.gridsweep-part`, dest);
      } catch (err) {
        // a half-written part would only hold the space the next run needs
        rmSync(`${dest}.gridsweep-part`, { force: true });
        throw err;
      }
    });
    placed.add(i);
  });
  return placed;
}

/** Fetches the outputs (but those `placed` already) through `e`; `deadlineS` gives a fetch's deadline from its size. */
export async function fetchVerifiedOutputs(originDir: string, e: Endpoint, done: ReportedOutputs, deadlineS: (sizeBytes: number) => number, placed: ReadonlySet<number> = new Set()): Promise<void> {
  for (const [i, o] of done.outputs.entries()) {
    if (placed.has(i)) continue;
    const dest = resolve(originDir, o.path);
    const part = `${dest}.gridsweep-part`;
    await mkdirAtOriginAsync('an output', dirname(dest));
    let lastProblem = '';
    let ok = false;
    for (let attempt = 0; attempt < FETCH_ATTEMPTS && !ok; attempt++) {
      // The endpoint writes `part` at the origin: a refusal there is the origin's failure.
      await writingAtOriginAsync('an output', dest, () => e.fetch(done.workKey, o.path, part, deadlineS(o.sizeBytes))).catch(async (err: unknown) => {
        await rm(part, { force: true });
        throw err;
      });
      const got = await fileFacts(part);
      if (sameFacts(got, o)) ok = true;
      else {
        lastProblem = `${o.path}: received ${got.sizeBytes} bytes sha256 ${got.sha256}, the host reported ${o.sizeBytes} bytes sha256 ${o.sha256}`;
        if (got.sizeBytes < o.sizeBytes) {
          // Short: a full origin, which SFTP does not report? Then it is the origin's failure.
          const full = refusedRoom('an output', dest, part, o.sizeBytes - got.sizeBytes);
          if (full) {
            await rm(part, { force: true });
            throw full;
          }
        }
      }
    }
    if (!ok) {
      await rm(part, { force: true });
      throw new Error(`verification failed ${FETCH_ATTEMPTS} times; ${lastProblem}`);
    }
    await writingAtOriginAsync('an output', dest, () => rename(part, dest));
  }
}

/** What a path at the origin is now: a folder, another kind of file, or nothing. */
function kindAt(path: string): 'folder' | 'file' | 'none' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'none';
  }
}

/**
 * Why one of these outputs could not be put in its place at the origin (a folder where the output goes, or a
 * file where one of its folders goes), or undefined. Checked before a run starts, so that no task runs
 * for an output the origin cannot take.
 */
export function blockedOutput(originDir: string, outputPaths: Iterable<string>): string | undefined {
  const folders = new Map<string, 'folder' | 'file' | 'none'>();
  for (const path of outputPaths) {
    const dest = resolve(originDir, path);
    if (kindAt(dest) === 'folder') return `output '${path}' cannot be written at the origin: it is a folder`;
    for (let dir = dirname(dest); dir !== originDir && dir !== dirname(dir); dir = dirname(dir)) {
      let kind = folders.get(dir);
      if (kind === undefined) folders.set(dir, (kind = kindAt(dir)));
      if (kind === 'file') return `output '${path}' cannot be written at the origin: ${relative(originDir, dir)} is a file, not a folder`;
      if (kind === 'folder') break;
    }
  }
  return undefined;
}
