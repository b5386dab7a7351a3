// Sizes, times and counts beyond 2^53 − 1 (past which a double no longer holds every whole number) are
// refused by every description parser and the SWF reader, at file:line:column, as too large; the limit
// itself is accepted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SwfReader } from '../../src/batch/swf/reader.js';
import { parseApplication, parseGridEvents, parseHostBehavior, parseLinkBehavior } from '../../src/formats/index.js';
import { InputError } from '../../src/util/diagnostics.js';
import { MAX_EXACT } from '../../src/util/exact-limit.js';
import { errorLines, inputErrors, theError } from './helpers.js';

// 2^53 − 1 = 9007199254740991 is the last accepted value. 9007199254740992 (2^53) and 9007199254740993
// (which a double reads as 2^53) are refused; so are 1e20 and 1e308 (finite, far beyond).
const LIMIT = '9007199254740991';
const BEYOND = ['9007199254740992', '9007199254740993', '1e20', '1e308'];

const app = (size: string, runTime: string) =>
  `WorkDescription 1 1 1\nFile: <0> <a> <${size}> <1>\nWork: <0> <1 : 0> <0 :> <1 : ${runTime}> <1 : 5>\n`;

describe('the 2^53 limit on description files', () => {
  it('is Number.MAX_SAFE_INTEGER', () => {
    expect(MAX_EXACT).toBe(2 ** 53 - 1);
    expect(Number(LIMIT)).toBe(MAX_EXACT);
  });

  it('application: a file size and a run time at the limit are read as written', () => {
    const a = parseApplication(app(LIMIT, LIMIT), 'a.app');
    expect(a.files[0]!.sizeBytes).toBe(MAX_EXACT);
    expect(a.works[0]!.runTimeS[0]).toBe(MAX_EXACT);
  });

  it('application: a file size beyond the limit is refused where it is written', () => {
    for (const v of BEYOND) {
      // "File: <0> <a> <" is 15 characters: the size starts at column 16.
      const d = inputErrors(() => parseApplication(app(v, '5'), 'a.app'));
      expect(errorLines(d)).toEqual(['2:16 file size (bytes) is too large']);
      expect(d[0]).toMatchObject({ pos: { file: 'a.app' }, found: `'${v}'` });
      expect(d[0]!.expected).toBe('a number, 0 or more, at most 2^53 − 1 = 9007199254740991');
      expect(d[0]!.hint).toContain('2^53');
    }
  });

  it('application: a run time beyond the limit is refused, one of 1e11 s is not', () => {
    // "Work: <0> <1 : 0> <0 :> <1 : " is 29 characters: the run time starts at column 30.
    const d = inputErrors(() => parseApplication(app('1', '1e16'), 'a.app'));
    expect(errorLines(d)).toEqual(['3:30 run time (s) is too large']);
    expect(parseApplication(app('1', '1e11'), 'a.app').works[0]!.runTimeS[0]).toBe(1e11);
  });

  it('application: a count or id beyond the limit is too large, not merely out of range', () => {
    const d = inputErrors(() => parseApplication('WorkDescription 1 1e300 0\n', 'a.app'));
    // "WorkDescription 1 " is 18 characters: the file count starts at column 19.
    expect(theError(d, 'too large')).toMatchObject({ pos: { line: 1, column: 19 }, message: 'file count is too large' });
  });

  it('grid: an event time beyond the limit', () => {
    const d = inputErrors(() => parseGridEvents('GridDescription 1\n0:ADD_CLUSTER c1 l 0\n1e17:REMOVE_CLUSTER c1\n', 'g.grid'));
    expect(errorLines(d)).toEqual(['3:1 time is too large']);
    expect(d[0]).toMatchObject({ pos: { file: 'g.grid' }, found: "'1e17'" });
  });

  it('grid: an offset beyond the limit', () => {
    // "0:ADD_CLUSTER c1 l " is 19 characters: the offset starts at column 20.
    const d = inputErrors(() => parseGridEvents('GridDescription 1\n0:ADD_CLUSTER c1 l 9007199254740992\n', 'g.grid'));
    expect(errorLines(d)).toEqual(['2:20 offset is too large']);
  });

  it('behaviours: a bandwidth and a latency beyond the limit, a sample count too', () => {
    const link = inputErrors(() => parseLinkBehavior('2\n50 1e20\n1e300 100\n', 'l', 'l'));
    expect(errorLines(link)).toEqual(['2:4 bandwidth (bytes/s) is too large', '3:1 latency (ms) is too large']);
    const host = inputErrors(() => parseHostBehavior('1e16\n50\n', 'h', 'h'));
    expect(errorLines(host)).toEqual(['1:1 sample count is too large']);
    // A percentage keeps its own range in the message (its maximum, 100, is far below the limit).
    const pct = inputErrors(() => parseHostBehavior('1\n1e20\n', 'h', 'h'));
    expect(pct[0]).toMatchObject({ message: 'CPU availability (%) is too large', expected: 'a number from 0 to 100' });
  });
});

describe('the 2^53 limit on SWF traces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gs-exact-swf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function read(text: string): number[][] {
    const path = join(dir, 't.swf');
    writeFileSync(path, text);
    const reader = new SwfReader(path);
    const rows: number[][] = [];
    while (reader.next()) rows.push([...reader.fields]);
    return rows;
  }

  const job = (runTime: string) => `1 0 -1 ${runTime} 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n`;

  it('a run time at the limit is read as written', () => {
    expect(read(job(LIMIT))[0]![3]).toBe(MAX_EXACT);
  });

  it('a run time beyond the limit is refused at its column, naming the field', () => {
    for (const v of ['9007199254740992', '9007199254740993', '100000000000000000000']) {
      let err: unknown;
      try {
        read(`; header\n${job(v)}`);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      // "1 0 -1 " is 7 characters: field 4 starts at column 8.
      expect((err as InputError).diagnostics[0]).toMatchObject({
        pos: { line: 2, column: 8 },
        message: 'field 4 (run time) is too large',
        expected: 'a value up to 2^53 − 1 = 9007199254740991, or -1 if unknown',
        found: `'${v}'`,
      });
    }
  });
});
