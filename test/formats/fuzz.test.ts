// Bad input never throws anything but InputError, and every diagnostic points inside the file.
// Inputs: random bytes and mutations of the real example files (seeded, so failures reproduce).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { SwfWorkload } from '../../src/batch/swf/workload.js';
import { parseApplication, parseGridEvents, parseHostBehavior, parseLinkBehavior } from '../../src/formats/index.js';
import { setShapeMemo } from '../../src/formats/line-parser.js';
import { InputError } from '../../src/util/diagnostics.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import { Rng } from '../../src/util/rng.js';

const read = (p: string) => readFileSync(join(PACKAGE_ROOT, p), 'utf8');
const SEEDS = [
  read('apps/appendix-b.app'),
  read('griddescs/appendix-a/appendix-a.grid'),
  read('griddescs/appendix-a/loaded_2'),
  read('griddescs/appendix-a/stable_100Kb'),
  read('test/fixtures/swf/hand.swf'),
  read('test/fixtures/batch-grid/loaded.grid'),
  'WorkDescription 1 2 1\nFile: 0 a 1 1\nFile: 1 b 2 2\nWork: 0 2 : 0 1 1 : 1 2 : 5 6 2 : 5 6\n',
  '2\n10 1000 20 2000\n',
];
const GARBAGE = ['<', '>', ':', '#', '\r', '\t', ' ', '-', '.', 'e', '0', '9', '1e999', 'NaN', 'é', '\u0000', '\uFFFD', '<<', '::', 'ADD_HOST', 'Work', 'File', '\n'];

const swfDir = mkdtempSync(join(tmpdir(), 'gs-fuzz-swf-'));
afterAll(() => rmSync(swfDir, { recursive: true, force: true }));

/** The SWF reader streams files, so each input is written to one first. */
function readSwfText(text: string): unknown[] {
  const path = join(swfDir, 'f');
  writeFileSync(path, text);
  const workload = new SwfWorkload(path);
  workload.limitCores(8);
  const jobs: unknown[] = [];
  try {
    for (let j = workload.next(); j !== undefined; j = workload.next()) jobs.push(j);
  } finally {
    workload.close();
  }
  return jobs;
}

const PARSERS: [string, (text: string) => unknown][] = [
  ['application', (t) => parseApplication(t, 'f')],
  ['grid', (t) => parseGridEvents(t, 'f')],
  ['link', (t) => parseLinkBehavior(t, 'f', 'b')],
  ['host', (t) => parseHostBehavior(t, 'f', 'b')],
  ['swf', readSwfText],
];

function tokensOf(line: string): string[] {
  return line.split(/(\s+|[<>:])/).filter((t) => t !== '');
}

function mutate(text: string, rng: Rng): string {
  const lines = text.split('\n');
  const times = 1 + rng.int(3);
  for (let k = 0; k < times; k++) {
    const li = rng.int(lines.length);
    const toks = tokensOf(lines[li]!);
    const ti = rng.int(Math.max(1, toks.length));
    switch (rng.int(9)) {
      case 0:
        toks.splice(ti, 1);
        break;
      case 1:
        toks.splice(ti, 0, toks[ti] ?? 'x');
        break;
      case 2:
        if (toks.length > 1) [toks[ti], toks[(ti + 1) % toks.length]] = [toks[(ti + 1) % toks.length]!, toks[ti]!];
        break;
      case 3:
        lines[li] = lines[li]!.slice(0, rng.int(lines[li]!.length + 1));
        continue;
      case 4:
        toks.splice(ti, 0, rng.pick(GARBAGE));
        break;
      case 5:
        toks[ti] = rng.pick(['-1', '1.5', '1e400', '0', '101', '99999999999999999999', '-0', '+3', '9007199254740992', '1e20']);
        break;
      case 6:
        lines.splice(li, 1);
        continue;
      case 7:
        lines.splice(li, 0, lines[rng.int(lines.length)] ?? '');
        continue;
      case 8: {
        const lj = rng.int(lines.length);
        [lines[li], lines[lj]] = [lines[lj]!, lines[li]!];
        continue;
      }
    }
    lines[li] = toks.join('');
  }
  return lines.join('\n');
}

function randomText(rng: Rng): string {
  const n = rng.int(200);
  let s = '';
  for (let i = 0; i < n; i++) s += rng.next() < 0.5 ? rng.pick(GARBAGE) : String.fromCharCode(rng.int(0x250));
  return s;
}

/** Runs a parser; returns a comparable outcome, failing the test on any exception but InputError. */
function outcome(parse: (t: string) => unknown, text: string): unknown {
  try {
    return { ok: parse(text) };
  } catch (err) {
    if (!(err instanceof InputError)) throw new Error(`non-InputError on input ${JSON.stringify(text)}: ${String(err)}`);
    const lines = text.split('\n');
    const outside = err.diagnostics.filter(
      (d) =>
        d.message.length === 0 ||
        d.pos.line < 1 ||
        d.pos.line > lines.length ||
        d.pos.column < 1 ||
        d.pos.column > lines[d.pos.line - 1]!.length + 1,
    );
    if (outside.length > 0) {
      expect.fail(`diagnostics outside the file: ${outside.map((d) => `${d.pos.line}:${d.pos.column} ${d.message}`).join('; ')} in ${JSON.stringify(text)}`);
    }
    return { errors: err.diagnostics };
  }
}

function cases(seed: number, n: number): string[] {
  const rng = new Rng(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(rng.next() < 0.15 ? randomText(rng) : mutate(rng.pick(SEEDS), rng));
  return out;
}

describe('fuzzing the parsers', () => {
  it('3000 random and mutated inputs: parse or InputError with positions inside the file', () => {
    let parsed = 0;
    let rejected = 0;
    for (const text of cases(1, 3000)) {
      for (const [, parse] of PARSERS) {
        const r = outcome(parse, text) as { ok?: unknown };
        if ('ok' in r) parsed++;
        else rejected++;
      }
    }
    // Both outcomes must occur, or the mutations are not exercising the parsers.
    expect(parsed).toBeGreaterThan(300);
    expect(rejected).toBeGreaterThan(3000);
  });

  it('the shape memo gives exactly what nearley gives on every line', () => {
    const inputs = cases(2, 400);
    const withMemo = inputs.map((t) => PARSERS.map(([, p]) => outcome(p, t)));
    setShapeMemo(false);
    try {
      const withoutMemo = inputs.map((t) => PARSERS.map(([, p]) => outcome(p, t)));
      expect(withoutMemo).toEqual(withMemo);
    } finally {
      setShapeMemo(true);
    }
  });
});
