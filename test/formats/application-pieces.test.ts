// An application description read a piece at a time (loadApplication streams the file) gives what the whole
// text gives: the same Application, the same errors at the same file:line:column, whatever the cuts — inside
// a token, between '\r' and '\n', inside a UTF-8 character. And the run-time lists Works share.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseApplication, readApplication } from '../../src/formats/application.js';
import { loadApplication } from '../../src/formats/index.js';
import { readDescriptionPieces } from '../../src/formats/load.js';
import { InputError } from '../../src/util/diagnostics.js';
import { Rng } from '../../src/util/rng.js';

const APPENDIX = readFileSync(new URL('../../apps/appendix-b.app', import.meta.url), 'utf8');

/** `text` cut at `cuts` random places (sorted, possibly repeated: empty pieces too). */
function cut(text: string, rng: Rng, cuts: number): string[] {
  const at = Array.from({ length: cuts }, () => rng.int(text.length + 1)).sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const k of at) {
    pieces.push(text.slice(from, k));
    from = k;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/** The Application, or the error messages with their positions. */
function outcome(read: () => unknown): unknown {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return err.diagnostics.map((d) => `${d.pos.file}:${d.pos.line}:${d.pos.column} ${d.message} | ${d.found ?? ''} | ${d.expected ?? ''} | ${d.hint ?? ''}`);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'gs-app-pieces-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an application description read in pieces', () => {
  const texts: [string, string][] = [
    ['the appendix example', APPENDIX],
    ['the appendix example with CRLF line ends and no final newline', APPENDIX.replace(/\n/g, '\r\n').trimEnd()],
    ['comments, blanks and a long name', `# sweep\n\nWorkDescription 1 2 1\n  # inputs\nFile: <0> <a-rather-long-input-file-name.dat> <10> <10>\nFile: 1 out 5 5\n\nWork: 0 <1 : 0> <1 : 1> <1 : 7.5> <1 : 7.5>`],
    ['errors: a bad count, an undeclared file, a duplicate id, a line cut short', 'WorkDescription 1 3 2\nFile: 0 a 1 1\nFile: 0 b 1 1\nWork: 0 <1: 9> <0 :> <1: 5> <1: 5>\nWork: 1 <1: 0> <0 :\n'],
    ['errors: no header, ids beyond any count', 'File: 99999999999 a 1 1\nWork: 0 <1: 99999999999> <0 :> <1: 5> <1: 5>\n'],
    ['a name with characters beyond ASCII', 'WorkDescription 1 1 1\nFile: 0 données-é€𝄞 1 1\nWork: 0 <1: 0> <0 :> <1: 5> <1: 5>\n'],
  ];
  for (const [what, text] of texts) {
    it(`${what}: the same outcome at any cuts`, () => {
      const whole = outcome(() => parseApplication(text, 'x.app'));
      const rng = new Rng(7);
      for (let trial = 0; trial < 40; trial++) {
        expect(outcome(() => readApplication(cut(text, rng, 1 + rng.int(12)), 'x.app'))).toEqual(whole);
      }
      expect(outcome(() => readApplication([...text], 'x.app'))).toEqual(whole); // one character a piece
    });
  }

  it('from a file, decoded as a whole read decodes it, at any piece size (characters split between reads, bad bytes)', () => {
    const rng = new Rng(11);
    const good = Buffer.from('WorkDescription 1 1 1\nFile: 0 é€𝄞-name 1 1\nWork: 0 <1: 0> <0 :> <1: 5> <1: 5>\n', 'utf8');
    for (let trial = 0; trial < 20; trial++) {
      // Random bytes after a valid start: truncated and invalid UTF-8 sequences included.
      const bytes = Buffer.concat([good, Buffer.from(Array.from({ length: 64 }, () => rng.int(256)))]);
      const path = join(dir, `t${trial}.app`);
      writeFileSync(path, bytes);
      const whole = readFileSync(path, 'utf8');
      for (const size of [1, 2, 3, 5, 64]) expect([...readDescriptionPieces(path, 'application description', size)].join('')).toBe(whole);
    }
    const path = join(dir, 'good.app');
    writeFileSync(path, APPENDIX);
    expect(loadApplication(path)).toEqual(parseApplication(APPENDIX, path));
  });

  it('a missing file is an InputError at line 1, column 1', () => {
    const path = join(dir, 'none.app');
    expect(outcome(() => loadApplication(path))).toEqual([`${path}:1:1 cannot read the application description (no such file) |  | a readable application description file | `]);
    expect(outcome(() => loadApplication(dir))).toEqual([`${dir}:1:1 cannot read the application description (it is a folder) |  | a readable application description file | `]);
  });
});

describe('the lists of a parsed application', () => {
  it('Works with the same run times share one list; inputs and outputs are their own', () => {
    const app = parseApplication('WorkDescription 1 4 3\nFile: 0 a 1 1\nFile: 1 b 1 1\nFile: 2 c 1 1\nFile: 3 d 1 1\nWork: 0 <1: 0> <1: 3> <1: 5> <1: 5>\nWork: 1 <1: 1> <1: 3> <1: 5> <1: 6>\nWork: 2 <2: 0 2> <0 :> <1: 6> <1: 5>\n', 'x.app');
    const [w0, w1, w2] = app.works as [(typeof app.works)[number], (typeof app.works)[number], (typeof app.works)[number]];
    // Every [5] is one array, every [6] another.
    expect(w0.runTimeS).toBe(w0.estRunTimeS);
    expect(w1.runTimeS).toBe(w0.runTimeS);
    expect(w1.estRunTimeS).toBe(w2.runTimeS);
    expect(w2.estRunTimeS).toBe(w0.runTimeS);
    expect(w1.estRunTimeS).toEqual([6]);
    expect(w0.outputs).not.toBe(w1.outputs);
    expect(w0.outputs).toEqual([3]);
    expect(w2.inputs).toEqual([0, 2]);
  });

  it('longer run-time lists are shared with the Work before when equal', () => {
    const app = parseApplication('WorkDescription 1 0 3\nWork: 0 <0 :> <0 :> <2: 5 7> <2: 5 7>\nWork: 1 <0 :> <0 :> <2: 5 7> <2: 5 8>\nWork: 2 <0 :> <0 :> <2: 5 8> <2: 5 8>\n', 'x.app');
    const [w0, w1, w2] = app.works as [(typeof app.works)[number], (typeof app.works)[number], (typeof app.works)[number]];
    expect(w0.estRunTimeS).toBe(w0.runTimeS);
    expect(w1.runTimeS).toBe(w0.runTimeS);
    expect(w1.estRunTimeS).toEqual([5, 8]);
    expect(w2.runTimeS).toBe(w1.estRunTimeS);
  });
});
