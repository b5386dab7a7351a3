// The two workloads of the GNU parallel comparison, each written once as an origin directory holding its
// inputs, a gridsweep sweep file and the equivalent GNU parallel job (argument file and command), plus a
// check that a run produced every expected output.
//
//  (a) trivial tasks: task i reads a tiny private input in/i.txt and writes out/i.txt ("i" then the input).
//  (b) chunked tasks: chunk c has a large shared input shared/chunk<c>.dat; task (c, k) also reads a small
//      private input in/<c>-<k>.dat, computes for a while (sleep) and writes out/<c>-<k>.txt holding the
//      checksums of the shared file's first MB and of its private input.
//  (c) empty tasks: task i runs `true i`, no inputs, no outputs.
//  (d) small outputs: task i writes out/i.txt, i zero-padded to 100 bytes, no inputs.
import { execFileSync } from 'node:child_process';
import { createCipheriv } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Workload {
  readonly name: string;
  readonly dir: string;
  readonly taskCount: number;
  /** Bytes of input the tasks read in all (shared inputs counted once per task that reads them). */
  readonly inputBytesPerTaskSum: number;
  readonly sweepPath: string;
  /** GNU parallel: the argument file (-a) and the options and command that follow it. */
  readonly parallelArgFile: string;
  readonly parallelArgs: readonly string[];
  /** Removes the outputs of a previous run. */
  clearOutputs(): void;
  /** Undefined when every output is there and right; otherwise what is wrong. */
  checkOutputs(): string | undefined;
  remove(): void;
}

/** Incompressible but reproducible bytes: an AES-CTR keystream with a fixed key, `label` as the IV. */
export function reproducibleBytes(sizeBytes: number, label: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(label, 0);
  const cipher = createCipheriv('aes-128-ctr', Buffer.alloc(16, 7), iv);
  return Buffer.concat([cipher.update(Buffer.alloc(sizeBytes)), cipher.final()]);
}

function makeDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `gridsweep-bench-${name}-`));
  mkdirSync(join(dir, 'in'));
  return dir;
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, JSON.stringify(value, null, 2));
}

interface NumberedOptions {
  readonly name: string;
  readonly dir: string;
  readonly tasks: number;
  /** The gridsweep sweep file's contents; its parameter i runs from 1 to `tasks`. */
  readonly sweep: object;
  readonly parallelArgs: readonly string[];
  readonly inputBytesPerTaskSum: number;
  /** What task i writes in out/i.txt; absent: the tasks write nothing. */
  readonly expected?: (i: number) => string;
}

