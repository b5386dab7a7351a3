// Application description files (Berman et al. 1999, §7.2.2, appendix B): a header
// `WorkDescription <version> <file_number> <task_number>`, then File and Work lines in any order, as long
// as every file is declared before a Work uses it.
import type { Application, FileSpec, WorkSpec } from '../model/application.js';
import type { SourcePos } from '../model/grid.js';
import { Collector } from './collector.js';
import applicationGrammar from './generated/application.js';
import { LineTokens } from './line-lexer.js';
import { LineParser, syntaxDiagnostic, type Ref } from './line-parser.js';
import { shortList } from '../util/names.js';
import { NON_NEGATIVE, NON_NEGATIVE_INT, readNumber, type Range } from './numbers.js';
import { visitLines } from './source-lines.js';
import { bracketName, bracketNumber, checkedName, plainNumber } from './write-tokens.js';

export const APPLICATION_HEADER_KEYWORD = 'WorkDescription';

interface HeaderAst {
  readonly version: Ref;
  readonly fileCount: Ref;
  readonly workCount: Ref;
}
interface ListAst {
  readonly count: Ref;
  readonly items: readonly Ref[];
}
interface FileAst {
  readonly kind: 'file';
  readonly id: Ref;
  readonly name: Ref;
  readonly size: Ref;
  readonly estSize: Ref;
}
interface WorkAst {
  readonly kind: 'work';
  readonly id: Ref;
  readonly inputs: ListAst;
  readonly outputs: ListAst;
  readonly runTimes: ListAst;
  readonly estRunTimes: ListAst;
}

const headerParser = new LineParser<HeaderAst>(applicationGrammar, 'header');
const lineParser = new LineParser<FileAst | WorkAst>(applicationGrammar, 'line');

/** A Work's reference to a file not declared at that point (resolved once the whole file is read). */
interface PendingRef {
  readonly fileId: number;
  readonly line: number;
  readonly col: number;
  readonly text: string;
}

/** A token remembered beyond its line (LineTokens is refilled for every line). */
interface Spot {
  readonly line: number;
  readonly col: number;
  readonly text: string;
}

/** Distinct one-value run-time lists kept for sharing; past this, new values get lists of their own. */
const MAX_SHARED_LISTS = 4096;

/**
 * values[0, n) as an array of exactly n elements: an array grown by push() from empty keeps room for 17
 * elements (about 180 bytes for one value against 56), which a million Works multiply.
 */
function exactCopy(values: readonly number[], n: number): number[] {
  if (n === 1) return [values[0]!];
  if (n === 2) return [values[0]!, values[1]!];
  return values.slice(0, n);
}

/** Ids up to this many are numbered in a typed array; beyond (a header's typo), in a Map. */
export const MAX_TYPED_IDS = 1 << 27;

/**
 * The line where each id was declared. When the header gives the count, every id kept is below it: a typed
 * array (4 bytes an id) grown as ids come, rather than a Map or an array of numbers (8 bytes or more).
 */
class DeclaredLines {
  private lines = new Uint32Array(0);
  private readonly others = new Map<number, number>();

  /** `count`: how many ids the header declares (undefined: no usable header, any id may come). */
  constructor(private readonly count: number | undefined) {}

  get(id: number): number | undefined {
    if (id < this.lines.length) {
      const line = this.lines[id]!;
      if (line !== 0) return line;
    }
    return this.others.size === 0 ? undefined : this.others.get(id);
  }

  set(id: number, line: number): void {
    const count = this.count;
    if (count === undefined || id >= count || id >= MAX_TYPED_IDS || line > 0xffffffff) {
      this.others.set(id, line);
      return;
    }
    if (id >= this.lines.length) {
      const grown = new Uint32Array(Math.min(count, MAX_TYPED_IDS, Math.max(id + 1, 2 * this.lines.length, 1024)));
      grown.set(this.lines);
      this.lines = grown;
    }
    this.lines[id] = line;
  }
}

type ListKind = 'input file' | 'output file' | 'run time' | 'estimated run time';

