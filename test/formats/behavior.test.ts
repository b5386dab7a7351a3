// Behaviour files: parsing, errors, and loading the files a grid names.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadGrid, parseHostBehavior, parseLinkBehavior } from '../../src/formats/index.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { errorLines, inputErrors } from './helpers.js';

const FIXTURES = join(PACKAGE_ROOT, 'test/fixtures/formats');

describe('behaviour files', () => {
  it('reads link pairs, one or several per line, and host values', () => {
    expect(parseLinkBehavior('# c\n3\n50 102400\n<60> <2048> 70 4096\n', 'l', 'l').samples).toEqual([
      { latencyMs: 50, bandwidthBps: 102400 },
      { latencyMs: 60, bandwidthBps: 2048 },
      { latencyMs: 70, bandwidthBps: 4096 },
    ]);
    expect(parseHostBehavior('4\n100\n 99.5 0\n\n42\n', 'h', 'cpu')).toEqual({ kind: 'host', name: 'cpu', availabilityPct: [100, 99.5, 0, 42] });
  });

  it('availability outside 0-100', () => {
    const d = inputErrors(() => parseHostBehavior('# c\n3\n50\n101\n-2\n', 'h1', 'h1'));
    expect(errorLines(d)).toEqual(['4:1 CPU availability (%) is above 100', '5:1 negative CPU availability (%)']);
    expect(d[0]).toMatchObject({ found: "'101'", expected: 'a number from 0 to 100' });
  });

  it('a count that does not match the number of values', () => {
    const d = inputErrors(() => parseHostBehavior('3\n50 60\n', 'h2', 'h2'));
    expect(errorLines(d)).toEqual(['1:1 the count line says 3 sample(s) but the file has 2']);
    expect(d[0]).toMatchObject({ found: "'3'", expected: '2' });
  });

  it('bandwidth must be positive, latency non-negative, pairs complete', () => {
    const d = inputErrors(() => parseLinkBehavior('3\n-5 100\n10 0\n20\n', 'l1', 'l1'));
    expect(errorLines(d)).toEqual([
      '2:1 negative latency (ms)',
      '3:4 bandwidth (bytes/s) must be greater than 0',
      '4:3 a link sample is a latency (ms) and a bandwidth (bytes/s); this line has an unpaired value',
    ]);
  });

  it('the count line holds only the count; malformed and empty files', () => {
    expect(errorLines(inputErrors(() => parseHostBehavior('2 50\n60\n', 'h', 'h')))).toEqual([
      '1:3 the first line of a behaviour file holds only the sample count',
    ]);
    expect(errorLines(inputErrors(() => parseHostBehavior('1\nhigh\n', 'h', 'h')))).toEqual(["2:1 unexpected 'high' in a host behaviour line"]);
    expect(errorLines(inputErrors(() => parseLinkBehavior('# nothing\n\n', 'l', 'l')))).toEqual(['1:1 empty behaviour file']);
    expect(errorLines(inputErrors(() => parseHostBehavior('0\n', 'h', 'h')))).toEqual(['1:1 a behaviour needs at least one sample']);
  });
});

describe('loadGrid and behaviour files', () => {
  it('a behaviour file that does not exist names the path tried', () => {
    const grid = join(FIXTURES, 'missing-behavior/missing.grid');
    const d = inputErrors(() => loadGrid(grid));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({
      pos: { file: grid, line: 4, column: 23 },
      message: `host behaviour file not found: tried '${join(FIXTURES, 'missing-behavior/cpu_hal')}'`,
      hint: "did you mean 'cpu_half'?",
    });
  });

  it('errors inside behaviour files name those files', () => {
    const d = inputErrors(() => loadGrid(join(FIXTURES, 'bad-behavior/bad.grid')));
    expect(d.map((x) => `${x.pos.file.slice(FIXTURES.length + 1)}:${x.pos.line}:${x.pos.column} ${x.message}`)).toEqual([
      'bad-behavior/link_bad:4:4 bandwidth (bytes/s) must be greater than 0',
      'bad-behavior/cpu_bad:1:1 the count line says 3 sample(s) but the file has 2',
      'bad-behavior/cpu_bad:3:1 CPU availability (%) is above 100',
    ]);
  });

  it('a grid file that does not exist', () => {
    const d = inputErrors(() => loadGrid(join(FIXTURES, 'nope.grid')));
    expect(d[0]!.message).toBe('cannot read the grid description (no such file)');
  });
});
