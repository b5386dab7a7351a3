// Runs a nearley grammar (grammars/*.ne) on the tokens of one line.
//
// Speed: a nearley parse depends only on the sequence of token types (plus the values of keyword tokens,
// which the grammars match by value), never on the other token values. So the first time a line "shape"
// is seen it is parsed by nearley and the result is stored with every token replaced by its index; later
// lines of the same shape reuse that result and read their own values at those indices. nearley stays
// the only judge of the syntax; the memo only remembers its answers (test/formats/fuzz.test.ts checks
// that both paths agree).
import nearley from 'nearley';
import type { Diagnostic } from '../util/diagnostics.js';
import { describeTokenType, LineTokens, ReplayLexer, T_NAME, type Token } from './line-lexer.js';

export interface CompiledGrammar {
  readonly Lexer: unknown;
  readonly ParserRules: readonly { name: string; symbols: readonly unknown[]; postprocess?: unknown }[];
  readonly ParserStart: string;
}

/**
 * A token in a parse result: its index in the line's LineTokens. Results are shared by every line of the
 * same shape, so they must never be modified.
 */
export type Ref = number;

export type LineResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: SyntaxFailure };

/** Where a line stopped matching the grammar and what would have matched there. */
export interface SyntaxFailure {
  /** Index of the offending token, or the token count when the line ended too early. */
  readonly tokenIndex: number;
  readonly expected: readonly string[];
}

/** Shapes remembered per grammar; beyond this, lines are parsed by nearley every time. */
const MAX_MEMO_ENTRIES = 4096;
/** Longer lines are always parsed by nearley (their shape is unlikely to repeat). */
const MAX_MEMO_TOKENS = 512;
/** Shape codes: token types 0-4 (see line-lexer.ts) are themselves; keyword k is 16 + k. */
const KEYWORD_CODE_BASE = 16;

/** Every LineParser, so tests can switch the memo off everywhere. */
const allParsers = new Set<{ useMemo: boolean }>();

/** Switches shape memoisation on or off in every LineParser (tests compare both paths). */
export function setShapeMemo(enabled: boolean): void {
  for (const p of allParsers) p.useMemo = enabled;
}

export class LineParser<T> {
  private readonly grammar: nearley.Grammar;
  private readonly keywords: readonly string[];
  /** Shape hash → the shapes with that hash (their codes) and nearley's answer for each. */
  private readonly memo = new Map<number, { codes: Uint16Array; result: LineResult<T> }[]>();
  private memoSize = 0;
  private readonly keyCodes = new Uint16Array(MAX_MEMO_TOKENS);
  /** Set false to run nearley on every line (tests compare both paths). */
  useMemo = true;

  constructor(compiled: CompiledGrammar, start: string) {
    this.grammar = nearley.Grammar.fromCompiled({ ...compiled, ParserStart: start } as unknown as nearley.CompiledRules);
    const keywords = new Set<string>();
    for (const rule of compiled.ParserRules) {
      for (const s of rule.symbols) {
        if (typeof s === 'object' && s !== null && 'literal' in s) keywords.add(String((s as { literal: unknown }).literal));
      }
    }
    this.keywords = [...keywords];
    allParsers.add(this);
  }

  parse(tokens: LineTokens): LineResult<T> {
    if (!this.useMemo || tokens.count > MAX_MEMO_TOKENS) return this.runNearley(tokens);
    const n = tokens.count;
    const hash = this.shapeHash(tokens);
    const bucket = this.memo.get(hash);
    if (bucket !== undefined) {
      for (const entry of bucket) if (sameCodes(entry.codes, this.keyCodes, n)) return entry.result;
    }
    const result = this.runNearley(tokens);
    if (this.memoSize < MAX_MEMO_ENTRIES) {
      const entry = { codes: this.keyCodes.slice(0, n), result };
      if (bucket === undefined) this.memo.set(hash, [entry]);
      else bucket.push(entry);
      this.memoSize++;
    }
    return result;
  }

