// Reads a run record (JSON Lines of RunRecordEvent) as a stream, checking each line's shape, the time
// order and the pairing of sub-task ends with their starts. Bad lines are reported as file:line:column.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { RunRecordEvent } from './events.js';
import { InputError, unreadableFile, type Diagnostic } from '../util/diagnostics.js';

const EVENT_TYPES = ['header', 'start', 'end', 'grid', 'sched', 'plan', 'work-done', 'work-failed', 'job', 'run-end'] as const;
const JOB_EVENTS = ['submit', 'reserve', 'start', 'end'];
const SUBTASK_KINDS = ['input', 'compute', 'output'];
const GRID_EVENT_KINDS = ['ADD_CLUSTER', 'ADD_HOST', 'REMOVE_CLUSTER', 'REMOVE_HOST', 'CHANGE_HOST_BEHAVIOR', 'CHANGE_CLUSTER_BEHAVIOR', 'ADD_BATCH_CLUSTER'];
/** Stop collecting after this many bad lines: the first ones are what the user needs to see. */
const MAX_REPORTED_ERRORS = 20;

type Json = Record<string, unknown>;

/** What is wrong with one parsed line, or null when it is a well-formed event. */
function shapeProblem(o: Json): { message: string; found?: string; expected?: string } | null {
  const type = o['type'];
  if (typeof type !== 'string' || !(EVENT_TYPES as readonly string[]).includes(type)) {
    return { message: 'unknown event type', found: JSON.stringify(type), expected: EVENT_TYPES.join(', ') };
  }
  const t = o['t'];
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) {
    return { message: `'${type}' event without a valid time`, found: `t = ${JSON.stringify(t)}`, expected: 't: a number of seconds ≥ 0' };
  }
  const need = (field: string, ok: (v: unknown) => boolean, expected: string) =>
    ok(o[field]) ? null : { message: `'${type}' event with a bad '${field}'`, found: JSON.stringify(o[field]) ?? 'nothing', expected: `${field}: ${expected}` };
  const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
  const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  const isStr = (v: unknown) => typeof v === 'string';
  const isObj = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  switch (type) {
    case 'header':
      return need('heuristic', isStr, 'a heuristic name') ?? need('taskCount', isInt, 'a whole number of tasks') ?? need('mode', (v) => v === 'sim' || v === 'real', "'sim' or 'real'");
    case 'start': {
      const p = need('id', isInt, 'a whole number') ?? need('kind', (v) => SUBTASK_KINDS.includes(v as string), 'input, compute or output') ?? need('resource', isObj, 'a link or host reference');
      if (p) return p;
      const r = o['resource'] as Json;
      const okResource = typeof r['cluster'] === 'string' && (r['type'] === 'link' || (r['type'] === 'host' && typeof r['host'] === 'string'));
      if (!okResource) return { message: "'start' event with a bad 'resource'", found: JSON.stringify(r), expected: '{"type":"link","cluster":C} or {"type":"host","host":H,"cluster":C}' };
      return null;
    }
    case 'end':
      return need('id', isInt, 'a whole number') ?? need('ok', (v) => typeof v === 'boolean', 'true or false');
    case 'grid':
      return need('event', (v) => isObj(v) && GRID_EVENT_KINDS.includes((v as Json)['kind'] as string), `a grid event (${GRID_EVENT_KINDS.join(', ')})`);
    case 'sched':
      return need('call', isStr, 'the name of a sched_* function');
    case 'plan':
      return need('cpuMs', isNum, 'milliseconds') ?? need('plannedWorks', isInt, 'a whole number');
    case 'work-done':
      return need('work', isInt, 'a work id') ?? need('host', isStr, 'a host name');
    case 'work-failed':
      return need('work', isInt, 'a work id') ?? need('host', isStr, 'a host name') ?? need('final', (v) => typeof v === 'boolean', 'true or false');
    case 'job':
      return need('cluster', isStr, 'a batch cluster name') ?? need('job', isInt, 'a job number') ?? need('event', (v) => JOB_EVENTS.includes(v as string), JOB_EVENTS.join(', '));
    case 'run-end':
      return need('makespanS', isNum, 'seconds') ?? need('worksDone', isInt, 'a whole number');
  }
  return null;
}

/** The 1-based column of a JSON.parse failure, when the engine's message names a position. */
function jsonErrorColumn(err: unknown): number {
  const m = /position (\d+)/.exec(String((err as Error).message));
  return m ? Number(m[1]) + 1 : 1;
}

/**
 * Checks record lines one by one. Feed it lines with `line()`; it returns the event, or null for a blank
 * or bad line (bad lines are kept in `errors`).
 */
