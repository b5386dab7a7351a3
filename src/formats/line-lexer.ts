// Splits one line of a description file into tokens for the nearley grammars in grammars/*.ne.
// Token types: '<', '>', ':' (punctuation), NUMBER (a decimal number, optionally signed, with optional
// fraction and exponent) and NAME (any other run of characters that are not blanks or punctuation).
// Keywords (ADD_HOST, File, Work, ...) are NAME tokens; the grammars match them by value.
//
// Lines are scanned into reusable arrays (start, end, type per token, and the value of a short run of digits)
// rather than one object per token: large files have millions of tokens, and only a line's shape and a few
// of its values are ever needed.
import { doubled } from '../util/typed-arrays.js';

export type TokenType = 'LT' | 'GT' | 'COLON' | 'NUMBER' | 'NAME';

/** Token type codes in LineTokens.types. */
export const T_LT = 0;
export const T_GT = 1;
export const T_COLON = 2;
export const T_NUMBER = 3;
export const T_NAME = 4;
const TYPE_NAMES: readonly TokenType[] = ['LT', 'GT', 'COLON', 'NUMBER', 'NAME'];

/** A token as an object, the form nearley consumes. */
export interface Token {
  readonly type: TokenType;
  /** The characters of the token, exactly as written. */
  readonly value: string;
  /** Column of the first character, starting at 1. */
  readonly col: number;
  /** Position of this token in its line's token list. */
  readonly index: number;
}

const CH_LT = 60;
const CH_GT = 62;
const CH_COLON = 58;

/** Character classes of the 128 ASCII codes for scan (any other code is OTHER). */
const OTHER = 0;
const BLANK = 1;
const PUNCTUATION = 2;
const DIGIT = 3;
const CHAR_KINDS = new Uint8Array(128);

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

for (let c = 0; c < 128; c++) CHAR_KINDS[c] = isBlank(c) ? BLANK : c === CH_LT || c === CH_GT || c === CH_COLON ? PUNCTUATION : isDigit(c) ? DIGIT : OTHER;

/** Whether line[start, end) is a number: [+-]? (d+ (. d*)? | . d+) ([eE] [+-]? d+)? */
function isNumber(line: string, start: number, end: number): boolean {
  let i = start;
  let c = line.charCodeAt(i);
  if (c === 43 || c === 45) c = line.charCodeAt(++i);
  let digits = 0;
  while (i < end && isDigit(line.charCodeAt(i))) {
    i++;
    digits++;
  }
  if (i < end && line.charCodeAt(i) === 46) {
    i++;
    while (i < end && isDigit(line.charCodeAt(i))) {
      i++;
      digits++;
    }
  }
  if (digits === 0) return false;
  if (i < end && (line.charCodeAt(i) | 32) === 101) {
    i++;
    c = line.charCodeAt(i);
    if (i < end && (c === 43 || c === 45)) i++;
    let exp = 0;
    while (i < end && isDigit(line.charCodeAt(i))) {
      i++;
      exp++;
    }
    if (exp === 0) return false;
  }
  return i === end;
}

/** Slices shorter than this are copies in V8; longer ones are views of their text (detachedValue). */
const DETACH_FROM_LENGTH = 13;
/** Scratch for detachedValue: the code units of a token, for String.fromCharCode. */
const codeUnits = new Uint16Array(4096);

/**
 * The tokens of one line, as offsets into the text that holds the line (usually the whole file, so no
 * line is ever copied). `scan` refills the same arrays: keep no reference across lines.
 */
export class LineTokens {
  /** The text the offsets refer to. */
  text = '';
  lineStart = 0;
  lineEnd = 0;
  count = 0;
  types = new Uint8Array(64);
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  /** A token's value when it is a run of at most 15 digits (read during the scan), else −1. */
  private digitValues = new Float64Array(64);

  /**
   * Tokenizes text[start, end). One pass over the characters, a table telling blanks, punctuation and digits
   * apart; a run of digits alone is a number without a second look (most numbers of a large file).
   */
  scan(text: string, start = 0, end = text.length): this {
    this.text = text;
    this.lineStart = start;
    this.lineEnd = end;
    let types = this.types;
    let starts = this.starts;
    let ends = this.ends;
    let digitValues = this.digitValues;
    let count = 0;
    let i = start;
    while (i < end) {
      const c = text.charCodeAt(i);
      const kind = c < 128 ? CHAR_KINDS[c]! : OTHER;
      if (kind === BLANK) {
        i++;
        continue;
      }
      if (count === types.length) {
        this.grow();
        types = this.types;
        starts = this.starts;
        ends = this.ends;
        digitValues = this.digitValues;
      }
      starts[count] = i;
      if (kind === PUNCTUATION) {
        types[count] = c === CH_LT ? T_LT : c === CH_GT ? T_GT : T_COLON;
        digitValues[count] = -1;
        ends[count++] = ++i;
        continue;
      }
      const first = i;
      let digitsOnly = true;
      let value = 0;
      while (i < end) {
        const d = text.charCodeAt(i);
        const k = d < 128 ? CHAR_KINDS[d]! : OTHER;
        if (k === BLANK || k === PUNCTUATION) break;
        if (k === DIGIT) value = value * 10 + (d - 48);
        else digitsOnly = false;
        i++;
      }
      types[count] = digitsOnly || isNumber(text, first, i) ? T_NUMBER : T_NAME;
      digitValues[count] = digitsOnly && i - first <= 15 ? value : -1;
      ends[count++] = i;
    }
    this.count = count;
    return this;
  }

