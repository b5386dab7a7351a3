// Writing names and numbers so that the parsers read back exactly the same value.
import { tokenizeLine } from './line-lexer.js';

/** `<name>`; throws if the name could not be read back as one token (empty, blanks, '<', '>' or ':'). */
export function bracketName(name: string): string {
  return `<${checkedName(name)}>`;
}

export function checkedName(name: string): string {
  const tokens = tokenizeLine(name);
  if (tokens.length !== 1 || tokens[0]!.value !== name) {
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
