// What the Slurm run tests share: a test Slurm started before the file's tests and stopped after them,
// a real grid file with a Slurm cluster "hpc" (beside a namespaced grid's SSH hosts, optionally), the
// sweep's origin, `gridsweep run` against that Slurm, and the jobs Slurm still has queued or running.
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import type { RunRecordEvent } from '../../src/record/events.js';
import type { NetnsGrid } from '../support/netns.js';
import { makeOrigin, runCli, type GridWriter, type Origin } from '../support/run-support.js';
import { startSlurm, type TestSlurm } from '../support/slurm.js';

export interface SlurmRunContext {
  readonly slurm: () => TestSlurm;
  origin(grid: GridWriter, seeds: number, seconds: number, estimateS?: number): Origin;
  /** `gridsweep run` under the work queue, with the journal and record of `o`. */
  run(o: Origin, extra: readonly string[], onLine?: Parameters<typeof runCli>[1], limitS?: number): ReturnType<typeof runCli>;
  /** Jobs of the test Slurm still queued or running, as "ID NAME". */
  liveJobs(): Promise<string[]>;
}

/** Starts a Slurm of 4 CPUs for the calling test file (beforeAll/afterAll). */
export function useTestSlurm(): SlurmRunContext {
  let slurm: TestSlurm | undefined;
  const origins: Origin[] = [];
  beforeAll(async () => {
    slurm = await startSlurm({ cpus: 4 });
  }, 60_000);
  afterAll(async () => {
    await slurm?.stop();
    for (const o of origins) rmSync(o.dir, { recursive: true, force: true });
  }, 60_000);
  const current = (): TestSlurm => {
    if (!slurm) throw new Error('the test Slurm did not start');
    return slurm;
  };
  return {
    slurm: current,
    origin(grid, seeds, seconds, estimateS) {
      const o = makeOrigin(grid, seeds, seconds, {}, estimateS);
      origins.push(o);
      return o;
    },
    run(o, extra, onLine = () => undefined, limitS = 150) {
      const args = ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue', '--no-watch', ...extra];
      return runCli(args, onLine, limitS, current().env);
    },
    async liveJobs() {
      const out = await current().command('squeue', ['--noheader', '--states=PENDING,RUNNING,CONFIGURING', '--format=%i %j']);
      return out.trim().split('\n').filter((l) => l.trim() !== '');
    },
  };
}

/** A real grid file with the Slurm cluster "hpc" (storage in the origin), after `withSsh`'s clusters if given. */
export function slurmGrid(hosts: Record<string, unknown>, withSsh?: NetnsGrid): GridWriter {
  return {
    realGridJson: (dir, extra) => {
      const base = (withSsh ? JSON.parse(withSsh.realGridJson(dir, extra)) : { realgrid: 1, ...extra, clusters: [] }) as { clusters: unknown[] };
      base.clusters.push({ name: 'hpc', storage: `${dir}/hpc-storage`, hosts: { type: 'slurm', ...hosts } });
      return JSON.stringify(base, null, 2);
    },
  };
}

export function recordOf(o: Origin): RunRecordEvent[] {
  return readFileSync(o.recordPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecordEvent);
}

/** The job number of a `pilot   hpc job N: …` line whose message matches `what`. */
export function pilotJob(line: string, what: RegExp): string | undefined {
  const m = /^pilot +hpc job (\d+): (.*)$/.exec(line);
  return m && what.test(m[2]!) ? m[1] : undefined;
}