  /** Doubles the token arrays, keeping the tokens they hold. */
  private grow(): void {
    this.types = doubled(this.types);
    this.starts = doubled(this.starts);
    this.ends = doubled(this.ends);
    this.digitValues = doubled(this.digitValues);
  }

  value(i: number): string {
    return this.text.slice(this.starts[i]!, this.ends[i]!);
  }

  /**
   * Token i as a string that shares nothing with the text: V8 makes a slice of 13 characters or more a view
   * of the text it was cut from, so a name kept from a large file read in pieces would keep its piece alive.
   */
  detachedValue(i: number): string {
    const s = this.starts[i]!;
    const n = this.ends[i]! - s;
    if (n < DETACH_FROM_LENGTH) return this.text.slice(s, s + n);
    if (n > codeUnits.length) return this.text.slice(s, s + n).split('').join('');
    for (let k = 0; k < n; k++) codeUnits[k] = this.text.charCodeAt(s + k);
    return String.fromCharCode.apply(null, codeUnits.subarray(0, n) as unknown as number[]);
  }

  /** Column of token i, starting at 1. */
  col(i: number): number {
    return this.starts[i]! - this.lineStart + 1;
  }

  /** The line's text (for messages). */
  lineText(): string {
    return this.text.slice(this.lineStart, this.lineEnd);
  }

  /** Whether token i is exactly `word`. */
  is(i: number, word: string): boolean {
    return i < this.count && this.ends[i]! - this.starts[i]! === word.length && this.text.startsWith(word, this.starts[i]!);
  }

  /** The number token i holds (runs of up to 15 digits were read during the scan, without a substring). */
  number(i: number): number {
    const v = this.digitValues[i]!;
    if (v >= 0) return v;
    return Number(this.text.slice(this.starts[i]!, this.ends[i]!));
  }

  toTokens(): Token[] {
    const out: Token[] = [];
    for (let i = 0; i < this.count; i++) out.push({ type: TYPE_NAMES[this.types[i]!]!, value: this.value(i), col: this.col(i), index: i });
    return out;
  }
}

/** One line's tokens as objects (convenient outside the hot paths). */
export function tokenizeLine(line: string): Token[] {
  return new LineTokens().scan(line).toTokens();
}

/** How a token type is named in "expected ..." messages. */
export function describeTokenType(type: string): string {
  switch (type) {
    case 'LT':
      return "'<'";
    case 'GT':
      return "'>'";
    case 'COLON':
      return "':'";
    case 'NUMBER':
      return 'a number';
    case 'NAME':
      return 'a name';
    default:
      return type;
  }
}

/**
 * The lexer object the generated grammars refer to (`@lexer lexer`). Parsing never uses it to read text:
 * each parse is given a ReplayLexer over tokens already produced by LineTokens. It exists so nearley
 * compiles `%NUMBER` into a token-type test.
 */
export const grammarLexer = {
  has: (type: string): boolean => (TYPE_NAMES as readonly string[]).includes(type),
  reset: (_chunk: string, _info: unknown): void => {
    throw new Error('grammarLexer is a placeholder; parse through LineParser');
  },
  next: (): Token | undefined => undefined,
  save: (): unknown => ({}),
  formatError: (_token: unknown, message?: string): string => message ?? 'syntax error',
};

/** Feeds a fixed token list to a nearley Parser. */
export class ReplayLexer {
  private position = 0;
  constructor(private readonly tokens: readonly Token[]) {}
  has(type: string): boolean {
    return grammarLexer.has(type);
  }
  reset(_chunk: string, _info?: unknown): void {
    this.position = 0;
  }
  next(): Token | undefined {
    return this.tokens[this.position++];
  }
  save(): unknown {
    return {};
  }
  formatError(_token: unknown, message?: string): string {
    return message ?? 'syntax error';
  }
}
