// Expansion of a sweep file into tasks: the parameter space (cartesian product of the parameters, with
// zipped groups varying together), then per task the argv, input paths and output paths. Input files named
// by several tasks become one shared File. The result is an Application plus what a real backend needs.
import { statSync } from 'node:fs';
import { posix, resolve } from 'node:path';
import type { Application, FileId, FileSpec, WorkId, WorkSpec } from '../model/application.js';
import type { SourcePos } from '../model/grid.js';
import { fileErrorReason, InputError, type Diagnostic } from '../util/diagnostics.js';
import { escapePointerToken, type JsonSource } from './json-source.js';
import type { IntegerRange, LoadedSweep, ParamSpace, ParamValue } from './sweep-file.js';
import { fillTemplate, parseTemplate, placeholderNames, TemplateSyntaxError, type TemplatePart } from './template.js';

/** Most tasks a sweep may expand to (a guard against a typo making a billion tasks). */
export const MAX_SWEEP_TASKS = 1_000_000;

export interface TaskFile {
  readonly fileId: FileId;
  /** Path relative to the origin directory (and, in a task's working directory, the same relative path). */
  readonly path: string;
}

export interface SweepTask {
  readonly workId: WorkId;
  /** This task's parameter values, as the strings substituted into templates. */
  readonly params: Readonly<Record<string, string>>;
  readonly argv: readonly string[];
  readonly inputs: readonly TaskFile[];
  readonly outputs: readonly TaskFile[];
}

export interface ExpandedSweep {
  readonly application: Application;
  /** Indexed by WorkId. */
  readonly tasks: readonly SweepTask[];
  /** Absolute origin directory: inputs are read from it and outputs written into it. */
  readonly originDir: string;
  /** Relative path of every File, indexed by FileId. */
  readonly filePaths: readonly string[];
}

export interface ExpandOptions {
  readonly originDir: string;
  /** Architectures the grid has (each Work gets that many run-time estimates); default 1. */
  readonly architectures?: number;
}

/** The built-in placeholder holding the task's number (its WorkId). */
export const TASK_PLACEHOLDER = 'task';

function paramValueText(v: ParamValue): string {
  return typeof v === 'string' ? v : String(v);
}

function spaceValues(space: ParamSpace): string[] {
  if (Array.isArray(space)) return space.map(paramValueText);
  const { from, to } = space as IntegerRange;
  const step = (space as IntegerRange).step ?? (from <= to ? 1 : -1);
  const out: string[] = [];
  for (let v = from; step > 0 ? v <= to : v >= to; v += step) {
    out.push(String(v));
    if (out.length > MAX_SWEEP_TASKS) break;
  }
  return out;
}

class Problems {
  readonly list: Diagnostic[] = [];
  constructor(private readonly source: JsonSource) {}
  add(pointer: string, message: string, hint: string, extra: { found?: string; expected?: string } = {}): void {
    this.list.push({ severity: 'error', pos: this.source.positionOf(pointer), message, hint, ...extra });
  }
  pos(pointer: string): SourcePos {
    return this.source.positionOf(pointer);
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw new InputError(this.list);
  }
}

/** A dimension of the parameter space: one parameter, or a zipped group whose members move together. */
interface Dimension {
  readonly names: readonly string[];
  /** rows[i][k] is the value of names[k] in the i-th step. */
  readonly rows: readonly (readonly string[])[];
}

function buildDimensions(loaded: LoadedSweep, problems: Problems): Dimension[] {
  const { sweep } = loaded;
  const paramNames = Object.keys(sweep.parameters);
  const values = new Map(paramNames.map((n) => [n, spaceValues(sweep.parameters[n]!)]));
  for (const [name, vs] of values) {
    if (vs.length === 0) {
      problems.add(`/parameters/${escapePointerToken(name)}`, `parameter "${name}" has no values (its range is empty)`, 'make "to" reachable from "from" with "step"');
    }
  }
  const groupOf = new Map<string, number>();
  (sweep.zip ?? []).forEach((group, g) => {
    group.forEach((name, k) => {
      const ptr = `/zip/${g}/${k}`;
      if (!values.has(name)) problems.add(ptr, `zip names "${name}", which is not a parameter`, `use one of: ${paramNames.join(', ')}`);
      else if (groupOf.has(name)) problems.add(ptr, `parameter "${name}" is in two zip groups`, 'put each parameter in at most one group');
      else groupOf.set(name, g);
    });
    const lengths = group.filter((n) => values.has(n)).map((n) => values.get(n)!.length);
    if (new Set(lengths).size > 1) {
      problems.add(`/zip/${g}`, `zipped parameters have different numbers of values (${group.map((n) => `${n}: ${values.get(n)?.length ?? '?'}`).join(', ')})`, 'give every parameter of a zip group the same number of values');
    }
  });
  problems.throwIfAny();

  const dims: Dimension[] = [];
  const placedGroups = new Set<number>();
  for (const name of paramNames) {
    const g = groupOf.get(name);
    if (g === undefined) {
      dims.push({ names: [name], rows: values.get(name)!.map((v) => [v]) });
    } else if (!placedGroups.has(g)) {
      placedGroups.add(g);
      const names = sweep.zip![g]!;
      const n = values.get(names[0]!)!.length;
      dims.push({ names, rows: Array.from({ length: n }, (_, i) => names.map((m) => values.get(m)![i]!)) });
    }
  }
  return dims;
}