/** Reads an application description line by line; `tokens` and `line` describe the current line. */
class ApplicationReader {
  readonly c: Collector;
  readonly tokens = new LineTokens();
  line = 0;
  version: string | undefined;
  header: { fileCount?: number; workCount?: number; fileCountAt: Spot; workCountAt: Spot } | undefined;
  readonly files: (FileSpec | undefined)[] = [];
  /** The line declaring each file id (sized once the header gives the count). */
  fileLine = new DeclaredLines(undefined);
  readonly works: (WorkSpec | undefined)[] = [];
  workLine = new DeclaredLines(undefined);
  fileLines = 0;
  workLines = 0;
  archs: { count: number; line: number } | undefined;
  readonly pending: PendingRef[] = [];
  /** The values of the list being read (reused from list to list). */
  private readonly values: number[] = [];
  private readonly singleLists = new Map<number, number[]>();
  private lastList: number[] | undefined;

  constructor(file: string) {
    this.c = new Collector(file);
  }

  private spot(ref: Ref): Spot {
    return { line: this.line, col: this.tokens.col(ref), text: this.tokens.value(ref) };
  }

  private num(ref: Ref, what: string, range: Range): number | undefined {
    return readNumber(this.c, this.line, this.tokens, ref, what, range);
  }

  private at(ref: Ref): SourcePos {
    return this.c.at(this.line, this.tokens, ref);
  }

  /** Reads the header; false (with an error reported) if the line is not a header. */
  readHeader(): boolean {
    const h = headerParser.parse(this.tokens);
    if (!h.ok) {
      this.version = '';
      const hint = this.tokens.is(0, 'GridDescription')
        ? 'this looks like a grid description; an application description starts with WorkDescription'
        : `start the file with a line '${APPLICATION_HEADER_KEYWORD} 1 <file_number> <task_number>'`;
      this.c.add(syntaxDiagnostic(h.error, this.tokens, this.c.file, this.line, 'the application description header', hint));
      return false;
    }
    const a = h.value;
    this.version = this.tokens.detachedValue(a.version);
    const fileCount = this.num(a.fileCount, 'file count', NON_NEGATIVE_INT);
    const workCount = this.num(a.workCount, 'task count', NON_NEGATIVE_INT);
    this.fileLine = new DeclaredLines(fileCount);
    this.workLine = new DeclaredLines(workCount);
    this.header = {
      fileCountAt: this.spot(a.fileCount),
      workCountAt: this.spot(a.workCount),
      ...(fileCount !== undefined && { fileCount }),
      ...(workCount !== undefined && { workCount }),
    };
    return true;
  }

  /** `quiet`: after a bad header, try the line as a File/Work line without reporting a second error. */
  readLine(quiet = false): void {
    const r = lineParser.parse(this.tokens);
    if (!r.ok) {
      if (quiet) return;
      const t = this.tokens;
      // A malformed File/Work line still counts as one, so the header counts do not report it twice.
      if (t.is(0, 'File')) this.fileLines++;
      if (t.is(0, 'Work')) this.workLines++;
      const what = t.is(0, 'Work') ? 'a Work line' : t.is(0, 'File') ? 'a File line' : 'a File or Work line';
      this.c.add(syntaxDiagnostic(r.error, t, this.c.file, this.line, what));
      return;
    }
    if (r.value.kind === 'file') this.readFile(r.value);
    else this.readWork(r.value);
  }

  private checkId(ref: Ref, what: 'file' | 'Work', declared: number | undefined, seenLine: DeclaredLines): number | undefined {
    const id = this.num(ref, `${what} id`, NON_NEGATIVE_INT);
    if (id === undefined) return undefined;
    const plural = what === 'file' ? 'files' : 'Works';
    if (declared !== undefined && id >= declared) {
      this.c.error(this.at(ref), {
        message: `${what} id ${id} is out of range: the header declares ${declared} ${plural}`,
        found: `'${this.tokens.value(ref)}'`,
        expected: declared === 0 ? `no ${what} lines` : `an id from 0 to ${declared - 1}`,
        hint: `number ${plural} from 0, or raise the ${what === 'file' ? 'file_number' : 'task_number'} in the header`,
      });
      return undefined;
    }
    const first = seenLine.get(id);
    if (first !== undefined) {
      this.c.error(this.at(ref), {
        message: `duplicate ${what} id ${id} (first declared at line ${first})`,
        found: `'${this.tokens.value(ref)}'`,
        expected: `an id not used by another ${what}`,
        hint: `give each ${what} its own id from 0 to n-1`,
      });
      return undefined;
    }
    seenLine.set(id, this.line);
    return id;
  }

