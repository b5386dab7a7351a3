// A seeded generator of structured parallel workloads (the job model of Zhang and Sivasubramaniam 2004,
// section 2.2) for tests and benchmarks: communication-, I/O- or CPU-intensive jobs, or a mix, arriving
// as a Poisson process scaled to an offered load.
//
// Per job: tasks a power of two in 2 … maxTasks (uniform exponent); iterations uniform in 10 … 50; per
// task, compute per iteration uniform in ±50 % around the class's mean (a different value per task: the
// skew between tasks); the class decides the rest:
//   comm: compute mean 5 ms, no I/O, all-to-all or ring (even odds), 4 KiB messages;
//   io:   compute mean 5 ms, I/O 10 ms per iteration, ring, 1 KiB messages;
//   cpu:  compute mean 50 ms, no I/O, tree, 1 KiB messages.
// Offered load = Σ (tasks × iterations × mean compute) / (nodes × mean inter-arrival time), so the mean
// inter-arrival time is the expected work per job over (nodes × load).
import { Rng } from '../../util/rng.js';
import type { CommPattern, ParallelJob } from './job-structure.js';

export type JobClass = 'comm' | 'io' | 'cpu';

export interface StructuredWorkloadSpec {
  readonly seed: number;
  readonly jobs: number;
  readonly nodes: number;
  /** Largest job, in tasks (default: min(nodes, 16)). */
  readonly maxTasks?: number;
  /** Share of each class (default: all comm). */
  readonly mix?: Partial<Record<JobClass, number>>;
  /** Offered load on the CPUs (default 0.7). */
  readonly load?: number;
}

const CLASS: Record<JobClass, { computeS: number; ioS: number; patterns: CommPattern[]; bytes: number }> = {
  comm: { computeS: 0.005, ioS: 0, patterns: ['all-to-all', 'ring'], bytes: 4096 },
  io: { computeS: 0.005, ioS: 0.01, patterns: ['ring'], bytes: 1024 },
  cpu: { computeS: 0.05, ioS: 0, patterns: ['tree'], bytes: 1024 },
};

export function generateStructuredWorkload(spec: StructuredWorkloadSpec): ParallelJob[] {
  const rng = new Rng(spec.seed);
  const maxTasks = Math.max(2, Math.min(spec.maxTasks ?? 16, spec.nodes));
  const maxExp = Math.floor(Math.log2(maxTasks));
  const mix = Object.entries(spec.mix ?? { comm: 1 }).filter(([, w]) => (w ?? 0) > 0) as [JobClass, number][];
  const total = mix.reduce((a, [, w]) => a + w, 0);
  if (mix.length === 0 || !(total > 0)) throw new Error('the workload mix needs at least one class (comm, io, cpu) with a positive share');
  const load = spec.load ?? 0.7;
  const drafts = [];
  let work = 0;
  for (let id = 1; id <= spec.jobs; id++) {
    let u = rng.next() * total;
    let cls = mix[0]![0];
    for (const [c, w] of mix) {
      cls = c;
      if ((u -= w) < 0) break;
    }
    const k = CLASS[cls];
    const tasks = 2 ** (1 + rng.int(maxExp));
    const iterations = 10 + rng.int(41);
    const computeS = Array.from({ length: tasks }, () => k.computeS * rng.uniform(0.5, 1.5));
    work += tasks * iterations * k.computeS;
    drafts.push({ id, tasks, iterations, computeS, ioS: new Array<number>(tasks).fill(k.ioS), pattern: rng.pick(k.patterns), messageBytes: k.bytes, jobClass: cls });
  }
  const meanGapS = work / spec.jobs / (spec.nodes * load);
  let t = 0;
  return drafts.map((d) => {
    t += -Math.log(1 - rng.next()) * meanGapS;
    return { ...d, submitS: t };
  });
}
