// Turns number tokens into values, reporting out-of-range or fractional values where they were written.
// No value may exceed 2^53 − 1 (util/exact-limit.ts): a size, time or count beyond it is refused as too large.
import type { Collector } from './collector.js';
import type { LineTokens } from './line-lexer.js';
import { MAX_EXACT, MAX_EXACT_TEXT } from '../util/exact-limit.js';

export interface Range {
  readonly integer?: boolean;
  readonly min?: number;
  /** When true, the value must be strictly greater than `min`. */
  readonly minExclusive?: boolean;
  readonly max?: number;
}

export const NON_NEGATIVE_INT: Range = { integer: true, min: 0 };
export const NON_NEGATIVE: Range = { min: 0 };

function describeRange(r: Range): string {
  const kind = r.integer ? 'a whole number' : 'a number';
  if (r.min !== undefined && r.max !== undefined) return `${kind} from ${r.min} to ${r.max}`;
  if (r.min !== undefined) return r.minExclusive ? `${kind} greater than ${r.min}` : `${kind}, ${r.min} or more`;
  if (r.max !== undefined) return `${kind}, ${r.max} or less`;
  return kind;
}

/** The token's value if it satisfies `range`; otherwise reports an error naming `what` and returns undefined. */
export function readNumber(c: Collector, line: number, tokens: LineTokens, i: number, what: string, range: Range): number | undefined {
  const v = tokens.number(i);
  if (Number.isFinite(v) && Math.abs(v) <= MAX_EXACT && (!range.integer || Number.isInteger(v))) {
    if ((range.min === undefined || v > range.min || (v === range.min && !range.minExclusive)) && (range.max === undefined || v <= range.max)) {
      return v + 0; // turns -0 into 0
    }
  }
  const pos = c.at(line, tokens, i);
  const found = `'${tokens.value(i)}'`;
  const expected = describeRange(range);
  if (!Number.isFinite(v) || v > MAX_EXACT || (v < -MAX_EXACT && range.min === undefined)) {
    const limit = range.max !== undefined && range.max < MAX_EXACT ? expected : `${expected}, at most ${MAX_EXACT_TEXT}`;
    c.error(pos, {
      message: `${what} is too large`,
      found,
      expected: limit,
      hint: 'a double holds whole numbers exactly only up to 2^53; give a smaller value (check the unit: bytes, seconds)',
    });
    return undefined;
  }
  if (range.integer && !Number.isInteger(v)) {
    c.error(pos, { message: `${what} must be a whole number`, found, expected });
    return undefined;
  }
  if (range.min !== undefined && (range.minExclusive ? v <= range.min : v < range.min)) {
    const message =
      range.min === 0 ? (range.minExclusive ? `${what} must be greater than 0` : `negative ${what}`) : `${what} is below ${range.min}`;
    c.error(pos, { message, found, expected });
    return undefined;
  }
  if (range.max !== undefined && v > range.max) {
    c.error(pos, { message: `${what} is above ${range.max}`, found, expected });
    return undefined;
  }
  return v + 0; // turns -0 into 0
}