  private readFile(a: FileAst): void {
    this.fileLines++;
    const id = this.checkId(a.id, 'file', this.header?.fileCount, this.fileLine);
    const sizeBytes = this.num(a.size, 'file size (bytes)', NON_NEGATIVE);
    const estSizeBytes = this.num(a.estSize, 'estimated file size (bytes)', NON_NEGATIVE);
    if (id === undefined || sizeBytes === undefined || estSizeBytes === undefined) return;
    this.files[id] = { id, name: this.tokens.detachedValue(a.name), sizeBytes, estSizeBytes };
  }

  /** The list's values if its count matches them and each value is valid. */
  private readList(list: ListAst, what: ListKind): number[] | undefined {
    const count = this.num(list.count, `${what} count`, NON_NEGATIVE_INT);
    let ok = count !== undefined;
    if (count !== undefined && count !== list.items.length) {
      this.c.error(this.at(list.count), {
        message: `the ${what} list says ${count} value(s) but lists ${list.items.length}`,
        found: `'${this.tokens.value(list.count)}'`,
        expected: String(list.items.length),
        hint: `make the count before ':' equal the number of values after it`,
      });
      ok = false;
    }
    const values = this.values;
    const n = list.items.length;
    const isFile = what === 'input file' || what === 'output file';
    for (let i = 0; i < n; i++) {
      const ref = list.items[i]!;
      const v = isFile ? this.fileRef(ref, `${what} id`) : this.num(ref, `${what} (s)`, NON_NEGATIVE);
      if (v === undefined) ok = false;
      else values[i] = v;
    }
    if (!ok) return undefined;
    return isFile ? exactCopy(values, n) : this.shared(values, n);
  }

  /**
   * Run-time lists are shared by every Work that gives the same values (they are never modified): a sweep's
   * Works mostly have the same few. One-value lists are looked up by value, longer ones against the last.
   */
  private shared(values: number[], n: number): number[] {
    if (n === 1) {
      const v = values[0]!;
      const known = this.singleLists.get(v);
      if (known !== undefined) return known;
      const made = [v];
      if (this.singleLists.size < MAX_SHARED_LISTS) this.singleLists.set(v, made);
      return made;
    }
    const last = this.lastList;
    if (last !== undefined && last.length === n) {
      let same = true;
      for (let i = 0; i < n && same; i++) same = Object.is(last[i], values[i]);
      if (same) return last;
    }
    return (this.lastList = exactCopy(values, n));
  }

  private fileRef(ref: Ref, what: string): number | undefined {
    const id = this.num(ref, what, NON_NEGATIVE_INT);
    if (id === undefined) return undefined;
    if (this.fileLine.get(id) === undefined) {
      const s = this.spot(ref);
      this.pending.push({ fileId: id, line: s.line, col: s.col, text: s.text });
      return undefined;
    }
    return id;
  }

  private readWork(a: WorkAst): void {
    this.workLines++;
    const id = this.checkId(a.id, 'Work', this.header?.workCount, this.workLine);
    const inputs = this.readList(a.inputs, 'input file');
    const outputs = this.readList(a.outputs, 'output file');
    const runTimeS = this.readList(a.runTimes, 'run time');
    const estRunTimeS = this.readList(a.estRunTimes, 'estimated run time');
    const archOk = this.checkArchitectures(a);
    if (id === undefined || !inputs || !outputs || !runTimeS || !estRunTimeS || !archOk) return;
    this.works[id] = { id, inputs, outputs, runTimeS, estRunTimeS };
  }

  private checkArchitectures(a: WorkAst): boolean {
    const runs = a.runTimes.items.length;
    const ests = a.estRunTimes.items.length;
    if (runs === 0) {
      this.c.error(this.at(a.runTimes.count), {
        message: 'a Work needs a run time for at least one architecture',
        found: 'an empty run time list',
        expected: 'one run time per architecture',
      });
      return false;
    }
    if (ests !== runs) {
      this.c.error(this.at(a.estRunTimes.count), {
        message: `this Work gives ${runs} run time(s) but ${ests} estimated run time(s)`,
        found: `${ests} estimated run time(s)`,
        expected: `${runs}, one per architecture`,
      });
      return false;
    }
    if (this.archs === undefined) {
      this.archs = { count: runs, line: this.line };
      return true;
    }
    if (this.archs.count !== runs) {
      this.c.error(this.at(a.runTimes.count), {
        message: `this Work has run times for ${runs} architecture(s) but the Work at line ${this.archs.line} has ${this.archs.count}`,
        found: `${runs} run time(s)`,
        expected: `${this.archs.count} run times, one per architecture (every Work covers the same architectures)`,
      });
      return false;
    }
    return true;
  }

