// Application generators (Berman et al. 1999, §6.1, §8): MCell-style sweeps, whose tasks come in chunks sharing one
// large input file, and INS2D-style sweeps, whose tasks share nothing. Every random draw comes from the Rng
// passed in; each aspect (sizes, run times, sharing perturbation, estimate noise) has its own forked
// sub-stream, so turning one knob does not reshuffle the others.
import type { Application, FileSpec, WorkSpec } from '../model/application.js';
import type { Rng } from '../util/rng.js';
import { checkDistribution, roundTo, sample, type Distribution } from './distribution.js';
import { MAX_GENERATED_FILES, MAX_GENERATED_TASKS } from './spec-schemas.js';

export const APPLICATION_FORMAT_VERSION = '1';

/** What every generated task has, shared or not. Sizes in bytes, times in seconds at 100 % availability. */
export interface TaskShapeSpec {
  /** Unshared input files per task. */
  readonly unsharedInputsPerTask: number;
  readonly unsharedInputSizeBytes: Distribution;
  /** One output file per task (Berman et al. 1999, §3). */
  readonly outputSizeBytes: Distribution;
  /** Run time on architecture 0. */
  readonly runTimeS: Distribution;
  /** Number of architectures (default 1). */
  readonly architectures?: number;
  /** Run time on architecture a = run time on 0 × factor[a] (default all 1). */
  readonly archRunTimeFactors?: readonly number[];
  /**
   * Computation/communication ratio: when set, run times are scaled so that the total run time on
   * architecture 0 equals `ratio` × (bytes every task must move once, inputs counted once per distinct
   * file plus outputs) / `referenceBandwidthBps`.
   */
  readonly ccr?: { readonly ratio: number; readonly referenceBandwidthBps: number };
  /** Quality of information (§5.2.2): estimates = real × (1 + U[-e, e] / 100). Default 0 (exact). */
  readonly runTimeEstimateErrorPct?: number;
  readonly sizeEstimateErrorPct?: number;
}

export interface McellSpec extends TaskShapeSpec {
  readonly chunks: number;
  readonly tasksPerChunk: number;
  readonly sharedFileSizeBytes: Distribution;
  /** Fraction (0–1) of tasks that read another chunk's shared file instead of their own (default 0). */
  readonly perturbation?: number;
}

export type Ins2dSpec = TaskShapeSpec & { readonly tasks: number };

interface Streams {
  readonly sizes: Rng;
  readonly times: Rng;
  readonly sharing: Rng;
  readonly estimates: Rng;
}

function forkStreams(rng: Rng): Streams {
  return { sizes: rng.fork(), times: rng.fork(), sharing: rng.fork(), estimates: rng.fork() };
}

function checkCount(n: number, what: string, min: number): void {
  if (!Number.isInteger(n) || n < min) throw new Error(`${what} must be a whole number >= ${min}, got ${n}`);
}

/** An application the format and a simulation can hold: `tasks` tasks and `shared` shared files at most. */
function checkSize(spec: TaskShapeSpec, tasks: number, shared: number, tasksField: string): void {
  if (tasks > MAX_GENERATED_TASKS) throw new Error(`${tasksField} gives ${tasks} tasks, more than the ${MAX_GENERATED_TASKS} a generated application may have`);
  const files = shared + tasks * (spec.unsharedInputsPerTask + 1);
  if (files > MAX_GENERATED_FILES) throw new Error(`unsharedInputsPerTask gives ${files} files, more than the ${MAX_GENERATED_FILES} an application may have`);
}

function checkShape(spec: TaskShapeSpec): number {
  checkCount(spec.unsharedInputsPerTask, 'unsharedInputsPerTask', 0);
  checkDistribution(spec.unsharedInputSizeBytes, 'unsharedInputSizeBytes');
  checkDistribution(spec.outputSizeBytes, 'outputSizeBytes');
  checkDistribution(spec.runTimeS, 'runTimeS');
  const archs = spec.architectures ?? 1;
  checkCount(archs, 'architectures', 1);
  if (spec.archRunTimeFactors !== undefined) {
    if (spec.archRunTimeFactors.length !== archs) {
      throw new Error(`archRunTimeFactors has ${spec.archRunTimeFactors.length} entries, expected one per architecture (${archs})`);
    }
    for (const f of spec.archRunTimeFactors) if (!(f > 0)) throw new Error(`archRunTimeFactors must be > 0, got ${f}`);
  }
  if (spec.ccr && !(spec.ccr.ratio > 0 && spec.ccr.referenceBandwidthBps > 0)) {
    throw new Error(`ccr needs ratio > 0 and referenceBandwidthBps > 0, got ${JSON.stringify(spec.ccr)}`);
  }
  for (const key of ['runTimeEstimateErrorPct', 'sizeEstimateErrorPct'] as const) {
    const e = spec[key] ?? 0;
    if (!(e >= 0 && e < 100)) throw new Error(`${key} must be in [0, 100), got ${e}`);
  }
  return archs;
}

/** Builds files and works from a sharing pattern: `sharedOf[t]` is the shared file index task t reads, or -1. */
class AppBuilder {
  private readonly files: FileSpec[] = [];
  private readonly inputsOf: number[][] = [];
  private readonly outputOf: number[] = [];
  private readonly baseTimeS: number[] = [];

  constructor(
    private readonly spec: TaskShapeSpec,
    private readonly streams: Streams,
  ) {}

