// Which kind of description a text is, from its first meaningful line.
import { APPLICATION_HEADER_KEYWORD } from './application.js';
import { GRID_HEADER_KEYWORD } from './grid-events.js';
import { tokenizeLine } from './line-lexer.js';
import { firstContentLine } from './source-lines.js';

export type DescriptionKind = 'grid' | 'application' | 'behavior' | 'unknown';

export function detectDescriptionKind(text: string): DescriptionKind {
  const first = firstContentLine(text);
  if (first === undefined) return 'unknown';
  const tokens = tokenizeLine(first.text);
  const word = tokens[0]?.value;
  if (word === GRID_HEADER_KEYWORD) return 'grid';
  if (word === APPLICATION_HEADER_KEYWORD) return 'application';
  if (tokens.length === 1 && tokens[0]!.type === 'NUMBER') return 'behavior';
  return 'unknown';
}