  finish(): Application {
    const c = this.c;
    for (const p of this.pending) {
      const declaredAt = this.fileLine.get(p.fileId);
      const pos = c.pos(p.line, p.col);
      if (declaredAt !== undefined) {
        c.error(pos, {
          message: `file ${p.fileId} is used before it is declared (line ${declaredAt})`,
          found: `'${p.text}'`,
          expected: 'the id of a file declared above this line',
          hint: `move the 'File: ${p.fileId} …' line above this Work`,
        });
      } else {
        const n = this.header?.fileCount;
        c.error(pos, {
          message: `file ${p.fileId} is not declared`,
          found: `'${p.text}'`,
          expected: n === undefined || n === 0 ? 'the id of a declared file' : `a declared file id (0 to ${n - 1})`,
          hint: `add a line 'File: ${p.fileId} <name> <size> <estimated_size>' before this Work`,
        });
      }
    }
    const h = this.header;
    if (h !== undefined) {
      this.checkCount(h.fileCountAt, h.fileCount, this.fileLines, this.fileLine, 'file', 'File');
      this.checkCount(h.workCountAt, h.workCount, this.workLines, this.workLine, 'task', 'Work');
    }
    if (this.version === undefined) {
      c.error(c.pos(1, 1), {
        message: 'empty application description',
        found: 'no header line',
        expected: `'${APPLICATION_HEADER_KEYWORD} <version> <file_number> <task_number>' followed by File and Work lines`,
      });
    }
    c.throwIfErrors();
    return { version: this.version ?? '', files: this.files as FileSpec[], works: this.works as WorkSpec[] };
  }

  private checkCount(at: Spot, declared: number | undefined, lines: number, seen: DeclaredLines, what: string, kw: string): void {
    if (declared === undefined || declared === lines) return;
    const missing: string[] = [];
    for (let i = 0; i < declared && missing.length <= 6; i++) if (seen.get(i) === undefined) missing.push(String(i));
    this.c.error(this.c.pos(at.line, at.col), {
      message: `the header declares ${declared} ${what}(s) but the file has ${lines} ${kw} line(s)`,
      found: `'${at.text}'`,
      expected: String(lines),
      hint:
        missing.length > 0 && lines < declared
          ? `missing ${kw} ids: ${shortList(missing)}; add them or change the count to ${lines}`
          : `change the ${what} count in the header to ${lines}`,
    });
  }
}

export function parseApplication(text: string, file: string): Application {
  return readApplication([text], file);
}

/**
 * An application description given in consecutive pieces of its text (loadApplication reads a file a piece
 * at a time, so a large one is never held whole); the same result and the same errors as parseApplication
 * on the whole text.
 */
export function readApplication(pieces: Iterable<string>, file: string): Application {
  const r = new ApplicationReader(file);
  visitLines(pieces, (text, start, end, line) => {
    if (r.c.full) return false;
    r.tokens.scan(text, start, end);
    r.line = line;
    if (r.version === undefined) {
      if (!r.readHeader()) r.readLine(true);
    } else r.readLine();
    return !r.c.full;
  });
  return r.finish();
}

function list(values: readonly number[], write: (n: number) => string): string {
  let s = `<${values.length} :`;
  for (const v of values) s += ` ${write(v)}`;
  return `${s}>`;
}

/** The application description text, in the layout of appendix B. */
export function writeApplication(app: Application): string {
  const lines = [`${APPLICATION_HEADER_KEYWORD} ${checkedName(app.version)} ${app.files.length} ${app.works.length}`];
  for (const f of app.files) {
    lines.push(`File: ${bracketNumber(f.id)} ${bracketName(f.name)} ${bracketNumber(f.sizeBytes)} ${bracketNumber(f.estSizeBytes)}`);
  }
  for (const w of app.works) {
    lines.push(
      `Work: ${bracketNumber(w.id)} ${list(w.inputs, plainNumber)} ${list(w.outputs, plainNumber)} ${list(w.runTimeS, plainNumber)} ${list(w.estRunTimeS, plainNumber)}`,
    );
  }
  return lines.join('\n') + '\n';
}
