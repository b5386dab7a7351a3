// Which of gridsweep's own kinds of file a file is, from a cheap sniff of its first bytes (at most 64 KiB):
// so that a command given the wrong kind (an experiment's results.json to `report`) says in one line what
// the file is and which command takes it, instead of diagnosing it as a broken file of the kind it wanted.
//
// Only positive identifications count: a file that matches no rule is "unknown", and the command's own
// parser reports what is wrong with it. The rules, first match wins:
//   - gzip bytes: an SWF workload when the name ends in .swf.gz;
//   - first line "# gridsweep allocation log 1": an allocation log;
//   - first line "# gridsweep <version> (results version": an experiment's results.csv;
//   - "<!DOCTYPE html" / "<html": a report; "<svg" / "<?xml": a chart;
//   - a first line that is a JSON object with "type": "header", "gridsweepVersion" and "mode": a run
//     record; with "type": "run", "sweep" and "tasks": a run journal;
//   - a JSON document, by its top-level keys: "traceEvents" (a Chrome trace), "header" + "rows"
//     (experiment results), "realgrid" (real grid), "batch" + "workloads" (batch experiment spec),
//     "heuristics" or "grids" + "applications" (experiment spec), "sweep" + "command" or "parameters"
//     (sweep file), "chunks" or "tasksPerChunk" (mcell spec), "tasks" + "runTimeS" (ins2d spec), "jobs" +
//     "nodes" (swf workload spec; with "mix", a parallel workload spec), "timeshare" + "metrics" (a
//     time-shared trace's result), "clusters" (a real grid when a cluster has "storage" or "hosts" is an
//     object, else a grid generator spec); a JSON array whose first element has "workload" and "policy"
//     (batch experiment results);
//   - text: ";" header lines or a first line of 18 numbers (SWF), then the description formats
//     ('GridDescription' → .grid, 'WorkDescription' → .app, a lone number → behaviour file), and a first
//     meaningful line starting 'ParallelWorkload' (a parallel workload, .pwl).
import { closeSync, openSync, readSync } from 'node:fs';
import { InputError } from '../util/diagnostics.js';
import { detectDescriptionKind } from './detect.js';

export type FileKind =
  | 'run-record'
  | 'run-journal'
  | 'experiment-results'
  | 'experiment-results-csv'
  | 'batch-experiment-results'
  | 'real-grid'
  | 'sweep'
  | 'experiment-spec'
  | 'batch-experiment-spec'
  | 'timeshare-experiment-spec'
  | 'mcell-spec'
  | 'ins2d-spec'
  | 'grid-spec'
  | 'swf-spec'
  | 'parallel-spec'
  | 'parallel-workload'
  | 'timeshare-result'
  | 'allocation-log'
  | 'swf'
  | 'application'
  | 'grid'
  | 'behavior'
  | 'html-report'
  | 'chrome-trace'
  | 'svg'
  | 'unknown';

