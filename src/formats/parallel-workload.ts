// Parallel workload files (.pwl): structured jobs for the time-sharing simulator, one line per job, in the
// job model of Zhang and Sivasubramaniam 2004 (section 2.2): N tasks, each running a number of iterations
// of compute, I/O and a communication phase with its peers in a pattern, with a message size.
//
//   ParallelWorkload 1 [seed S]
//   Job ID submit S tasks N iterations K compute DIST [io DIST] [pattern P] [message BYTES] [class NAME]
//
// DIST, in seconds per iteration, is per task: a number (every task), `uniform LO HI` or `exponential MEAN`
// (one draw per task), or `N : v1 ... vN` (one value per task). Draws come from a stream of their own per
// job (the header's seed, default 1, and the job's id), tasks in index order, compute before I/O — so
// editing one job never changes another's values. `#` comments and blank lines are skipped.
//
// A format of its own rather than SWF plus a side file: a structured job's fields (iterations, per-task
// distributions, pattern, message size) have no place among SWF's 18, a side file keyed by job number
// would have to be kept in step with the SWF, and a mistake would be in one of two files. Plain SWF
// workloads still run time-shared, as rigid jobs of pure computation.
import { MAX_TIMESHARED_CPUS } from '../batch/cluster-limits.js';
import { COMM_PATTERNS, type CommPattern, type ParallelJob } from '../batch/timeshare/job-structure.js';
import { Rng, MAX_SEED } from '../util/rng.js';
import { Collector } from './collector.js';
import grammar from './generated/parallel-workload.js';
import { LineTokens } from './line-lexer.js';
import { LineParser, syntaxDiagnostic, type Ref } from './line-parser.js';
import { closestName } from '../util/names.js';
import { NON_NEGATIVE, NON_NEGATIVE_INT, readNumber, type Range } from './numbers.js';
import { LineCursor } from './source-lines.js';

export const PARALLEL_WORKLOAD_KEYWORD = 'ParallelWorkload';
export const PARALLEL_WORKLOAD_VERSION = 1;
export const DEFAULT_PARALLEL_SEED = 1;

interface HeaderAst {
  readonly version: Ref;
  readonly seedKeyword?: Ref;
  readonly seed?: Ref;
}
interface DistAst {
  readonly form: 'constant' | 'uniform' | 'exponential' | 'list';
  readonly keyword?: Ref;
  readonly count?: Ref;
  readonly args: readonly Ref[];
}
interface FieldAst {
  readonly key: Ref;
  readonly value?: Ref;
  readonly name?: Ref;
  readonly dist?: DistAst;
}
interface JobAst {
  readonly keyword: Ref;
  readonly id: Ref;
  readonly fields: readonly FieldAst[];
}

const headerParser = new LineParser<HeaderAst>(grammar, 'header');
const jobParser = new LineParser<JobAst>(grammar, 'job');

const REQUIRED = ['submit', 'tasks', 'iterations', 'compute'] as const;
/** Names the literature uses for the patterns (the hint suggests ours). */
const PATTERN_ALIASES: Readonly<Record<string, string>> = { 'nearest-neighbour': 'ring', 'nearest-neighbor': 'ring', neighbour: 'ring', neighbor: 'ring', linear: 'ring', broadcast: 'tree', alltoall: 'all-to-all', all2all: 'all-to-all' };
const POSITIVE_INT: Range = { integer: true, min: 1 };
/** A job runs one task per CPU, so no more tasks than a time-shared cluster has CPUs. */
const TASK_COUNT: Range = { integer: true, min: 1, max: MAX_TIMESHARED_CPUS };
const SEED: Range = { integer: true, min: 0, max: MAX_SEED };
const JOB_FIELDS = 'submit S tasks N iterations K compute DIST [io DIST] [pattern P] [message BYTES] [class NAME]';

/** Where a job was written, so later checks (a job too big for the cluster) can point at it. */
export interface ParallelJobPlace {
  readonly line: number;
  /** Column of the task count. */
  readonly tasksColumn: number;
}

export interface ParallelWorkload {
  readonly seed: number;
  readonly jobs: ParallelJob[];
  /** One per job, in the same order. */
  readonly places: ParallelJobPlace[];
}

/** The seed of one job's draws: the header's seed mixed with the job's id. */
function jobSeed(seed: number, id: number): number {
  return (seed ^ Math.imul(id >>> 0, 0x9e3779b1) ^ Math.floor(id / 4294967296)) >>> 0;
}