function parseTemplateAt(template: string, pointer: string, problems: Problems): TemplatePart[] {
  try {
    return parseTemplate(template);
  } catch (err) {
    if (!(err instanceof TemplateSyntaxError)) throw err;
    problems.add(pointer, err.message, 'correct the placeholder', { found: JSON.stringify(template) });
    return [];
  }
}

/** A File's name as application descriptions can write it (no blanks, '<', '>' or ':'); the real path is in filePaths. */
function descriptionName(path: string): string {
  return path.replace(/[\s<>:]/g, '_');
}

/** A path that stays inside the origin directory (and a task's working directory), normalized. */
function checkRelativePath(path: string): string | undefined {
  if (path === '' || path.startsWith('/') || path.includes('\0')) return undefined;
  const norm = posix.normalize(path);
  if (norm === '.' || norm === '..' || norm.startsWith('../') || norm.endsWith('/')) return undefined;
  return norm;
}

export function expandSweep(loaded: LoadedSweep, options: ExpandOptions): ExpandedSweep {
  const { sweep, source } = loaded;
  const problems = new Problems(source);
  const originDir = resolve(options.originDir);
  const architectures = options.architectures ?? 1;

  const inputNames = Object.keys(sweep.inputs ?? {});
  const outputNames = Object.keys(sweep.outputs ?? {});
  const paramNames = Object.keys(sweep.parameters);
  const owner = new Map<string, string>();
  const claim = (name: string, kind: string, pointer: string): void => {
    if (name === TASK_PLACEHOLDER) problems.add(pointer, `"${name}" is reserved for the task number`, 'choose another name');
    else if (owner.has(name)) problems.add(pointer, `"${name}" is both ${owner.get(name)} and ${kind}`, 'give them different names');
    else owner.set(name, kind);
  };
  paramNames.forEach((n) => claim(n, 'a parameter', `/parameters/${escapePointerToken(n)}`));
  inputNames.forEach((n) => claim(n, 'an input', `/inputs/${escapePointerToken(n)}`));
  outputNames.forEach((n) => claim(n, 'an output', `/outputs/${escapePointerToken(n)}`));

  const est = sweep.estimates.runTimeS;
  let estRunTimeS: number[];
  if (typeof est === 'number') estRunTimeS = Array.from({ length: Math.max(1, architectures) }, () => est);
  else {
    estRunTimeS = [...est];
    if (est.length < architectures) {
      problems.add('/estimates/runTimeS', `the grid has ${architectures} architectures but runTimeS gives ${est.length} estimate(s)`, 'give one estimate per architecture, or a single number for all');
    }
  }

  // Templates: paths may name parameters (and the task number); the command may also name inputs and outputs.
  const pathNames = new Set([...paramNames, TASK_PLACEHOLDER]);
  const commandNames = new Set([...pathNames, ...inputNames, ...outputNames]);
  const compile = (template: string, pointer: string, allowed: Set<string>, what: string): TemplatePart[] => {
    const parts = parseTemplateAt(template, pointer, problems);
    for (const name of placeholderNames(parts)) {
      if (!allowed.has(name)) {
        problems.add(pointer, `unknown placeholder {${name}} in ${what}`, `use one of: ${[...allowed].map((a) => `{${a}}`).join(' ')} (write {{ for a literal brace)`, { found: JSON.stringify(template) });
      }
    }
    return parts;
  };
  const commandT = sweep.command.map((c, i) => compile(c, `/command/${i}`, commandNames, 'the command'));
  const inputT = inputNames.map((n) => compile(sweep.inputs![n]!, `/inputs/${escapePointerToken(n)}`, pathNames, 'an input path'));
  const outputT = outputNames.map((n) => compile(sweep.outputs![n]!, `/outputs/${escapePointerToken(n)}`, pathNames, 'an output path'));
  problems.throwIfAny();

  const dims = buildDimensions(loaded, problems);
  const taskCount = dims.reduce((n, d) => n * d.rows.length, 1);
  if (taskCount > MAX_SWEEP_TASKS) {
    problems.add('/parameters', `the sweep expands to ${taskCount} tasks, more than ${MAX_SWEEP_TASKS}`, 'reduce the parameter space or split the sweep');
    problems.throwIfAny();
  }

  const files: FileSpec[] = [];
  const filePaths: string[] = [];
  const inputIdByPath = new Map<string, FileId>();
  const outputOwner = new Map<string, WorkId>();
  const rawTasks: { params: Record<string, string>; argvVals: Record<string, string>; inputs: { path: string; ptr: string }[]; outputs: { path: string; ptr: string }[] }[] = [];

  const badPath = (ptr: string, path: string, params: Record<string, string>): void => {
    problems.add(ptr, `path ${JSON.stringify(path)} (task ${params[TASK_PLACEHOLDER]}) is not a relative path inside the origin directory`, 'use a relative path without ".." that names a file, e.g. "data/in-{seed}.txt"');
  };

  for (let t = 0; t < taskCount; t++) {
    const params: Record<string, string> = { [TASK_PLACEHOLDER]: String(t) };
    let rest = t;
    for (let d = dims.length - 1; d >= 0; d--) {
      const dim = dims[d]!;
      const row = dim.rows[rest % dim.rows.length]!;
      rest = Math.floor(rest / dim.rows.length);
      dim.names.forEach((n, k) => (params[n] = row[k]!));
    }
    const argvVals: Record<string, string> = { ...params };
    const inputs: { path: string; ptr: string }[] = [];
    inputNames.forEach((n, k) => {
      const ptr = `/inputs/${escapePointerToken(n)}`;
      const raw = fillTemplate(inputT[k]!, params);
      const path = checkRelativePath(raw);
      if (path === undefined) return badPath(ptr, raw, params);
      argvVals[n] = path;
      inputs.push({ path, ptr });
    });
    const outputs: { path: string; ptr: string }[] = [];
    outputNames.forEach((n, k) => {
      const ptr = `/outputs/${escapePointerToken(n)}`;
      const raw = fillTemplate(outputT[k]!, params);
      const path = checkRelativePath(raw);
      if (path === undefined) return badPath(ptr, raw, params);
      argvVals[n] = path;
      const prior = outputOwner.get(path);
      if (prior !== undefined && problems.list.length < 20) {
        problems.add(ptr, `tasks ${prior} and ${t} would both write ${JSON.stringify(path)}`, 'put enough parameters in the output path to make it unique per task, e.g. "out-{task}.txt"');
      }
      outputOwner.set(path, t);
      outputs.push({ path, ptr });
    });
    rawTasks.push({ params, argvVals, inputs, outputs });
    if (problems.list.length >= 20) break;
  }
  problems.throwIfAny();

  // Input Files first (shared ones once), then each task's outputs. An input that cannot be read is
  // reported once, not once per task that reads it.
  const unreadable = new Set<string>();
  for (const task of rawTasks) {
    for (const { path, ptr } of task.inputs) {
      if (inputIdByPath.has(path) || unreadable.has(path)) continue;
      if (outputOwner.has(path)) {
        problems.add(ptr, `${JSON.stringify(path)} is both an input and an output (of task ${outputOwner.get(path)})`, 'give outputs their own paths');
        continue;
      }
      let sizeBytes = 0;
      try {
        const st = statSync(resolve(originDir, path));
        if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: st.isDirectory() ? 'EISDIR' : 'not a regular file' });
        sizeBytes = st.size;
      } catch (err) {
        unreadable.add(path);
        problems.add(ptr, `input ${JSON.stringify(path)} cannot be read in the origin directory ${originDir} (${fileErrorReason(err)})`, 'create the file or correct the path template');
        continue;
      }
      const id = files.length;
      files.push({ id, name: descriptionName(path), sizeBytes, estSizeBytes: sizeBytes });
      filePaths.push(path);
      inputIdByPath.set(path, id);
    }
    if (problems.list.length >= 20) break;
  }
  problems.throwIfAny();

  const works: WorkSpec[] = [];
  const tasks: SweepTask[] = [];
  const outSize = sweep.estimates.outputSizeBytes;
  rawTasks.forEach((raw, workId) => {
    const inputs: TaskFile[] = [];
    for (const { path } of raw.inputs) {
      const fileId = inputIdByPath.get(path)!;
      if (!inputs.some((f) => f.fileId === fileId)) inputs.push({ fileId, path });
    }
    const outputs: TaskFile[] = raw.outputs.map(({ path }) => {
      const fileId = files.length;
      files.push({ id: fileId, name: descriptionName(path), sizeBytes: outSize, estSizeBytes: outSize });
      filePaths.push(path);
      return { fileId, path };
    });
    const argv = commandT.map((parts) => fillTemplate(parts, raw.argvVals));
    works.push({
      id: workId,
      inputs: inputs.map((f) => f.fileId),
      outputs: outputs.map((f) => f.fileId),
      runTimeS: estRunTimeS,
      estRunTimeS,
    });
    tasks.push({ workId, params: raw.params, argv, inputs, outputs });
  });

  return { application: { version: '1', files, works }, tasks, originDir, filePaths };
}
