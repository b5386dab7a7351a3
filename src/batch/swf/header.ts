// Builds an SWF header from its `;` comment lines, as the Parallel Workloads Archive writes them:
//   `; Key: value` starts a field — Key is one word (letters, digits, `_`, `-`) followed by `:` and a space
//     or the end of the line (so `http://…` on a line of its own is not a key);
//   a `;` line without such a key right after a field (or its continuation) continues that field's value,
//     e.g. an Information or Note running on over several lines; it is joined with a newline;
//   a bare `;` line ends the field; other keyless comments are not part of any field.
// Every field is kept, in order, repeated keys included. MaxNodes, MaxProcs, MaxJobs, UnixStartTime and
// MaxRuntime are also read as numbers (the last one given wins) when their value is a number.
import type { SwfHeader, SwfHeaderField } from './fields.js';

const KEY = /^\s*([A-Za-z][A-Za-z0-9_-]*):(?:\s|$)/;

const NUMBERS: Readonly<Record<string, 'maxNodes' | 'maxProcs' | 'maxJobs' | 'unixStartTime' | 'maxRuntime'>> = {
  maxnodes: 'maxNodes',
  maxprocs: 'maxProcs',
  maxjobs: 'maxJobs',
  unixstarttime: 'unixStartTime',
  maxruntime: 'maxRuntime',
};

export class HeaderBuilder {
  readonly header: SwfHeader = { fields: [] };
  /** The field a keyless comment line would continue, if the previous line was part of it. */
  private open: { key: string; value: string } | undefined;

  /** One comment line's text, after its `;`. */
  comment(text: string): void {
    const m = KEY.exec(text);
    if (m !== null) {
      const field = { key: m[1]!, value: text.slice(m[0].length).trim() };
      this.header.fields.push(field);
      this.open = field;
      this.readNumber(field);
      return;
    }
    const rest = text.trim();
    if (rest === '' || this.open === undefined) {
      this.open = undefined;
      return;
    }
    this.open.value = this.open.value === '' ? rest : `${this.open.value}\n${rest}`;
  }

  private readNumber(f: SwfHeaderField): void {
    const name = NUMBERS[f.key.toLowerCase()];
    const n = Number(f.value);
    if (name !== undefined && f.value !== '' && Number.isFinite(n)) this.header[name] = n;
  }
}