export function parseParallelWorkload(text: string, file: string): ParallelWorkload {
  const c = new Collector(file);
  const tokens = new LineTokens();
  const cursor = new LineCursor(text);
  const jobs: ParallelJob[] = [];
  const places: ParallelJobPlace[] = [];
  const seenIds = new Map<number, number>();
  let seed = DEFAULT_PARALLEL_SEED;
  let sawHeader = false;
  let lastLine = 1;
  while (cursor.advance() && !c.full) {
    const line = cursor.line;
    lastLine = line;
    tokens.scan(text, cursor.start, cursor.end);
    if (!sawHeader) {
      sawHeader = true;
      const h = headerParser.parse(tokens);
      if (!h.ok) {
        c.add(syntaxDiagnostic(h.error, tokens, file, line, 'the parallel workload header', `the first line is \`${PARALLEL_WORKLOAD_KEYWORD} ${PARALLEL_WORKLOAD_VERSION}\`, optionally followed by \`seed N\``));
        continue;
      }
      const version = readNumber(c, line, tokens, h.value.version, 'format version', NON_NEGATIVE_INT);
      if (version !== undefined && version !== PARALLEL_WORKLOAD_VERSION) {
        c.error(c.at(line, tokens, h.value.version), { message: `unsupported parallel workload version ${version}`, found: `'${tokens.value(h.value.version)}'`, expected: String(PARALLEL_WORKLOAD_VERSION) });
      }
      if (h.value.seed !== undefined) seed = readNumber(c, line, tokens, h.value.seed, 'seed', SEED) ?? seed;
      continue;
    }
    const r = jobParser.parse(tokens);
    if (!r.ok) {
      c.add(syntaxDiagnostic(r.error, tokens, file, line, 'a job line', `a job line is \`Job ID ${JOB_FIELDS}\``));
      continue;
    }
    const idValue = tokens.number(r.value.id);
    const previous = seenIds.get(idValue);
    if (previous !== undefined) {
      c.error(c.at(line, tokens, r.value.id), { message: `job ${tokens.value(r.value.id)} is defined twice (first on line ${previous})`, found: `'${tokens.value(r.value.id)}'`, expected: 'a job id not used before', hint: 'give every job its own id' });
      continue;
    }
    seenIds.set(idValue, line);
    const job = readJob(c, tokens, line, r.value, seed);
    if (job === undefined) continue;
    jobs.push(job.job);
    places.push({ line, tasksColumn: job.tasksColumn });
  }
  if (!sawHeader) {
    c.error(c.pos(1, 1), { message: 'empty parallel workload', found: 'no header', expected: `\`${PARALLEL_WORKLOAD_KEYWORD} ${PARALLEL_WORKLOAD_VERSION}\`, then one \`Job\` line per job` });
  } else if (jobs.length === 0 && c.errors.length === 0) {
    c.error(c.pos(lastLine, 1), { message: 'the parallel workload has no job', found: 'nothing after this line', expected: `a line \`Job ID ${JOB_FIELDS}\`` });
  }
  c.throwIfErrors();
  return { seed, jobs, places };
}

function readJob(c: Collector, tokens: LineTokens, line: number, ast: JobAst, seed: number): { job: ParallelJob; tasksColumn: number } | undefined {
  const errorsBefore = c.errors.length;
  const id = readNumber(c, line, tokens, ast.id, 'job id', NON_NEGATIVE_INT);
  const byKey = new Map<string, FieldAst>();
  for (const f of ast.fields) {
    const key = tokens.value(f.key);
    const first = byKey.get(key);
    if (first !== undefined) {
      c.error(c.at(line, tokens, f.key), { message: `${key} is given twice in this job`, found: `'${key}'`, expected: 'each field once', hint: `remove one of the two (the first is at column ${tokens.col(first.key)})` });
      continue;
    }
    byKey.set(key, f);
  }
  const missing = REQUIRED.filter((k) => !byKey.has(k));
  if (missing.length > 0) {
    c.error(c.pos(line, tokens.lineText().trimEnd().length + 1), {
      message: `job ${tokens.value(ast.id)} lacks ${missing.join(', ')}`,
      found: 'the end of the line',
      expected: missing.map((k) => `${k} ${k === 'compute' ? 'DIST' : k === 'submit' ? 'SECONDS' : 'COUNT'}`).join(' '),
      hint: `a job line is \`Job ID ${JOB_FIELDS}\``,
    });
  }
  const num = (key: string, what: string, range: Range): number | undefined => {
    const f = byKey.get(key);
    return f?.value === undefined ? undefined : readNumber(c, line, tokens, f.value, what, range);
  };
  const submitS = num('submit', 'submit time (s)', NON_NEGATIVE);
  const tasks = num('tasks', 'task count', TASK_COUNT);
  const iterations = num('iterations', 'iteration count', POSITIVE_INT);
  const messageBytes = num('message', 'message size (bytes)', NON_NEGATIVE_INT) ?? 0;
  let pattern: CommPattern = 'none';
  const p = byKey.get('pattern');
  if (p?.name !== undefined) {
    const name = tokens.value(p.name);
    if ((COMM_PATTERNS as readonly string[]).includes(name)) pattern = name as CommPattern;
    else {
      const near = PATTERN_ALIASES[name] ?? closestName(name, COMM_PATTERNS);
      c.error(c.at(line, tokens, p.name), {
        message: `unknown communication pattern '${name}'`,
        found: `'${name}'`,
        expected: `one of ${COMM_PATTERNS.join(', ')}`,
        hint: near !== undefined ? `did you mean '${near}'?` : 'ring: nearest neighbours on a ring (i sends to i-1 and i+1); tree: a broadcast down a binary tree; all-to-all: every task to every other',
      });
    }
  }
  const cls = byKey.get('class');
  const jobClass = cls?.name === undefined ? undefined : tokens.value(cls.name);
  const taskCount = tasks ?? 0;
  const rng = new Rng(jobSeed(seed, id ?? 0));
  const computeS = readDist(c, tokens, line, byKey.get('compute')?.dist, taskCount, 'compute time (s)', rng);
  const ioS = byKey.has('io') ? readDist(c, tokens, line, byKey.get('io')!.dist, taskCount, 'I/O time (s)', rng) : new Array<number>(taskCount).fill(0);
  if (c.errors.length > errorsBefore || id === undefined || submitS === undefined || tasks === undefined || iterations === undefined || computeS === undefined || ioS === undefined) return undefined;
  const job: ParallelJob = { id, submitS, tasks, iterations, computeS, ioS, pattern, messageBytes, ...(jobClass === undefined ? {} : { jobClass }) };
  return { job, tasksColumn: tokens.col(byKey.get('tasks')!.value!) };
}