/** Tasks numbered 1 to `tasks` (GNU parallel's argument, the sweep's parameter i). */
function numberedWorkload(o: NumberedOptions): Workload {
  const { dir, tasks, expected } = o;
  const sweepPath = join(dir, 'sweep.json');
  writeJson(sweepPath, o.sweep);
  const parallelArgFile = join(dir, 'args.txt');
  writeFileSync(parallelArgFile, `${Array.from({ length: tasks }, (_, i) => i + 1).join('\n')}\n`);
  return {
    name: o.name,
    dir,
    taskCount: tasks,
    inputBytesPerTaskSum: o.inputBytesPerTaskSum,
    sweepPath,
    parallelArgFile,
    parallelArgs: o.parallelArgs,
    clearOutputs: () => rmSync(join(dir, 'out'), { recursive: true, force: true }),
    checkOutputs() {
      // Without outputs, the tool's own count of tasks done (and its exit) is the check.
      if (expected === undefined) return undefined;
      for (let i = 1; i <= tasks; i++) {
        const path = join(dir, 'out', `${i}.txt`);
        if (!existsSync(path)) return `out/${i}.txt is missing`;
        if (readFileSync(path, 'utf8') !== expected(i)) return `out/${i}.txt is wrong`;
      }
      return undefined;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** (a) `tasks` trivial tasks, each with a private input of a few bytes and an output of a few bytes. */
export function trivialWorkload(tasks: number): Workload {
  const dir = makeDir('trivial');
  const expected: string[] = [];
  for (let i = 1; i <= tasks; i++) {
    const input = `input of task ${i}\n`;
    writeFileSync(join(dir, 'in', `${i}.txt`), input);
    expected.push(`${i}\n${input}`);
  }
  return numberedWorkload({
    name: 'trivial',
    dir,
    tasks,
    sweep: {
      sweep: 1,
      command: ['sh', '-c', 'echo "$1" | cat - "$2" > "$3"', 'task', '{i}', '{input}', '{out}'],
      parameters: { i: { from: 1, to: tasks } },
      inputs: { input: 'in/{i}.txt' },
      outputs: { out: 'out/{i}.txt' },
      estimates: { runTimeS: 0.01, outputSizeBytes: 24 },
    },
    parallelArgs: ['--transferfile', 'in/{}.txt', '--return', 'out/{}.txt', '--cleanup', 'mkdir -p out && echo {} | cat - in/{}.txt > out/{}.txt'],
    inputBytesPerTaskSum: expected.reduce((a, e) => a + e.length, 0),
    expected: (i) => expected[i - 1]!,
  });
}

export interface ChunkedOptions {
  readonly chunks: number;
  readonly tasksPerChunk: number;
  readonly sharedBytes: number;
  readonly privateBytes: number;
  readonly computeS: number;
}

/** (b) chunks of tasks sharing one large input each, plus a small private input per task. */
export function chunkedWorkload(o: ChunkedOptions): Workload {
  const dir = makeDir('chunked');
  mkdirSync(join(dir, 'shared'));
  for (let c = 0; c < o.chunks; c++) {
    writeFileSync(join(dir, 'shared', `chunk${c}.dat`), reproducibleBytes(o.sharedBytes, 1000 + c));
    for (let k = 1; k <= o.tasksPerChunk; k++) writeFileSync(join(dir, 'in', `${c}-${k}.dat`), reproducibleBytes(o.privateBytes, c * 100_000 + k));
  }
  // The task's script, the same for both tools (the arguments differ only in how each tool names files).
  const script = 'sleep "$1" && (head -c 1000000 "$2" | cksum; cksum < "$3") > "$4"';
  const expected = new Map<string, string>();
  for (let c = 0; c < o.chunks; c++) {
    for (let k = 1; k <= o.tasksPerChunk; k++) {
      expected.set(
        `${c}-${k}`,
        execFileSync('sh', ['-c', script.replace('> "$4"', ''), 'task', '0', `shared/chunk${c}.dat`, `in/${c}-${k}.dat`], { cwd: dir, encoding: 'utf8' }),
      );
    }
  }
  const sweepPath = join(dir, 'sweep.json');
  writeJson(sweepPath, {
    sweep: 1,
    command: ['sh', '-c', script, 'task', String(o.computeS), '{shared}', '{private}', '{out}'],
    parameters: { chunk: { from: 0, to: o.chunks - 1 }, k: { from: 1, to: o.tasksPerChunk } },
    inputs: { shared: 'shared/chunk{chunk}.dat', private: 'in/{chunk}-{k}.dat' },
    outputs: { out: 'out/{chunk}-{k}.txt' },
    estimates: { runTimeS: o.computeS + 0.05, outputSizeBytes: 40 },
  });
  const parallelArgFile = join(dir, 'args.txt');
  const lines: string[] = [];
  for (let c = 0; c < o.chunks; c++) for (let k = 1; k <= o.tasksPerChunk; k++) lines.push(`${c} ${k}`);
  writeFileSync(parallelArgFile, `${lines.join('\n')}\n`);
  const quotedScript = script.replace(/'/g, "'\\''");
  return {
    name: 'chunked',
    dir,
    taskCount: o.chunks * o.tasksPerChunk,
    inputBytesPerTaskSum: o.chunks * o.tasksPerChunk * (o.sharedBytes + o.privateBytes),
    sweepPath,
    parallelArgFile,
    parallelArgs: [
      '--colsep',
      ' ',
      '--transferfile',
      'shared/chunk{1}.dat',
      '--transferfile',
      'in/{1}-{2}.dat',
      '--return',
      'out/{1}-{2}.txt',
      '--cleanup',
      `mkdir -p out && sh -c '${quotedScript}' task ${o.computeS} shared/chunk{1}.dat in/{1}-{2}.dat out/{1}-{2}.txt`,
    ],
    clearOutputs: () => rmSync(join(dir, 'out'), { recursive: true, force: true }),
    checkOutputs() {
      for (const [key, want] of expected) {
        const path = join(dir, 'out', `${key}.txt`);
        if (!existsSync(path)) return `out/${key}.txt is missing`;
        if (readFileSync(path, 'utf8') !== want) return `out/${key}.txt is wrong`;
      }
      return undefined;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** (c) `tasks` tasks that run `true` with no inputs and no outputs: the cost of a task itself. */
export function emptyTasksWorkload(tasks: number): Workload {
  return numberedWorkload({
    name: 'empty',
    dir: makeDir('empty'),
    tasks,
    sweep: { sweep: 1, command: ['true', '{i}'], parameters: { i: { from: 1, to: tasks } }, estimates: { runTimeS: 0.01, outputSizeBytes: 0 } },
    parallelArgs: ['true'],
    inputBytesPerTaskSum: 0,
  });
}

/** (d) `tasks` tasks, no inputs, each writing a 100-byte output (its number, zero-padded). */
export function smallOutputWorkload(tasks: number): Workload {
  return numberedWorkload({
    name: 'small-output',
    dir: makeDir('small-output'),
    tasks,
    sweep: {
      sweep: 1,
      command: ['sh', '-c', 'printf "%0100d" "$1" > "$2"', 'task', '{i}', '{out}'],
      parameters: { i: { from: 1, to: tasks } },
      outputs: { out: 'out/{i}.txt' },
      estimates: { runTimeS: 0.01, outputSizeBytes: 100 },
    },
    parallelArgs: ['--return', 'out/{}.txt', '--cleanup', 'mkdir -p out && printf "%0100d" {} > out/{}.txt'],
    inputBytesPerTaskSum: 0,
    expected: (i) => String(i).padStart(100, '0'),
  });
}