/** What each kind is, and the commands that take it (for one-line messages). */
export const FILE_KINDS: Readonly<Record<Exclude<FileKind, 'unknown'>, { readonly what: string; readonly takenBy: string }>> = {
  'run-record': { what: 'a run record (JSON Lines, from simulate --record or run --record)', takenBy: '`gridsweep report`, `gridsweep plot --kind gantt`, `gridsweep dashboard`, or `gridsweep run --replay/--compare`' },
  'run-journal': { what: "a real run's journal (JSON Lines)", takenBy: '`gridsweep run --journal FILE --resume`' },
  'experiment-results': { what: "an experiment's results (results.json)", takenBy: '`gridsweep plot RESULTS.json -o OUT.svg`' },
  'experiment-results-csv': { what: "an experiment's results table (results.csv)", takenBy: 'a spreadsheet; `gridsweep plot` takes the results.json beside it' },
  'batch-experiment-results': { what: "a batch experiment's results (results.json)", takenBy: 'no command (`gridsweep experiment` wrote it; its box plots are beside it)' },
  'real-grid': { what: 'a real grid file', takenBy: '`gridsweep run SWEEP.json --grid FILE`, `gridsweep describe --grid FILE` or `gridsweep probe FILE`' },
  sweep: { what: 'a sweep file', takenBy: '`gridsweep run FILE --grid REALGRID.json` or `gridsweep describe FILE`' },
  'experiment-spec': { what: 'an experiment specification', takenBy: '`gridsweep experiment FILE`' },
  'batch-experiment-spec': { what: 'a batch experiment specification', takenBy: '`gridsweep experiment FILE`' },
  'timeshare-experiment-spec': { what: 'a time-sharing experiment specification', takenBy: '`gridsweep experiment FILE`' },
  'mcell-spec': { what: 'an mcell generator specification', takenBy: '`gridsweep generate mcell FILE -o OUT.app`' },
  'ins2d-spec': { what: 'an ins2d generator specification', takenBy: '`gridsweep generate ins2d FILE -o OUT.app`' },
  'grid-spec': { what: 'a grid generator specification', takenBy: '`gridsweep generate grid FILE -o OUT.grid`' },
  'swf-spec': { what: 'a batch workload generator specification', takenBy: '`gridsweep generate swf FILE -o OUT.swf`' },
  'parallel-spec': { what: 'a parallel workload generator specification', takenBy: '`gridsweep generate parallel FILE -o OUT.pwl`' },
  'parallel-workload': { what: 'a parallel workload (.pwl: structured jobs for time-sharing)', takenBy: '`gridsweep trace FILE --timeshare STRATEGY --nodes N`' },
  'timeshare-result': { what: 'the result of a time-shared trace (trace --timeshare --json)', takenBy: '`gridsweep report FILE... -o OUT.html`' },
  'allocation-log': { what: 'an allocation log (from trace --allocation-log)', takenBy: '`gridsweep map FILE --pattern P`' },
  swf: { what: 'an SWF batch workload', takenBy: '`gridsweep trace FILE`' },
  application: { what: 'an application description (.app)', takenBy: '`gridsweep simulate --app FILE --grid G.grid` or `gridsweep validate FILE`' },
  grid: { what: 'a grid description (.grid)', takenBy: '`gridsweep simulate --app A.app --grid FILE` or `gridsweep validate FILE`' },
  behavior: { what: 'a behaviour file (one value per line)', takenBy: 'the grid description that names it (`gridsweep validate` that .grid)' },
  'html-report': { what: 'an HTML report', takenBy: 'a web browser' },
  'chrome-trace': { what: 'a Chrome/Perfetto trace', takenBy: 'https://ui.perfetto.dev or chrome://tracing' },
  svg: { what: 'an SVG chart', takenBy: 'a web browser or an image viewer' },
};

const HEAD_BYTES = 64 * 1024;

/** The keys of the top-level object of a (possibly cut short) JSON text, in order. */
function topLevelKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let i = text.indexOf('{');
  if (i < 0) return keys;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (depth === 1 && /^\s*:/.test(text.slice(i + 1, i + 40))) keys.push(JSON.parse(text.slice(start, i + 1)) as string);
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return keys;
}

function jsonKind(text: string, whole: boolean): FileKind {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) return /^\[\s*\{\s*"workload"\s*:/.test(trimmed) && /"policy"\s*:/.test(trimmed.slice(0, 2000)) ? 'batch-experiment-results' : 'unknown';
  const firstLine = trimmed.split('\n', 1)[0]!;
  try {
    const first = JSON.parse(firstLine) as Record<string, unknown>;
    if (first && typeof first === 'object') {
      if (first['type'] === 'header' && 'gridsweepVersion' in first && 'mode' in first) return 'run-record';
      if (first['type'] === 'run' && 'sweep' in first && 'tasks' in first) return 'run-journal';
    }
  } catch {
    // not one object per line
  }
  let value: Record<string, unknown> | undefined;
  if (whole) {
    try {
      const v = JSON.parse(text) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) value = v as Record<string, unknown>;
    } catch {
      // a broken JSON document: judged by its keys alone
    }
  }
  const keys = new Set(value ? Object.keys(value) : topLevelKeys(trimmed));
  const has = (k: string): boolean => keys.has(k);
  if (has('traceEvents')) return 'chrome-trace';
  if (has('header') && has('rows')) return 'experiment-results';
  if (has('realgrid')) return 'real-grid';
  if (has('timeshare') && has('workloads')) return 'timeshare-experiment-spec';
  if (has('batch') && has('workloads')) return 'batch-experiment-spec';
  if (has('heuristics') || (has('grids') && has('applications'))) return 'experiment-spec';
  if (has('sweep') && (has('command') || has('parameters'))) return 'sweep';
  if (has('chunks') || has('tasksPerChunk')) return 'mcell-spec';
  if (has('tasks') && has('runTimeS')) return 'ins2d-spec';
  if (has('timeshare') && has('metrics')) return 'timeshare-result';
  if (has('jobs') && has('nodes') && has('mix')) return 'parallel-spec';
  if (has('jobs') && has('nodes')) return 'swf-spec';
  if (has('clusters')) {
    const clusters = value?.['clusters'];
    if (!Array.isArray(clusters)) return 'unknown';
    const real = clusters.some((c) => c && typeof c === 'object' && ('storage' in c || ((c as { hosts?: unknown }).hosts !== undefined && !Array.isArray((c as { hosts?: unknown }).hosts))));
    const generated = clusters.some((c) => c && typeof c === 'object' && ('bandwidthBps' in c || 'latencyMs' in c));
    return real ? 'real-grid' : generated ? 'grid-spec' : 'unknown';
  }
  return 'unknown';
}

