// Writing names and numbers so that the parsers read back exactly the same value.
import { LineTokens } from './line-lexer.js';

/** `<name>`; throws if the name could not be read back as one token (empty, blanks, '<', '>' or ':'). */
export function bracketName(name: string): string {
  return `<${checkedName(name)}>`;
}

/** Reused by every name checked: a writer checks one per line, and a fresh lexer allocates its arrays. */
const scratch = new LineTokens();

export function checkedName(name: string): string {
  const tokens = scratch.scan(name);
  if (tokens.count !== 1 || tokens.starts[0] !== 0 || tokens.ends[0] !== name.length) {
    throw new Error(`cannot write the name ${JSON.stringify(name)}: names must be non-empty, without blanks, '<', '>' or ':'`);
  }
  return name;
}

/** `<n>`; String() gives the shortest text that reads back as the same number. */
export function bracketNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`cannot write the number ${n}`);
  return `<${String(n)}>`;
}

export function plainNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`cannot write the number ${n}`);
  return String(n);
}
