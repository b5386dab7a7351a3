// Measuring a real grid so that it can be simulated: every machine's CPU availability (from its load
// average and core count), and each cluster's link: latency from a tiny round trip (the load probe's
// command), bandwidth from a timed transfer of a test file into the cluster's storage. One sample per
// round, rounds `intervalS` apart. A cluster whose hosts come as batch jobs (Slurm) has no hosts to measure:
// its batch system is asked what it is (the transport's probeBatch: nodes, cores, time limit, scheduler),
// and it is described as a batch cluster. Every machine and batch system must answer: one that does not is
// an error (nothing is measured half-way), and this run's files are removed from the storage afterwards.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LinkSample } from '../../src/model/grid.js';
import type { RealGrid } from '../../src/realgrid/real-grid-file.js';
import { Rng } from '../../src/util/rng.js';
import { transferDeadlineS } from '../transport/deadline.js';
import { availabilityFromLoad, type Endpoint } from '../transport/endpoint.js';
import type { BatchClusterFacts } from '../transport/registry.js';
import { TRANSPORTS } from '../transports.js';

export interface ProbeOptions {
  /** Rounds of measurement (samples per behaviour series). */
  readonly samples: number;
  /** Seconds from the start of one round to the start of the next (the behaviour's sample period). */
  readonly intervalS: number;
  /** Size of the test file sent into each cluster's storage each round. */
  readonly transferBytes: number;
  readonly acceptNew: boolean;
  /** Seed of the test file's content (random bytes, so that no compression flatters the link). */
  readonly seed?: number;
  readonly connectTimeoutMs?: number;
  readonly log?: (line: string) => void;
}

export interface ProbedHost {
  readonly id: string;
  readonly arch: number;
  /** CPU availability a new task can expect, percent (0–100), one value per round. */
  readonly availabilityPct: readonly number[];
}

export interface ProbedCluster {
  readonly id: string;
  readonly link: readonly LinkSample[];
  readonly hosts: readonly ProbedHost[];
  /** A batch cluster: what its batch system said, and the architecture of its cores. */
  readonly batch?: BatchClusterFacts & { readonly arch: number };
}

export interface ProbeResult {
  readonly samplePeriodS: number;
  readonly clusters: readonly ProbedCluster[];
}

/** Some machines of the real grid could not be reached; `problems` names each one and why. */
export class UnreachableHostsError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`cannot probe the real grid: ${problems.length} machine(s) unreachable:\n${problems.map((p) => `  ${p}`).join('\n')}\nfix the real grid file or bring them up, then probe again`);
    this.name = 'UnreachableHostsError';
  }
}

/** The batch system of some clusters did not answer, or said what cannot be described; `problems` names each. */
export class BatchProbeError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`cannot probe the real grid: ${problems.length} batch cluster(s) could not be described:\n${problems.map((p) => `  ${p}`).join('\n')}\nfix the real grid file or the cluster, then probe again`);
    this.name = 'BatchProbeError';
  }
}

const MIN_AVAILABILITY_PCT = 0.1;

const round1 = (x: number): number => Math.round(x * 10) / 10;

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, ms)));
}

export async function probeRealGrid(grid: RealGrid, o: ProbeOptions): Promise<ProbeResult> {
  const runId = `probe-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const clusters = grid.clusters.map((c) => ({
    spec: c,
    endpoints: c.endpoints.map((e): Endpoint =>
      TRANSPORTS.endpoint(c, e, { runId, acceptNew: o.acceptNew, ...(o.connectTimeoutMs !== undefined ? { connectTimeoutMs: o.connectTimeoutMs } : {}) }),
    ),
  }));
  const all = clusters.flatMap((c) => c.endpoints);
  const scratch = mkdtempSync(join(tmpdir(), 'gridsweep-probe-'));
  try {
    const problems: string[] = [];
    await Promise.all(
      all.map(async (e) => {
        try {
          await e.connect();
        } catch (err) {
          problems.push(`${e.spec.name} (cluster ${e.clusterId}): ${(err as Error).message}`);
        }
      }),
    );
    if (problems.length > 0) throw new UnreachableHostsError(problems.sort());

    // Batch clusters: their batch system says what they are (before any measurement: a failure writes nothing).
    const batch = new Map<string, BatchClusterFacts & { arch: number }>();
    await Promise.all(
      clusters.map(async (c) => {
        const storage = c.endpoints[0];
        if (storage === undefined) return;
        try {
          const facts = await TRANSPORTS.probeBatch(c.spec, storage, { deadlines: grid.deadlines });
          if (facts) batch.set(c.spec.id, { ...facts, arch: c.spec.slurm?.arch ?? 0 });
        } catch (err) {
          problems.push(`${c.spec.id}: ${(err as Error).message}`);
        }
      }),
    );
    if (problems.length > 0) throw new BatchProbeError(problems.sort());
    for (const [id, b] of batch) o.log?.(`${id}: batch cluster, partition ${b.partition}: ${b.nodes} node(s) of ${b.coresPerNode} CPU(s), policy ${b.policy}`);

    const testFile = join(scratch, 'probe.bin');
    const rng = new Rng(o.seed ?? 1);
    const bytes = Buffer.alloc(o.transferBytes);
    for (let i = 0; i < bytes.length; i++) bytes[i] = rng.int(256);
    writeFileSync(testFile, bytes);

    const availability = new Map<Endpoint, number[]>(all.map((e) => [e, []]));
    const links = new Map<string, LinkSample[]>(clusters.map((c) => [c.spec.id, []]));
    for (let k = 0; k < o.samples; k++) {
      const roundStart = performance.now();
      await Promise.all(
        clusters.map(async (c) => {
          let rttMs = Infinity;
          for (const e of c.endpoints) {
            const s = await e.probe();
            availability.get(e)!.push(Math.max(MIN_AVAILABILITY_PCT, round1(100 * availabilityFromLoad(s))));
            rttMs = Math.min(rttMs, s.rttMs);
          }
          const via = c.endpoints[0]!;
          const name = `probe-${k}`;
          const t0 = performance.now();
          await via.putFile(testFile, name, transferDeadlineS(grid.deadlines, o.transferBytes, undefined));
          const seconds = (performance.now() - t0) / 1000;
          await via.removeFile(name);
          // the transfer's time beyond one round trip is what the bytes took
          const transferS = seconds - rttMs / 1000 > seconds / 2 ? seconds - rttMs / 1000 : seconds;
          links.get(c.spec.id)!.push({ latencyMs: round1(rttMs), bandwidthBps: Math.max(1, Math.round(o.transferBytes / Math.max(transferS, 1e-6))) });
        }),
      );
      o.log?.(`round ${k + 1}/${o.samples} measured`);
      if (k + 1 < o.samples) await sleep(o.intervalS * 1000 - (performance.now() - roundStart));
    }
    return {
      samplePeriodS: o.intervalS,
      clusters: clusters.map((c) => {
        const b = batch.get(c.spec.id);
        return {
          id: c.spec.id,
          link: links.get(c.spec.id)!,
          hosts: c.endpoints.flatMap((e) => e.spec.hostIds.map((id) => ({ id, arch: e.spec.arch, availabilityPct: availability.get(e)! }))),
          ...(b ? { batch: b } : {}),
        };
      }),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await Promise.all(
      clusters.map(async (c) => {
        const e = c.endpoints.find((x) => x.isUp());
        if (e) await e.removeRunDir().catch(() => undefined);
      }),
    );
    await Promise.all(all.map((e) => e.close().catch(() => undefined)));
  }
}
