// A seeded generator of structured parallel workloads (the job model of Zhang and Sivasubramaniam 2004,
// section 2.2): communication-, I/O- or CPU-intensive jobs, or a mix, arriving as a Poisson process
// scaled to an offered load.
//
// Per job: tasks a power of two in minTasks … maxTasks (uniform exponent); iterations uniform in the
// class's range; per task, compute per iteration uniform in ±skew around the class's mean (a different
// value per task: the imbalance between tasks); the class decides the rest. The default classes:
//   comm: compute mean 5 ms, no I/O, all-to-all or ring (even odds), 4 KiB messages;
//   io:   compute mean 5 ms, I/O 10 ms per iteration, ring, 1 KiB messages;
//   cpu:  compute mean 50 ms, no I/O, tree, 1 KiB messages;
// all with 10 … 50 iterations and skew 0.5. `classes` overrides any of these per class (the experiments
// under experiments/ use longer, finer-grained and better balanced jobs: see docs/timesharing.md).
// Offered load = Σ (tasks × iterations × mean compute) / (nodes × mean inter-arrival time), so the mean
// inter-arrival time is the expected work per job over (nodes × load).
import { Rng } from '../../util/rng.js';
import { COMM_PATTERNS, type CommPattern, type ParallelJob } from './job-structure.js';

export type JobClass = 'comm' | 'io' | 'cpu';

export const JOB_CLASSES: readonly JobClass[] = ['comm', 'io', 'cpu'];

/** What the jobs of a class look like. */
export interface JobClassShape {
  /** Mean compute per iteration per task, seconds. */
  readonly computeS: number;
  /** I/O per iteration per task, seconds (0: none). */
  readonly ioS: number;
  /** Per-task compute is uniform in computeS × [1 − skew, 1 + skew]; 0 ≤ skew < 1. */
  readonly skew: number;
  /** Iterations per job, uniform in [min, max]. */
  readonly iterations: readonly [number, number];
  /** Each job draws one of these, with even odds. */
  readonly patterns: readonly CommPattern[];
  readonly messageBytes: number;
}

export const DEFAULT_JOB_CLASSES: Readonly<Record<JobClass, JobClassShape>> = {
  comm: { computeS: 0.005, ioS: 0, skew: 0.5, iterations: [10, 50], patterns: ['all-to-all', 'ring'], messageBytes: 4096 },
  io: { computeS: 0.005, ioS: 0.01, skew: 0.5, iterations: [10, 50], patterns: ['ring'], messageBytes: 1024 },
  cpu: { computeS: 0.05, ioS: 0, skew: 0.5, iterations: [10, 50], patterns: ['tree'], messageBytes: 1024 },
};

export interface StructuredWorkloadSpec {
  readonly seed: number;
  readonly jobs: number;
  readonly nodes: number;
  /** Smallest job, in tasks (default 2; rounded up to a power of two). */
  readonly minTasks?: number;
  /** Largest job, in tasks (default: min(nodes, 16)). */
  readonly maxTasks?: number;
  /** Share of each class (default: all comm). */
  readonly mix?: Partial<Record<JobClass, number>>;
  /** Offered load on the CPUs (default 0.7). */
  readonly load?: number;
  /** Per class, fields that replace the defaults (DEFAULT_JOB_CLASSES). */
  readonly classes?: Partial<Record<JobClass, Partial<JobClassShape>>>;
}

/** The class shapes a spec asks for; throws saying what is wrong with an override. */
export function resolveJobClasses(overrides: StructuredWorkloadSpec['classes'] = {}): Record<JobClass, JobClassShape> {
  const out = {} as Record<JobClass, JobClassShape>;
  for (const c of JOB_CLASSES) {
    const k: JobClassShape = { ...DEFAULT_JOB_CLASSES[c], ...(overrides[c] ?? {}) };
    const where = `workload class ${c}`;
    if (!(k.computeS > 0)) throw new Error(`${where}: computeS must be > 0 seconds, got ${k.computeS}`);
    if (!(k.ioS >= 0)) throw new Error(`${where}: ioS must be >= 0 seconds, got ${k.ioS}`);
    if (!(k.skew >= 0 && k.skew < 1)) throw new Error(`${where}: skew must be from 0 to below 1, got ${k.skew}`);
    const [lo, hi] = k.iterations;
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < 1 || hi < lo) throw new Error(`${where}: iterations must be [min, max], whole numbers with 1 <= min <= max, got [${lo}, ${hi}]`);
    if (k.patterns.length === 0 || k.patterns.some((p) => !COMM_PATTERNS.includes(p))) throw new Error(`${where}: patterns must be a non-empty list of ${COMM_PATTERNS.join(', ')}, got [${k.patterns.join(', ')}]`);
    if (!(k.messageBytes >= 0)) throw new Error(`${where}: messageBytes must be >= 0, got ${k.messageBytes}`);
    out[c] = k;
  }
  return out;
}

export function generateStructuredWorkload(spec: StructuredWorkloadSpec): ParallelJob[] {
  const rng = new Rng(spec.seed);
  const classes = resolveJobClasses(spec.classes);
  const maxTasks = Math.max(2, Math.min(spec.maxTasks ?? 16, spec.nodes));
  const maxExp = Math.floor(Math.log2(maxTasks));
  const minExp = Math.min(maxExp, Math.max(0, Math.ceil(Math.log2(spec.minTasks ?? 2))));
  const mix = Object.entries(spec.mix ?? { comm: 1 }).filter(([, w]) => (w ?? 0) > 0) as [JobClass, number][];
  const total = mix.reduce((a, [, w]) => a + w, 0);
  if (mix.length === 0 || !(total > 0)) throw new Error('the workload mix needs at least one class (comm, io, cpu) with a positive share');
  const load = spec.load ?? 0.7;
  if (!(load > 0)) throw new Error(`the offered load must be > 0, got ${load}`);
  const drafts = [];
  let work = 0;
  for (let id = 1; id <= spec.jobs; id++) {
    let u = rng.next() * total;
    let cls = mix[0]![0];
    for (const [c, w] of mix) {
      cls = c;
      if ((u -= w) < 0) break;
    }
    const k = classes[cls];
    // With the default minTasks (2: minExp 1) this is 2 ** (1 + rng.int(maxExp)), the draw before minTasks existed.
    const tasks = 2 ** (minExp + rng.int(maxExp - minExp + 1));
    const iterations = k.iterations[0] + rng.int(k.iterations[1] - k.iterations[0] + 1);
    const computeS = Array.from({ length: tasks }, () => k.computeS * rng.uniform(1 - k.skew, 1 + k.skew));
    work += tasks * iterations * k.computeS;
    drafts.push({ id, tasks, iterations, computeS, ioS: new Array<number>(tasks).fill(k.ioS), pattern: rng.pick(k.patterns), messageBytes: k.messageBytes, jobClass: cls });
  }
  const meanGapS = work / spec.jobs / (spec.nodes * load);
  let t = 0;
  return drafts.map((d) => {
    t += -Math.log(1 - rng.next()) * meanGapS;
    // The parallel workload format holds times a double holds exactly (to 2^53 s).
    if (!(t <= Number.MAX_SAFE_INTEGER)) throw new Error(`load ${load} spreads the jobs too thin: job ${d.id} would be submitted after 2^53 s; raise "load" or lower "jobs"`);
    return { ...d, submitS: t };
  });
}
