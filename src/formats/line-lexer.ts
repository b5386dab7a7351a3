// Splits one line of a description file into tokens for the nearley grammars in grammars/*.ne.
// Token types: '<', '>', ':' (punctuation), NUMBER (a decimal number, optionally signed, with optional
// fraction and exponent) and NAME (any other run of characters that are not blanks or punctuation).
// Keywords (ADD_HOST, File, Work, ...) are NAME tokens; the grammars match them by value.
//
// Lines are scanned into reusable arrays (start, end, type per token) rather than one object per token:
// large files have millions of tokens, and only a line's shape and a few of its values are ever needed.

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

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

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

  /** Tokenizes text[start, end). */
  scan(text: string, start = 0, end = text.length): this {
    const line = text;
    this.text = text;
    this.lineStart = start;
    this.lineEnd = end;
    this.count = 0;
    const n = end;
    let i = start;
    while (i < n) {
      const c = line.charCodeAt(i);
      if (isBlank(c)) {
        i++;
        continue;
      }
      if (c === CH_LT || c === CH_GT || c === CH_COLON) {
        this.push(c === CH_LT ? T_LT : c === CH_GT ? T_GT : T_COLON, i, i + 1);
        i++;
        continue;
      }
      const start = i;
      while (i < n) {
        const d = line.charCodeAt(i);
        if (isBlank(d) || d === CH_LT || d === CH_GT || d === CH_COLON) break;
        i++;
      }
      this.push(isNumber(line, start, i) ? T_NUMBER : T_NAME, start, i);
    }
    return this;
  }

  private push(type: number, start: number, end: number): void {
    if (this.count === this.types.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      const t = new Uint8Array(this.types.length * 2);
      t.set(this.types);
      this.types = t;
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
    }
    this.types[this.count] = type;
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.count++;
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

  /** The number token i holds (plain digit strings are read without making a substring). */
  number(i: number): number {
    const s = this.starts[i]!;
    const e = this.ends[i]!;
    if (e - s <= 15) {
      let v = 0;
      let k = s;
      for (; k < e; k++) {
        const c = this.text.charCodeAt(k);
        if (c < 48 || c > 57) break;
        v = v * 10 + (c - 48);
      }
      if (k === e) return v;
    }
    return Number(this.text.slice(s, e));
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
