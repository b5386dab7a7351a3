// Every application description error names file:line:column, what was found and what was expected.
import { describe, expect, it } from 'vitest';
import { parseApplication } from '../../src/formats/index.js';
import { errorLines, inputErrors, theError } from './helpers.js';

const parse = (text: string) => () => parseApplication(text, 'test.app');

describe('application description errors', () => {
  it('header counts that do not match the lines', () => {
    const d = inputErrors(parse('WorkDescription 1 3 2\nFile: 0 a 1 1\nFile: 1 b 1 1\nWork: 0 <1: 0> <1 : 1> <1: 5> <1: 5>\n'));
    expect(errorLines(d)).toEqual([
      '1:19 the header declares 3 file(s) but the file has 2 File line(s)',
      '1:21 the header declares 2 task(s) but the file has 1 Work line(s)',
    ]);
    expect(d[0]).toMatchObject({ found: "'3'", expected: '2', hint: 'missing File ids: 2; add them or change the count to 2' });
  });

  it('file ids out of range and duplicated', () => {
    const d = inputErrors(parse('WorkDescription 1 2 0\nFile: <0> <a> <1> <1>\nFile: <0> <b> <1> <1>\nFile: <2> <c> <1> <1>\n'));
    expect(theError(d, 'duplicate file id 0')).toMatchObject({ pos: { file: 'test.app', line: 3, column: 8 }, message: 'duplicate file id 0 (first declared at line 2)' });
    expect(theError(d, 'out of range')).toMatchObject({
      pos: { line: 4, column: 8 },
      message: 'file id 2 is out of range: the header declares 2 files',
      found: "'2'",
      expected: 'an id from 0 to 1',
    });
  });

  it('duplicate Work ids', () => {
    const d = inputErrors(parse('WorkDescription 1 1 2\nFile: 0 a 1 1\nWork: 0 <1: 0> <0 :> <1: 5> <1: 5>\nWork: 0 <1: 0> <0 :> <1: 5> <1: 5>\n'));
    expect(errorLines(d)).toEqual(['4:7 duplicate Work id 0 (first declared at line 3)']);
  });

  it('a file used before it is declared, and one never declared', () => {
    const d = inputErrors(parse('WorkDescription 1 2 1\nFile: 0 a 1 1\nWork: <0> <2 : 0 1> <1 : 7> <1 : 5> <1 : 5>\nFile: 1 b 1 1\n'));
    expect(errorLines(d)).toEqual(['3:18 file 1 is used before it is declared (line 4)', '3:26 file 7 is not declared']);
    expect(theError(d, 'before')).toMatchObject({ hint: "move the 'File: 1 …' line above this Work" });
    expect(theError(d, 'not declared')).toMatchObject({ expected: 'a declared file id (0 to 1)' });
  });

  it('a Work whose architecture count differs from the others', () => {
    const d = inputErrors(parse('WorkDescription 1 1 2\nFile: 0 a 1 1\nWork: 0 <1: 0> <0 :> <2: 5 6> <2: 5 6>\nWork: 1 <1: 0> <0 :> <3: 5 6 7> <3: 5 6 7>\n'));
    expect(errorLines(d)).toEqual(['4:23 this Work has run times for 3 architecture(s) but the Work at line 3 has 2']);
  });

  it('run time and estimate counts that differ within a Work', () => {
    const d = inputErrors(parse('WorkDescription 1 1 1\nFile: 0 a 1 1\nWork: 0 <1: 0> <0 :> <2: 5 6> <1: 5>\n'));
    expect(errorLines(d)).toEqual(['3:32 this Work gives 2 run time(s) but 1 estimated run time(s)']);
  });

  it('negative sizes and run times', () => {
    const d = inputErrors(parse('WorkDescription 1 1 1\nFile: <0> <a> <-1> <-2>\nWork: 0 <1: 0> <0 :> <1: -5> <1: 5>\n'));
    expect(errorLines(d)).toEqual([
      '2:16 negative file size (bytes)',
      '2:21 negative estimated file size (bytes)',
      '3:26 negative run time (s)',
    ]);
    expect(d[0]).toMatchObject({ found: "'-1'", expected: 'a number, 0 or more' });
  });

  it('a list whose count does not match its values', () => {
    const d = inputErrors(parse('WorkDescription 1 2 1\nFile: 0 a 1 1\nFile: 1 b 1 1\nWork: <0> < 3 : 0 1> < 1 : 1 > < 1 : 5 > < 1 : 5 >\n'));
    expect(errorLines(d)).toEqual(['4:13 the input file list says 3 value(s) but lists 2']);
    expect(d[0]).toMatchObject({ found: "'3'", expected: '2' });
  });

  it('malformed tokens say what was expected at that column', () => {
    const d = inputErrors(parse('WorkDescription 1 1 1\nFile: <0> <a> <1>\nWork: <0> < 1 : 0 > < 1 : x > < 1 : 5 > < 1 : 5 >\nWrok: 1\n'));
    expect(d.map((x) => [x.pos.line, x.pos.column, x.message, x.found, x.expected])).toEqual([
      [2, 18, 'a File line ends too early', 'the end of the line', "a number or '<'"],
      [3, 27, "unexpected 'x' in a Work line", "'x'", "'>' or a number or '<'"],
      [4, 1, "unexpected 'Wrok' in a File or Work line", "'Wrok'", "'File' or 'Work'"],
    ]);
  });

  it('a bad or missing header', () => {
    expect(errorLines(inputErrors(parse('WorkDescription 1 x 1\n')))).toEqual(["1:19 unexpected 'x' in the application description header"]);
    const g = inputErrors(parse('# a comment\nGridDescription 1\n'));
    expect(g[0]).toMatchObject({ pos: { line: 2, column: 1 }, expected: "'WorkDescription'" });
    expect(g[0]!.hint).toContain('looks like a grid description');
    expect(errorLines(inputErrors(parse('# only a comment\n\n')))).toEqual(['1:1 empty application description']);
  });

  it('a whole-number field written as a fraction', () => {
    expect(errorLines(inputErrors(parse('WorkDescription 1 1 0\nFile: 0.5 a 1 1\n')))).toEqual(['2:7 file id must be a whole number']);
  });

  it('collects many errors up to a cap', () => {
    const lines = ['WorkDescription 1 200 0'];
    for (let i = 0; i < 200; i++) lines.push(`File: ${i} f -1 1`);
    const d = inputErrors(parse(lines.join('\n')));
    expect(d.length).toBeLessThanOrEqual(52);
    expect(d.length).toBeGreaterThan(40);
    expect(d[d.length - 1]!.message).toMatch(/more error\(s\) not shown/);
  });
});
