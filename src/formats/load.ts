// Reading descriptions from disk (a grid with every behaviour file it names) and writing a grid back.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { dirname, isAbsolute, join } from 'node:path';
import type { Application } from '../model/application.js';
import type { GridDescription, HostBehavior, LinkBehavior } from '../model/grid.js';
import { writeFileAtomicSync } from '../util/atomic-write.js';
import { InputError, unreadableFile, type Diagnostic } from '../util/diagnostics.js';
import { readApplication, writeApplication } from './application.js';
import { parseHostBehavior, parseLinkBehavior, writeHostBehavior, writeLinkBehavior } from './behavior.js';
import { parseGridEventsDetailed, writeGridEvents } from './grid-events.js';
import { closestName } from '../util/names.js';

/** A missing or unreadable description file, as an InputError naming it. */
function unreadable(path: string, what: string, err: unknown): InputError {
  return unreadableFile(path, `the ${what}`, err, { expected: `a readable ${what} file` });
}

/** The text of a description file; a missing or unreadable file is an InputError naming it. */
export function readDescription(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadable(path, what, err);
  }
}

/** Bytes read at a time by readDescriptionPieces. */
const PIECE_BYTES = 1 << 20;

/**
 * The text of a description file, decoded as readDescription decodes it, a piece at a time (a character
 * split between two reads goes with the second): a large file is never held whole.
 */
export function* readDescriptionPieces(path: string, what: string, pieceBytes = PIECE_BYTES): Generator<string> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw unreadable(path, what, err);
  }
  try {
    const buffer = Buffer.allocUnsafe(pieceBytes);
    const decoder = new StringDecoder('utf8');
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, pieceBytes, null);
      } catch (err) {
        throw unreadable(path, what, err);
      }
      if (n === 0) break;
      const piece = decoder.write(buffer.subarray(0, n));
      if (piece !== '') yield piece;
    }
    const rest = decoder.end();
    if (rest !== '') yield rest;
  } finally {
    closeSync(fd);
  }
}

/** Reads an application description a piece at a time (readApplication): a million Works need no 150 MB string. */
export function loadApplication(path: string): Application {
  return readApplication(readDescriptionPieces(path, 'application description'), path);
}

/** Where a behaviour named in a grid file lives: relative names are relative to the grid file's folder. */
export function behaviorPath(gridPath: string, name: string): string {
  return isAbsolute(name) ? name : join(dirname(gridPath), name);
}

export function loadGrid(path: string): { grid: GridDescription; warnings: Diagnostic[] } {
  const parsed = parseGridEventsDetailed(readDescription(path, 'grid description'), path);
  const errors: Diagnostic[] = [];
  const warnings = [...parsed.warnings];
  const linkBehaviors = new Map<string, LinkBehavior>();
  const hostBehaviors = new Map<string, HostBehavior>();
  const seen = new Set<string>();
  for (const ref of parsed.behaviorRefs) {
    if (seen.has(ref.name)) continue;
    seen.add(ref.name);
    const file = behaviorPath(path, ref.name);
    if (!existsSync(file) || !statSync(file).isFile()) {
      const near = siblingSuggestion(file);
      errors.push({
        severity: 'error',
        pos: ref.pos,
        message: `${ref.kind} behaviour file not found: tried '${file}'`,
        found: `'${ref.name}'`,
        expected: `the name of a ${ref.kind} behaviour file in the grid file's folder`,
        hint: near !== undefined ? `did you mean '${near}'?` : `create '${file}' (a sample count line, then the samples)`,
      });
      continue;
    }
    try {
      const text = readDescription(file, `${ref.kind} behaviour file`);
      if (ref.kind === 'link') linkBehaviors.set(ref.name, parseLinkBehavior(text, file, ref.name));
      else hostBehaviors.set(ref.name, parseHostBehavior(text, file, ref.name));
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      for (const d of err.diagnostics) (d.severity === 'error' ? errors : warnings).push(d);
    }
  }
  if (errors.length > 0) throw new InputError([...errors, ...warnings]);
  return { grid: { version: parsed.version, events: parsed.events, linkBehaviors, hostBehaviors }, warnings };
}

function siblingSuggestion(file: string): string | undefined {
  try {
    const base = file.slice(dirname(file).length + 1);
    return closestName(base, readdirSync(dirname(file)));
  } catch {
    return undefined;
  }
}

/**
 * Writes `grid` as `dir/gridFileName` plus one file per behaviour (named by its key, relative to `dir`).
 * Every text is produced before anything is written, and each file is written atomically.
 */
export function writeGrid(dir: string, gridFileName: string, grid: GridDescription): void {
  const outputs: [string, string][] = [];
  for (const [name, b] of grid.linkBehaviors) outputs.push([join(dir, name), writeLinkBehavior(b)]);
  for (const [name, b] of grid.hostBehaviors) {
    if (grid.linkBehaviors.has(name)) throw new Error(`behaviour '${name}' is both a link and a host behaviour`);
    outputs.push([join(dir, name), writeHostBehavior(b)]);
  }
  outputs.push([join(dir, gridFileName), writeGridEvents(grid.version, grid.events)]);
  for (const [path, text] of outputs) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomicSync(path, text);
  }
}

/** Writes an application description atomically. */
export function saveApplication(path: string, app: Application): void {
  const text = writeApplication(app);
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, text);
}