  addFile(name: string, sizeBytes: number): number {
    const id = this.files.length;
    const size = Math.max(0, Math.round(sizeBytes));
    this.files.push({ id, name, sizeBytes: size, estSizeBytes: size });
    return id;
  }

  /** Unshared inputs are declared task by task, then all outputs, as in the paper's appendix B. */
  addTasks(sharedFileOf: readonly (number | undefined)[]): void {
    const { sizes, times } = this.streams;
    for (let t = 0; t < sharedFileOf.length; t++) {
      const inputs: number[] = [];
      const shared = sharedFileOf[t];
      if (shared !== undefined) inputs.push(shared);
      for (let k = 0; k < this.spec.unsharedInputsPerTask; k++) {
        inputs.push(this.addFile(`in_${t}_${k}`, sample(this.spec.unsharedInputSizeBytes, sizes)));
      }
      this.inputsOf.push(inputs);
      this.baseTimeS.push(sample(this.spec.runTimeS, times));
    }
    for (let t = 0; t < sharedFileOf.length; t++) this.outputOf.push(this.addFile(`out_${t}`, sample(this.spec.outputSizeBytes, sizes)));
  }

  build(archs: number): Application {
    const factors = this.spec.archRunTimeFactors ?? new Array<number>(archs).fill(1);
    let scale = 1;
    if (this.spec.ccr) {
      const bytes = this.files.reduce((s, f) => s + f.sizeBytes, 0);
      const totalTimeS = this.baseTimeS.reduce((s, x) => s + x, 0);
      if (totalTimeS > 0) scale = (this.spec.ccr.ratio * bytes) / this.spec.ccr.referenceBandwidthBps / totalTimeS;
    }
    const est = this.streams.estimates;
    const timeErr = (this.spec.runTimeEstimateErrorPct ?? 0) / 100;
    const sizeErr = (this.spec.sizeEstimateErrorPct ?? 0) / 100;
    const noisy = (x: number, err: number): number => (err === 0 ? x : x * (1 + est.uniform(-err, err)));
    const files = this.files.map((f) => (sizeErr === 0 ? f : { ...f, estSizeBytes: Math.max(0, Math.round(noisy(f.sizeBytes, sizeErr))) }));
    const works: WorkSpec[] = this.inputsOf.map((inputs, t) => {
      const runTimeS = factors.map((f) => Math.max(0, roundTo(this.baseTimeS[t]! * scale * f, 3)));
      const estRunTimeS = runTimeS.map((r) => (timeErr === 0 ? r : Math.max(0, roundTo(noisy(r, timeErr), 3))));
      return { id: t, inputs, outputs: [this.outputOf[t]!], runTimeS, estRunTimeS };
    });
    return { version: APPLICATION_FORMAT_VERSION, files, works };
  }
}

/**
 * MCell-style: `chunks` × `tasksPerChunk` tasks; the tasks of chunk c read shared file c (declared first,
 * ids 0..chunks-1), then their own unshared inputs; each writes one output. With `perturbation` p, round(p·n)
 * distinct tasks, chosen at random, read a shared file of another chunk chosen at random instead.
 */
export function generateMcellApplication(spec: McellSpec, rng: Rng): Application {
  const archs = checkShape(spec);
  checkCount(spec.chunks, 'chunks', 1);
  checkCount(spec.tasksPerChunk, 'tasksPerChunk', 1);
  checkDistribution(spec.sharedFileSizeBytes, 'sharedFileSizeBytes');
  checkSize(spec, spec.chunks * spec.tasksPerChunk, spec.chunks, 'chunks × tasksPerChunk');
  const p = spec.perturbation ?? 0;
  if (!(p >= 0 && p <= 1)) throw new Error(`perturbation must be a fraction in [0, 1], got ${p}`);

  const streams = forkStreams(rng);
  const builder = new AppBuilder(spec, streams);
  const sharedIds: number[] = [];
  for (let c = 0; c < spec.chunks; c++) sharedIds.push(builder.addFile(`shared_${c}`, sample(spec.sharedFileSizeBytes, streams.sizes)));

  const n = spec.chunks * spec.tasksPerChunk;
  const chunkOf = Array.from({ length: n }, (_, t) => Math.floor(t / spec.tasksPerChunk));
  if (spec.chunks > 1 && p > 0) {
    // Partial Fisher–Yates: the first `swaps` entries of `order` are distinct random tasks.
    const swaps = Math.round(p * n);
    const order = Array.from({ length: n }, (_, t) => t);
    for (let i = 0; i < swaps; i++) {
      const j = i + streams.sharing.int(n - i);
      [order[i], order[j]] = [order[j]!, order[i]!];
      const t = order[i]!;
      const other = streams.sharing.int(spec.chunks - 1);
      chunkOf[t] = other >= chunkOf[t]! ? other + 1 : other;
    }
  }
  builder.addTasks(chunkOf.map((c) => sharedIds[c]!));
  return builder.build(archs);
}

/** INS2D-style: independent tasks with unshared inputs only. */
export function generateIns2dApplication(spec: Ins2dSpec, rng: Rng): Application {
  const archs = checkShape(spec);
  checkCount(spec.tasks, 'tasks', 1);
  checkSize(spec, spec.tasks, 0, 'tasks');
  const builder = new AppBuilder(spec, forkStreams(rng));
  builder.addTasks(new Array<undefined>(spec.tasks).fill(undefined));
  return builder.build(archs);
}
