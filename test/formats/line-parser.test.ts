// The tokenizer, the grammars (unambiguous on real lines) and the compatibility check.
import { describe, expect, it } from 'vitest';
import nearley from 'nearley';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import applicationGrammar from '../../src/formats/generated/application.js';
import gridGrammar from '../../src/formats/generated/grid.js';
import { checkCompatibility, loadApplication, loadGrid, parseApplication } from '../../src/formats/index.js';
import { LineTokens, ReplayLexer, tokenizeLine } from '../../src/formats/line-lexer.js';
import { LineParser } from '../../src/formats/line-parser.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { Rng } from '../../src/util/rng.js';

const APP = join(PACKAGE_ROOT, 'apps/appendix-b.app');
const GRID = join(PACKAGE_ROOT, 'griddescs/appendix-a/appendix-a.grid');

function nearleyResults(compiled: unknown, start: string, line: string): unknown[] {
  const grammar = nearley.Grammar.fromCompiled({ ...(compiled as object), ParserStart: start } as nearley.CompiledRules);
  const parser = new nearley.Parser(grammar, { lexer: new ReplayLexer(tokenizeLine(line)) as unknown as nearley.Lexer });
  parser.feed('');
  return parser.results;
}

describe('tokens and grammars', () => {
  it('splits a grid event into typed tokens with columns', () => {
    expect(tokenizeLine('0:ADD_HOST <cluster3> <host3.1> <-1.5e3>').map((t) => `${t.type}:${t.value}@${t.col}`)).toEqual([
      'NUMBER:0@1',
      'COLON::@2',
      'NAME:ADD_HOST@3',
      'LT:<@12',
      'NAME:cluster3@13',
      'GT:>@21',
      'LT:<@23',
      'NAME:host3.1@24',
      'GT:>@31',
      'LT:<@33',
      'NUMBER:-1.5e3@34',
      'GT:>@40',
    ]);
    const t = new LineTokens().scan('xx 1e5 .5 1. - +3 1e', 3, 20);
    expect(Array.from({ length: t.count }, (_, i) => [t.value(i), t.types[i], t.col(i)])).toEqual([
      ['1e5', 3, 1],
      ['.5', 3, 5],
      ['1.', 3, 8],
      ['-', 4, 11],
      ['+3', 3, 13],
      ['1e', 4, 16],
    ]);
  });

  it('tokenizes random lines as a regular-expression reference does, values and all, one LineTokens reused', () => {
    // The reference: blanks separate; '<', '>' and ':' stand alone; any other run is a NUMBER when the
    // number pattern matches it whole, else a NAME. Values as Number() reads them.
    const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
    const reference = (line: string): string[] =>
      [...line.matchAll(/[<>:]|[^ \t\r\v\f<>:]+/g)].map((m) => {
        const type = m[0] === '<' ? 'LT' : m[0] === '>' ? 'GT' : m[0] === ':' ? 'COLON' : NUMBER.test(m[0]) ? 'NUMBER' : 'NAME';
        return `${type}:${m[0]}@${m.index + 1}${type === 'NUMBER' ? `=${Number(m[0])}` : ''}`;
      });
    const alphabet = ['0', '1', '7', '9', '0', '5', ' ', ' ', '\t', '<', '>', ':', '.', '-', '+', 'e', 'E', 'x', '_', 'é', '\r', '\v'];
    const rng = new Rng(11);
    const t = new LineTokens();
    for (let n = 0; n < 3000; n++) {
      // Long digit runs too (16 and more digits are read by Number, up to 15 during the scan).
      const parts = Array.from({ length: 1 + rng.int(30) }, () => (rng.next() < 0.1 ? '9'.repeat(10 + rng.int(12)) : alphabet[rng.int(alphabet.length)]!));
      const line = parts.join('');
      t.scan(line);
      const got = Array.from({ length: t.count }, (_, i) => {
        const type = ['LT', 'GT', 'COLON', 'NUMBER', 'NAME'][t.types[i]!]!;
        return `${type}:${t.value(i)}@${t.col(i)}${type === 'NUMBER' ? `=${t.number(i)}` : ''}`;
      });
      expect(got, JSON.stringify(line)).toEqual(reference(line));
    }
    // More tokens than the arrays first hold: they grow, keeping the tokens before.
    const long = Array.from({ length: 300 }, (_, i) => `<${i}>`).join(' ');
    expect(Array.from({ length: t.scan(long).count }, (_, i) => t.value(i)).join('')).toBe(long.replaceAll(' ', ''));
    expect(t.number(3 * 299 + 1)).toBe(299);
  });

  it('every line of the paper examples has exactly one parse', () => {
    const appLines = readFileSync(APP, 'utf8').split('\n').filter((l) => /^(File|Work):/.test(l));
    for (const line of appLines) expect(nearleyResults(applicationGrammar, 'line', line), line).toHaveLength(1);
    // Bare lists: the next list starts at the number before its ':', so even these have one parse.
    expect(nearleyResults(applicationGrammar, 'line', 'Work: 0 3 : 0 1 2 1 : 10 3 : 600 500 600 3 : 610 503 602')).toHaveLength(1);
    expect(nearleyResults(applicationGrammar, 'line', 'Work: 0 0 : 0 : 1 : 5 1 : 5')).toHaveLength(1);
    const gridLines = readFileSync(GRID, 'utf8').split('\n').filter((l) => /^\d/.test(l));
    for (const line of gridLines) expect(nearleyResults(gridGrammar, 'event', line), line).toHaveLength(1);
  });

  it('bare and bracketed lists mix freely', () => {
    const app = parseApplication('WorkDescription 1 2 1\nFile: 0 a 1 1\nFile: 1 b 1 1\nWork: 0 2 : 0 1 <1 : 1> 1 : 5 <1 : 6>\n', 'x');
    expect(app.works[0]).toEqual({ id: 0, inputs: [0, 1], outputs: [1], runTimeS: [5], estRunTimeS: [6] });
    // zero architectures is a semantic error, not a syntax error
    expect(() => parseApplication('WorkDescription 1 1 1\nFile: 0 a 1 1\nWork: 0 1 : 0 0 : 0 : 0 :\n', 'x')).toThrow(
      /a Work needs a run time for at least one architecture/,
    );
  });

  it('lines of one shape reuse the memo but read their own values', () => {
    const p = new LineParser<{ id: number; name: number }>(applicationGrammar, 'line');
    const t = new LineTokens();
    const a = p.parse(t.scan('File: <0> <alpha> <1> <2>'));
    const aName = a.ok ? t.value(a.value.name) : '';
    const b = p.parse(t.scan('File: <7> <beta> <3> <4>'));
    expect(a).toBe(b); // the same memoised result object…
    expect([aName, b.ok ? t.value(b.value.name) : '']).toEqual(['alpha', 'beta']); // …read against each line
  });
});

describe('checkCompatibility', () => {
  it('accepts appendix A with appendix B', () => {
    expect(checkCompatibility(loadApplication(APP), loadGrid(GRID).grid, 'b.app', 'a.grid')).toEqual([]);
  });

  it('reports hosts whose architecture has no run time, at the host line', () => {
    const app = parseApplication('WorkDescription 1 1 1\nFile: 0 in 10 10\nWork: 0 <1 : 0> <0 :> <1 : 60> <1 : 60>\n', 'one.app');
    const d = checkCompatibility(app, loadGrid(GRID).grid, 'one.app', GRID);
    const hosts: [number, string][] = [[5, 'host3.2'], [8, 'host4.2'], [11, 'host5.2'], [14, 'host6.2'], [19, 'host1.2'], [22, 'host2.2']];
    expect(d.map((x) => `${x.pos.line}:${x.pos.column} ${x.message}`)).toEqual(
      hosts.map(([line, host]) => `${line}:1 host '${host}' has architecture 1 but one.app gives run times for 1 architecture(s) (0 to 0)`),
    );
    expect(d[0]).toMatchObject({ severity: 'error', expected: 'an architecture index from 0 to 0' });
  });
});