/** One value per task from a distribution; undefined (with errors reported) when it is wrong. */
function readDist(c: Collector, tokens: LineTokens, line: number, dist: DistAst | undefined, tasks: number, what: string, rng: Rng): number[] | undefined {
  if (dist === undefined) return undefined;
  const arg = (i: number, label: string): number | undefined => readNumber(c, line, tokens, dist.args[i]!, `${what}${label}`, NON_NEGATIVE);
  switch (dist.form) {
    case 'constant': {
      const v = arg(0, '');
      return v === undefined ? undefined : new Array<number>(tasks).fill(v);
    }
    case 'uniform': {
      const lo = arg(0, ', uniform low');
      const hi = arg(1, ', uniform high');
      if (lo === undefined || hi === undefined) return undefined;
      if (hi < lo) {
        c.error(c.at(line, tokens, dist.args[1]!), { message: `uniform ${lo} ${hi}: the high bound is below the low one`, found: `'${tokens.value(dist.args[1]!)}'`, expected: `a number, ${lo} or more`, hint: 'write `uniform LOW HIGH`' });
        return undefined;
      }
      return Array.from({ length: tasks }, () => rng.uniform(lo, hi));
    }
    case 'exponential': {
      const mean = arg(0, ', exponential mean');
      if (mean === undefined) return undefined;
      return Array.from({ length: tasks }, () => -Math.log(1 - rng.next()) * mean);
    }
    case 'list': {
      const count = readNumber(c, line, tokens, dist.count!, `${what} list count`, NON_NEGATIVE_INT);
      if (count === undefined) return undefined;
      if (count !== dist.args.length) {
        c.error(c.at(line, tokens, dist.count!), { message: `the list says ${count} value(s) but holds ${dist.args.length}`, found: `'${tokens.value(dist.count!)}'`, expected: String(dist.args.length), hint: 'the count before ":" is the number of values after it' });
        return undefined;
      }
      if (tasks > 0 && count !== tasks) {
        c.error(c.at(line, tokens, dist.count!), { message: `a list of ${what} needs one value per task: ${tasks}, not ${count}`, found: `'${tokens.value(dist.count!)}'`, expected: String(tasks), hint: 'or give one number, `uniform LO HI` or `exponential MEAN` for every task' });
        return undefined;
      }
      const values: number[] = [];
      for (let i = 0; i < dist.args.length; i++) {
        const v = arg(i, '');
        if (v === undefined) return undefined;
        values.push(v);
      }
      return values;
    }
  }
}

/** A number as the shortest text that reads back to the same double. */
const num = (v: number): string => String(v);

function distText(values: readonly number[]): string {
  if (values.length > 0 && values.every((v) => v === values[0])) return num(values[0]!);
  return `${values.length} : ${values.map(num).join(' ')}`;
}

/** The workload as a .pwl text, every value written exactly (per-task lists where tasks differ). */
export function writeParallelWorkload(jobs: readonly ParallelJob[], comments: readonly string[] = []): string {
  const lines = [...comments.map((l) => `# ${l}`), `${PARALLEL_WORKLOAD_KEYWORD} ${PARALLEL_WORKLOAD_VERSION}`];
  for (const j of jobs) {
    const parts = [`Job ${j.id}`, `submit ${num(j.submitS)}`, `tasks ${j.tasks}`, `iterations ${j.iterations}`, `compute ${distText(j.computeS)}`];
    if (j.ioS.some((v) => v !== 0)) parts.push(`io ${distText(j.ioS)}`);
    if (j.pattern !== 'none') parts.push(`pattern ${j.pattern}`);
    if (j.messageBytes !== 0) parts.push(`message ${j.messageBytes}`);
    if (j.jobClass !== undefined) parts.push(`class ${j.jobClass}`);
    lines.push(parts.join(' '));
  }
  return lines.join('\n') + '\n';
}