  /** Fills keyCodes with the line's shape (one code per token) and returns its FNV-1a hash. */
  private shapeHash(tokens: LineTokens): number {
    const codes = this.keyCodes;
    const n = tokens.count;
    let hash = 0x811c9dc5;
    for (let i = 0; i < n; i++) {
      const type = tokens.types[i]!;
      let code: number = type;
      if (type === T_NAME) {
        for (let k = 0; k < this.keywords.length; k++) {
          if (tokens.is(i, this.keywords[k]!)) {
            code = KEYWORD_CODE_BASE + k;
            break;
          }
        }
      }
      codes[i] = code;
      hash = Math.imul(hash ^ code, 0x01000193);
    }
    return hash >>> 0;
  }

  private runNearley(lineTokens: LineTokens): LineResult<T> {
    const tokens = lineTokens.toTokens();
    const parser = new nearley.Parser(this.grammar, { lexer: new ReplayLexer(tokens) as unknown as nearley.Lexer });
    try {
      parser.feed('');
    } catch (err) {
      const offset = (err as { offset?: unknown }).offset;
      if (typeof offset !== 'number') throw err;
      return { ok: false, error: { tokenIndex: offset, expected: expectedAt(parser, offset) } };
    }
    if (parser.results.length === 0) {
      return { ok: false, error: { tokenIndex: tokens.length, expected: expectedAt(parser, tokens.length) } };
    }
    return { ok: true, value: toRefs(parser.results[0]) as T };
  }
}

function sameCodes(stored: Uint16Array, current: Uint16Array, n: number): boolean {
  if (stored.length !== n) return false;
  for (let i = 0; i < n; i++) if (stored[i] !== current[i]) return false;
  return true;
}

/** What the parser could accept at table column `index`: the terminals its states wait for. */
function expectedAt(parser: nearley.Parser, index: number): string[] {
  const table = (parser as unknown as { table: ({ states: { rule: { symbols: unknown[] }; dot: number }[] } | undefined)[] }).table;
  const column = table[index];
  const out = new Set<string>();
  for (const state of column?.states ?? []) {
    const sym = state.rule.symbols[state.dot];
    if (typeof sym !== 'object' || sym === null) continue;
    if ('literal' in sym) out.add(`'${String((sym as { literal: unknown }).literal)}'`);
    else if ('type' in sym) out.add(describeTokenType(String((sym as { type: unknown }).type)));
  }
  return [...out];
}

function isToken(v: object): v is Token {
  return 'type' in v && 'col' in v && 'index' in v && 'value' in v;
}

/** The grammar's result with every token replaced by its index (a Ref), frozen: it is shared. */
function toRefs(v: unknown): unknown {
  if (Array.isArray(v)) return Object.freeze(v.map(toRefs));
  if (v !== null && typeof v === 'object') {
    if (isToken(v)) return v.index;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toRefs(x);
    return Object.freeze(out);
  }
  return v;
}

/** The diagnostic for a line that does not match its grammar. */
export function syntaxDiagnostic(
  failure: SyntaxFailure,
  tokens: LineTokens,
  file: string,
  line: number,
  what: string,
  hint?: string,
): Diagnostic {
  const i = failure.tokenIndex;
  const atEnd = i >= tokens.count;
  const found = atEnd ? 'the end of the line' : `'${tokens.value(i)}'`;
  const expected = failure.expected.length > 0 ? failure.expected.join(' or ') : 'the end of the line';
  const d: Diagnostic = {
    severity: 'error',
    pos: { file, line, column: atEnd ? tokens.lineText().trimEnd().length + 1 : tokens.col(i) },
    message: atEnd ? `${what} ends too early` : `unexpected ${found} in ${what}`,
    found,
    expected,
  };
  return hint === undefined ? d : { ...d, hint };
}
