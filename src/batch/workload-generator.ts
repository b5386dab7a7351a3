// A seeded synthetic batch workload, so that tests, benchmarks and the demo need no downloaded trace.
//
// The distributions (after AccaSim §8 and the usual shape of the Parallel Workloads Archive's traces):
// - arrivals: a Poisson process whose rate follows a weekly cycle of 48 half-hour slots per day (night
//   0.25, 07:00–09:00 0.6, working hours 09:00–18:00 1, evening 0.5; Saturday and Sunday at half that),
//   scaled so that the offered load (cores × run time per second over the cluster's cores) is `load`;
//   time 0 falls `weekStartS` seconds into the week (default Monday 00:00);
// - cores: 1 with probability serialFraction; otherwise a power of two (2 … maxJobCores, uniform exponent)
//   with probability powerOfTwoFraction, else uniform in 2 … maxJobCores;
// - run time: log-normal with median runTimeMedianS and log-standard-deviation runTimeSigma, whole
//   seconds in [1, maxRunTimeS];
// - requested time: the run time with probability exactEstimateFraction, otherwise the run time times a
//   factor uniform in [1, overestimateMax]; rounded up to a multiple of requestRoundingS and capped at
//   maxRunTimeS (so no generated job reaches its limit).
import { Rng, standardNormal } from '../util/rng.js';
import type { BatchJob } from './job.js';

export interface WorkloadSpec {
  readonly jobs: number;
  readonly nodes: number;
  readonly coresPerNode: number;
  readonly load?: number;
  readonly serialFraction?: number;
  readonly powerOfTwoFraction?: number;
  readonly maxJobCores?: number;
  readonly runTimeMedianS?: number;
  readonly runTimeSigma?: number;
  readonly maxRunTimeS?: number;
  readonly exactEstimateFraction?: number;
  readonly overestimateMax?: number;
  readonly requestRoundingS?: number;
  /** Where in the week time 0 falls, in seconds from Monday 00:00 (32400: Monday 09:00, the busy hours). */
  readonly weekStartS?: number;
}

export const WORKLOAD_DEFAULTS = {
  load: 0.85,
  serialFraction: 0.3,
  powerOfTwoFraction: 0.75,
  runTimeMedianS: 600,
  runTimeSigma: 1.8,
  maxRunTimeS: 2 * 86_400,
  exactEstimateFraction: 0.1,
  overestimateMax: 5,
  requestRoundingS: 300,
  weekStartS: 0,
} as const;

const SLOT_S = 1800;
const WEEK_S = 7 * 86_400;
/** Jobs drawn (from a separate stream) to estimate the mean work per job that sets the arrival rate. */
const CALIBRATION_JOBS = 20_000;

/** The weight of the half-hour slot that holds `timeS` (time 0 is a Monday, 00:00). */
export function cycleWeight(timeS: number): number {
  const weekS = timeS % WEEK_S;
  const day = Math.floor(weekS / 86_400);
  const hour = (weekS % 86_400) / 3600;
  const daily = hour < 7 ? 0.25 : hour < 9 ? 0.6 : hour < 18 ? 1 : 0.5;
  return day >= 5 ? daily / 2 : daily;
}

function meanCycleWeight(): number {
  let sum = 0;
  for (let t = 0; t < WEEK_S; t += SLOT_S) sum += cycleWeight(t);
  return sum / (WEEK_S / SLOT_S);
}

type Resolved = Required<WorkloadSpec>;