function textKind(text: string): FileKind {
  const lines = text.split('\n');
  const first = lines[0]!.replace(/^\uFEFF/, '').trimEnd();
  if (first === '# gridsweep allocation log 1') return 'allocation-log';
  if (/^# gridsweep \S+ \(results version/.test(first)) return 'experiment-results-csv';
  if (/^\s*(<!DOCTYPE html|<html)/i.test(first)) return 'html-report';
  if (/^\s*(<svg|<\?xml)/.test(first)) return 'svg';
  if (/^\s*[{[]/.test(first) || (first.trim() === '' && /^\s*[{[]/.test(text))) return jsonKind(text, false);
  if (first.startsWith(';')) return 'swf';
  const firstMeaningful = lines.find((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  if (firstMeaningful !== undefined && /^\s*ParallelWorkload(\s|$)/.test(firstMeaningful)) return 'parallel-workload';
  const firstData = lines.find((l) => l.trim() !== '' && !l.trimStart().startsWith(';'));
  if (firstData !== undefined && /^\s*(-?\d+(\.\d+)?\s+){17}-?\d+(\.\d+)?\s*$/.test(firstData)) return 'swf';
  try {
    const d = detectDescriptionKind(text);
    if (d !== 'unknown') return d;
  } catch {
    // not one of the description formats
  }
  return 'unknown';
}

/** The kind of a text (the start of a file, or all of it when `whole`). */
export function sniffText(text: string, whole: boolean): FileKind {
  if (/^\s*[{[]/.test(text)) return jsonKind(text, whole);
  return textKind(text);
}

/** The kind of the file at `path`, from its first 64 KiB; "unknown" when it cannot be read. */
export function sniffFileKind(path: string): FileKind {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 'unknown';
  }
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    if (n >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) return path.endsWith('.swf.gz') ? 'swf' : 'unknown';
    return sniffText(buf.subarray(0, n).toString('utf8'), n < HEAD_BYTES);
  } catch {
    return 'unknown';
  } finally {
    closeSync(fd);
  }
}

/** "this is X, not Y", when the file at `path` is positively another of gridsweep's kinds than `accepted`. */
export function wrongKind(path: string, accepted: readonly FileKind[], wanted: string): { readonly kind: FileKind; readonly sentence: string } | undefined {
  const kind = sniffFileKind(path);
  if (kind === 'unknown' || accepted.includes(kind)) return undefined;
  return { kind, sentence: `this is ${FILE_KINDS[kind].what}, not ${wanted}` };
}

/**
 * Refuses, in one line, a file that is positively another of gridsweep's kinds than `accepted`: what it is,
 * and which command takes it. `wanted` names what the command expected ("a run record").
 */
export function expectFileKind(path: string, accepted: readonly FileKind[], command: string, wanted: string): void {
  const wrong = wrongKind(path, accepted, wanted);
  if (wrong === undefined || wrong.kind === 'unknown') return;
  throw new InputError([
    {
      severity: 'error',
      pos: { file: path, line: 1, column: 1 },
      message: `${wrong.sentence}: \`gridsweep ${command}\` cannot read it; give it to ${FILE_KINDS[wrong.kind].takenBy}`,
    },
  ]);
}