export class RecordLineChecker {
  readonly errors: Diagnostic[] = [];
  private lineNo = 0;
  private lastT = 0;
  private sawHeader = false;
  private readonly openIds = new Set<number>();
  private readonly seenIds = new Set<number>();

  constructor(private readonly file: string) {}

  private fail(column: number, message: string, found?: string, expected?: string, hint?: string): null {
    if (this.errors.length < MAX_REPORTED_ERRORS) {
      this.errors.push({ severity: 'error', pos: { file: this.file, line: this.lineNo, column }, message, found, expected, hint });
    }
    return null;
  }

  get lineCount(): number {
    return this.lineNo;
  }

  line(text: string): RunRecordEvent | null {
    this.lineNo++;
    if (text.trim() === '') return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      return this.fail(jsonErrorColumn(err), 'not a valid JSON line', text.length > 80 ? `${text.slice(0, 77)}...` : text, 'one JSON object per line', 'the record may be truncated or hand-edited; regenerate it');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return this.fail(1, 'not a JSON object', text.slice(0, 80), 'one JSON object per line');
    }
    const o = parsed as Json;
    const problem = shapeProblem(o);
    if (problem) return this.fail(1, problem.message, problem.found, problem.expected);
    const ev = o as unknown as RunRecordEvent;
    if (!this.sawHeader) {
      if (ev.type !== 'header') return this.fail(1, 'the record does not start with a header', `a '${ev.type}' event`, "a 'header' event on the first line");
      this.sawHeader = true;
    } else if (ev.type === 'header') {
      return this.fail(1, 'a second header', "a 'header' event", 'one header, on the first line', 'records of two runs were concatenated; split them');
    }
    if (ev.t < this.lastT) {
      return this.fail(1, 'time goes backwards', `t = ${ev.t}`, `t ≥ ${this.lastT} (events are in time order)`);
    }
    this.lastT = ev.t;
    if (ev.type === 'start') {
      if (this.seenIds.has(ev.id)) return this.fail(1, `sub-task id ${ev.id} started twice`, `a second 'start' with id ${ev.id}`, 'each sub-task id started once');
      this.seenIds.add(ev.id);
      this.openIds.add(ev.id);
    } else if (ev.type === 'end') {
      if (!this.openIds.delete(ev.id)) return this.fail(1, `'end' of sub-task ${ev.id}, which is not running`, `id ${ev.id}`, "the id of an earlier 'start' that has not ended");
    }
    return ev;
  }

  /** Call after the last line; throws InputError listing every bad line found. */
  finish(): void {
    if (!this.sawHeader && this.errors.length === 0) {
      this.lineNo = Math.max(this.lineNo, 1);
      this.fail(1, 'empty run record', 'no events', "a 'header' event on the first line");
    }
    if (this.errors.length > 0) throw new InputError(this.errors);
  }
}

/**
 * Streams the events of a run record file. Well-formed events are yielded as they are read; at the end,
 * an InputError lists every bad line (at most 20), so a consumer must not commit output before the end.
 */
export async function* readRunRecord(path: string): AsyncGenerator<RunRecordEvent> {
  const checker = new RecordLineChecker(path);
  let input;
  try {
    input = createReadStream(path, { encoding: 'utf8' });
    await new Promise<void>((resolve, reject) => {
      input!.once('open', () => resolve());
      input!.once('error', reject);
    });
  } catch (err) {
    throw unreadableFile(path, 'the run record', err, { hint: 'check the path' });
  }
  const lines = createInterface({ input, crlfDelay: Infinity });
  // A folder opens, and fails at its first read.
  const reading = lines[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<string>;
    try {
      next = await reading.next();
    } catch (err) {
      throw unreadableFile(path, 'the run record', err, { hint: 'check the path' });
    }
    if (next.done === true) break;
    const ev = checker.line(next.value);
    if (ev) yield ev;
  }
  checker.finish();
}

/** Reads a whole run record into memory (for playback and reports). */
export async function loadRunRecord(path: string): Promise<RunRecordEvent[]> {
  const events: RunRecordEvent[] = [];
  for await (const ev of readRunRecord(path)) events.push(ev);
  return events;
}

/** Parses run-record text held in memory; `file` names it in errors. */
export function parseRunRecordText(text: string, file: string): RunRecordEvent[] {
  const checker = new RecordLineChecker(file);
  const events: RunRecordEvent[] = [];
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    const ev = checker.line(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (ev) events.push(ev);
  }
  checker.finish();
  return events;
}

/** One JSON line per event, as the record files hold them. */
export function formatRunRecord(events: readonly RunRecordEvent[]): string {
  return events.map((e) => JSON.stringify(e)).join('\n') + '\n';
}
