// A JSON reader that remembers where every value starts, so that schema errors (which name a JSON path)
// can be reported as file:line:column. Used for sweep files and real grid files.
import type { SourcePos } from '../model/grid.js';
import { readFileSync } from 'node:fs';
import { InputError, unreadableFile } from '../util/diagnostics.js';

export interface JsonSource {
  readonly file: string;
  readonly value: unknown;
  /** Where the value at a JSON pointer ('' for the whole document, '/a/0/b') starts; the nearest parent if unknown. */
  positionOf(pointer: string): SourcePos;
  /** Where the property name of the member at `pointer` starts (its value's place when unknown). */
  keyPositionOf(pointer: string): SourcePos;
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Parses `text` (the content of `file`) or throws an InputError naming the line and column of the fault. */
export function parseJsonSource(text: string, file: string): JsonSource {
  const positions = new Map<string, SourcePos>();
  const keyPositions = new Map<string, SourcePos>();
  let i = 0;
  let line = 1;
  let lineStart = 0;

  const here = (): SourcePos => ({ file, line, column: i - lineStart + 1 });
  const fail = (message: string, expected: string): never => {
    const found = i >= text.length ? 'end of file' : JSON.stringify(text[i]);
    throw new InputError([
      { severity: 'error', pos: here(), message: `invalid JSON: ${message}`, found, expected, hint: 'fix the JSON syntax at this place' },
    ]);
  };
  const skipSpace = (): void => {
    while (i < text.length) {
      const c = text[i];
      if (c === '\n') {
        i++;
        line++;
        lineStart = i;
      } else if (c === ' ' || c === '\t' || c === '\r') i++;
      else break;
    }
  };
  const parseString = (): string => {
    const start = i;
    i++; // opening quote
    let out = '';
    while (true) {
      if (i >= text.length) {
        i = start;
        return fail('string never closed', 'a closing "');
      }
      const c = text[i]!;
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\n') return fail('line break inside a string', '\\n written as an escape');
      if (c === '\\') {
        const e = text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && simple[e] !== undefined) {
          out += simple[e];
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          i++;
          return fail('bad escape in string', 'one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX');
        }
      } else {
        out += c;
        i++;
      }
    }
  };
  const parseValue = (pointer: string): unknown => {
    skipSpace();
    positions.set(pointer, here());
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      skipSpace();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      while (true) {
        skipSpace();
        if (text[i] !== '"') return fail('expected a property name', 'a "quoted" property name');
        const keyPos = here();
        const key = parseString();
        if (Object.prototype.hasOwnProperty.call(obj, key)) {
          throw new InputError([
            { severity: 'error', pos: keyPos, message: `property "${key}" appears twice`, hint: 'keep only one of them' },
          ]);
        }
        skipSpace();
        if (text[i] !== ':') return fail('expected ":" after a property name', '":"');
        i++;
        keyPositions.set(`${pointer}/${escapePointerToken(key)}`, keyPos);
        obj[key] = parseValue(`${pointer}/${escapePointerToken(key)}`);
        skipSpace();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        return fail('expected "," or "}" in an object', '"," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      skipSpace();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      while (true) {
        arr.push(parseValue(`${pointer}/${arr.length}`));
        skipSpace();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        return fail('expected "," or "]" in an array', '"," or "]"');
      }
    }
    if (c === '"') return parseString();
    const literal = /^(true|false|null|-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)/.exec(text.slice(i, i + 400));
    if (literal) {
      i += literal[0].length;
      const w = literal[0];
      return w === 'true' ? true : w === 'false' ? false : w === 'null' ? null : Number(w);
    }
    return fail('expected a value', 'an object, array, string, number, true, false or null');
  };

  if (text.charCodeAt(0) === 0xfeff) i = 1;
  const value = parseValue('');
  skipSpace();
  if (i < text.length) fail('extra text after the JSON document', 'end of file');

  const positionOf = (pointer: string): SourcePos => {
    let p = pointer;
    while (true) {
      const pos = positions.get(p);
      if (pos) return pos;
      if (p === '') return { file, line: 1, column: 1 };
      p = p.slice(0, p.lastIndexOf('/'));
    }
  };
  return {
    file,
    value,
    positionOf,
    keyPositionOf: (pointer: string): SourcePos => keyPositions.get(pointer) ?? positionOf(pointer),
  };
}

/** A JSON input's text; a file that cannot be read is an InputError naming `what` it should have been. */
export function readJsonText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadableFile(path, what, err, { hint: 'check the path' });
  }
}
