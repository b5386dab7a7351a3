// Behaviour files (Berman et al. 1999, §7.2.1): a count line, then that many samples, read as a circular series.
// Link samples are `latencyMs bandwidthBps` pairs; host samples are CPU availability percentages.
// Layout accepted: the first meaningful line holds only the count; after it, any number of samples per
// line (for links, whole pairs only: a pair never spans two lines). The writers put one sample per line.
import type { HostBehavior, LinkBehavior, LinkSample } from '../model/grid.js';
import { Collector } from './collector.js';
import behaviorGrammar from './generated/behavior.js';
import { LineTokens } from './line-lexer.js';
import { LineParser, syntaxDiagnostic, type Ref } from './line-parser.js';
import { NON_NEGATIVE, NON_NEGATIVE_INT, readNumber, type Range } from './numbers.js';
import { LineCursor } from './source-lines.js';

const valuesParser = new LineParser<readonly Ref[]>(behaviorGrammar, 'values');
const POSITIVE: Range = { min: 0, minExclusive: true };
const PERCENT: Range = { min: 0, max: 100 };

/** Reads the numbers of one sample line (checking their ranges). */
type SampleReader = (tokens: LineTokens, refs: readonly Ref[], line: number) => void;

/** Reads the count line and hands each sample line to `readSamples`; reports syntax and count errors. */
function readSeries(text: string, c: Collector, kind: 'link' | 'host', readSamples: SampleReader): void {
  const valueWord = kind === 'link' ? 'latency/bandwidth pairs' : 'availability values';
  const tokens = new LineTokens();
  let countAt: { line: number; col: number; text: string } | undefined;
  let count: number | undefined;
  let sawCountLine = false;
  /** Lines that could not be counted; the count check would only repeat them. */
  let uncounted = false;
  let samples = 0;
  const cursor = new LineCursor(text);
  while (cursor.advance() && !c.full) {
    const line = cursor.line;
    tokens.scan(text, cursor.start, cursor.end);
    const r = valuesParser.parse(tokens);
    const isCountLine = !sawCountLine;
    sawCountLine = true;
    if (!r.ok) {
      c.add(syntaxDiagnostic(r.error, tokens, c.file, line, `a ${kind} behaviour line`));
      uncounted = true;
      continue;
    }
    const refs = r.value;
    if (isCountLine) {
      countAt = { line, col: tokens.col(refs[0]!), text: tokens.value(refs[0]!) };
      count = readNumber(c, line, tokens, refs[0]!, 'sample count', NON_NEGATIVE_INT);
      if (count === 0) {
        c.error(c.at(line, tokens, refs[0]!), {
          message: 'a behaviour needs at least one sample',
          found: "'0'",
          expected: 'a whole number, 1 or more',
        });
      }
      if (refs.length > 1) {
        uncounted = true;
        c.error(c.at(line, tokens, refs[1]!), {
          message: 'the first line of a behaviour file holds only the sample count',
          found: `'${tokens.value(refs[1]!)}'`,
          expected: 'the end of the line',
          hint: `put the ${valueWord} on the lines after the count`,
        });
      }
      continue;
    }
    if (kind === 'link' && refs.length % 2 === 1) {
      uncounted = true;
      c.error(c.pos(line, cursor.lineText.trimEnd().length + 1), {
        message: 'a link sample is a latency (ms) and a bandwidth (bytes/s); this line has an unpaired value',
        found: `the end of the line after '${tokens.value(refs[refs.length - 1]!)}'`,
        expected: 'a number (the bandwidth in bytes/s)',
        hint: 'write one "latencyMs bandwidthBps" pair per line',
      });
      continue;
    }
    readSamples(tokens, refs, line);
    samples += kind === 'link' ? refs.length / 2 : refs.length;
  }
  if (!sawCountLine) {
    c.error(c.pos(1, 1), {
      message: 'empty behaviour file',
      found: 'no sample count',
      expected: `a line with the number of ${valueWord}, then the ${valueWord}`,
    });
  } else if (countAt !== undefined && count !== undefined && count !== samples && !uncounted && !c.full) {
    c.error(c.pos(countAt.line, countAt.col), {
      message: `the count line says ${count} sample(s) but the file has ${samples}`,
      found: `'${countAt.text}'`,
      expected: String(samples),
      hint: `change the count to ${samples} or add/remove samples`,
    });
  }
}

export function parseLinkBehavior(text: string, file: string, name: string): LinkBehavior {
  const c = new Collector(file);
  const samples: LinkSample[] = [];
  readSeries(text, c, 'link', (tokens, refs, line) => {
    for (let i = 0; i + 1 < refs.length; i += 2) {
      const latencyMs = readNumber(c, line, tokens, refs[i]!, 'latency (ms)', NON_NEGATIVE);
      const bandwidthBps = readNumber(c, line, tokens, refs[i + 1]!, 'bandwidth (bytes/s)', POSITIVE);
      if (latencyMs !== undefined && bandwidthBps !== undefined) samples.push({ latencyMs, bandwidthBps });
    }
  });
  c.throwIfErrors();
  return { kind: 'link', name, samples };
}

export function parseHostBehavior(text: string, file: string, name: string): HostBehavior {
  const c = new Collector(file);
  const availabilityPct: number[] = [];
  readSeries(text, c, 'host', (tokens, refs, line) => {
    for (const ref of refs) {
      const v = readNumber(c, line, tokens, ref, 'CPU availability (%)', PERCENT);
      if (v !== undefined) availabilityPct.push(v);
    }
  });
  c.throwIfErrors();
  return { kind: 'host', name, availabilityPct };
}

export function writeLinkBehavior(b: LinkBehavior): string {
  const lines = [String(b.samples.length)];
  for (const s of b.samples) lines.push(`${s.latencyMs} ${s.bandwidthBps}`);
  return lines.join('\n') + '\n';
}

export function writeHostBehavior(b: HostBehavior): string {
  const lines = [String(b.availabilityPct.length)];
  for (const v of b.availabilityPct) lines.push(String(v));
  return lines.join('\n') + '\n';
}