/** Validates the spec (plain Errors naming the parameter) and fills in the defaults. */
export function resolveWorkloadSpec(spec: WorkloadSpec): Resolved {
  const r = { ...WORKLOAD_DEFAULTS, maxJobCores: Math.max(1, Math.floor((spec.nodes * spec.coresPerNode) / 2)), ...spec };
  const positiveInt = (name: keyof Resolved): void => {
    if (!Number.isInteger(r[name]) || (r[name] as number) < 1) throw new Error(`${name} must be a whole number ≥ 1, got ${String(r[name])}`);
  };
  const fraction = (name: keyof Resolved): void => {
    if (!((r[name] as number) >= 0 && (r[name] as number) <= 1)) throw new Error(`${name} must be in [0, 1], got ${String(r[name])}`);
  };
  for (const n of ['jobs', 'nodes', 'coresPerNode', 'maxJobCores', 'maxRunTimeS', 'requestRoundingS'] as const) positiveInt(n);
  for (const n of ['serialFraction', 'powerOfTwoFraction', 'exactEstimateFraction'] as const) fraction(n);
  if (!(r.load > 0 && r.load <= 10)) throw new Error(`load must be in (0, 10], got ${r.load}`);
  if (!(r.weekStartS >= 0 && r.weekStartS < WEEK_S)) throw new Error(`weekStartS must be in [0, ${WEEK_S}) seconds, got ${r.weekStartS}`);
  if (!(r.runTimeMedianS >= 1)) throw new Error(`runTimeMedianS must be ≥ 1, got ${r.runTimeMedianS}`);
  if (!(r.runTimeSigma >= 0)) throw new Error(`runTimeSigma must be ≥ 0, got ${r.runTimeSigma}`);
  if (!(r.overestimateMax >= 1)) throw new Error(`overestimateMax must be ≥ 1, got ${r.overestimateMax}`);
  if (r.maxJobCores > r.nodes * r.coresPerNode) throw new Error(`maxJobCores (${r.maxJobCores}) exceeds the cluster's ${r.nodes * r.coresPerNode} cores`);
  return r;
}

/** Yields `spec.jobs` jobs in submit order, numbered from 1; the same seed gives the same workload. */
export function* generateWorkload(spec: WorkloadSpec, seed: number): Generator<BatchJob> {
  const r = resolveWorkloadSpec(spec);
  const rng = new Rng(seed);
  const shape = (g: Rng): { cores: number; runS: number; requestedS: number } => drawShape(r, g);
  const calibration = rng.fork();
  let work = 0;
  for (let i = 0; i < CALIBRATION_JOBS; i++) {
    const s = shape(calibration);
    work += s.cores * s.runS;
  }
  const meanRatePerS = (r.load * r.nodes * r.coresPerNode) / (work / CALIBRATION_JOBS);
  const peakRatePerS = meanRatePerS / meanCycleWeight();
  let timeS = 0;
  for (let id = 1; id <= r.jobs; id++) {
    // Thinning: candidate arrivals at the peak rate, each kept with probability weight(t) / peak weight (1).
    do timeS += -Math.log(1 - rng.next()) / peakRatePerS;
    while (rng.next() >= cycleWeight(timeS + r.weekStartS));
    const s = shape(rng);
    // An SWF field is a whole number, written as such: a submit time past 2^53 s is neither.
    if (!(timeS <= Number.MAX_SAFE_INTEGER)) throw new Error(`load ${r.load} spreads the jobs too thin: job ${id} would be submitted after 2^53 s; raise "load" or lower "jobs"`);
    yield { id, submitS: Math.floor(timeS), runS: s.runS, cores: s.cores, requestedS: s.requestedS, userId: 1 + rng.int(100) };
  }
}

function drawShape(r: Resolved, rng: Rng): { cores: number; runS: number; requestedS: number } {
  let cores = 1;
  if (r.maxJobCores >= 2 && rng.next() >= r.serialFraction) {
    if (rng.next() < r.powerOfTwoFraction) cores = 2 ** (1 + rng.int(Math.floor(Math.log2(r.maxJobCores))));
    else cores = 2 + rng.int(r.maxJobCores - 1);
  }
  const raw = r.runTimeMedianS * Math.exp(r.runTimeSigma * standardNormal(rng));
  const runS = Math.min(r.maxRunTimeS, Math.max(1, Math.round(raw)));
  const factor = rng.next() < r.exactEstimateFraction ? 1 : rng.uniform(1, r.overestimateMax);
  const requestedS = Math.min(r.maxRunTimeS, Math.ceil((runS * factor) / r.requestRoundingS) * r.requestRoundingS);
  return { cores, runS, requestedS: Math.max(requestedS, runS) };
}

/** The SWF fields of a generated job (a submitted job not yet run: wait and status unknown). */
export function swfFieldsOf(job: BatchJob): number[] {
  return [job.id, job.submitS, -1, job.runS, job.cores, -1, -1, job.cores, job.requestedS, -1, -1, job.userId, -1, -1, -1, -1, -1, -1];
}
