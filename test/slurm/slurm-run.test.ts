// `gridsweep run` on a real Slurm (test/support/slurm.ts: munge, slurmctld and slurmd on loopback, one node
// of 4 CPUs): pilots submitted with sbatch, their cores hosts to the scheduler, the agent started in each
// as a job step. Each case checks that every task was verified at the origin exactly once, with the right
// output, whatever Slurm did to the pilots:
// - a Slurm cluster and an SSH host (a namespaced sshd) in one run, each shared input sent once per cluster;
// - a pilot cancelled (scancel) while it computes;
// - a queue wait: another job holds every CPU of the node when the run starts;
// - the controller SIGKILLed while its pilots run, then resumed (it collects what they finished meanwhile
//   and cancels the pilots it finds);
// - per-Work jobs (single-core jobs that each compute one Work);
// - a pilot sbatch refuses, and one that never starts, beside local slots that do the work;
// - the controller interrupted (SIGINT): it cancels its pilots before it exits.
// (A pilot whose walltime ends mid-task: slurm-walltime.test.ts, a file of its own since it takes minutes.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../backends/real/journal.js';
import { Playback } from '../../src/dashboard/playback.js';
import { renderHtmlReport } from '../../src/report/html-report.js';
import { RunState } from '../../src/report/run-state.js';
import { startNetnsGrid, type NetnsGrid } from '../support/netns.js';
import { expectEachTaskDoneOnce } from '../support/run-support.js';
import { pilotJob, recordOf, slurmGrid, useTestSlurm } from './slurm-run-support.js';

const { slurm, origin, run, liveJobs } = useTestSlurm();

describe('gridsweep run on a real Slurm', () => {
  describe('with an SSH host beside it', () => {
    let ssh: NetnsGrid;
    beforeAll(async () => {
      ssh = await startNetnsGrid([{ name: 'c0', hosts: ['a0'] }]);
    }, 60_000);
    afterAll(async () => ssh?.stop(), 60_000);

    it('runs the sweep on pilots and the SSH host, each shared input sent once per cluster', async () => {
      const o = origin(slurmGrid({ pilots: 2, pilotCores: 2, pilotWalltimeS: 600 }, ssh), 8, 1);
      const r = await run(o, []);
      expect(r.killedAtLimit, r.stdout + r.stderr).toBe(false);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expectEachTaskDoneOnce(o, 8);
      const record = recordOf(o);
      const computeHosts = new Set(record.flatMap((e) => (e.type === 'start' && e.kind === 'compute' && e.resource.type === 'host' ? [e.resource.host] : [])));
      expect([...computeHosts].some((h) => h.startsWith('hpc.'))).toBe(true);
      expect(computeHosts.has('a0')).toBe(true);
      const sends = new Map<string, number>();
      for (const e of record) if (e.type === 'start' && e.kind === 'input') sends.set(`${e.file}@${e.resource.type === 'link' ? e.resource.cluster : '?'}`, (sends.get(`${e.file}@${e.resource.type === 'link' ? e.resource.cluster : '?'}`) ?? 0) + 1);
      expect([...sends.values()].every((n) => n === 1)).toBe(true);
      expect([...sends.keys()].filter((k) => k.endsWith('@hpc')).length).toBe(3);
      // pilots in the record: each one submitted started and ended, as a simulated batch cluster's are
      const jobs = record.flatMap((e) => (e.type === 'job' ? [e] : []));
      const submitted = jobs.filter((j) => j.event === 'submit').map((j) => j.job);
      expect(submitted.length).toBe(2);
      for (const job of submitted) expect(jobs.filter((j) => j.job === job).map((j) => j.event)).toEqual(['submit', 'start', 'end']);
      expect(r.stdout).toMatch(/pilots on hpc: 2 submitted, 2 started, queue wait median/);
      expect(await liveJobs()).toEqual([]);
      // the report reads the pilots as it reads a simulated batch cluster's; their hosts leave, not fail
      const state = RunState.from(record);
      expect(state.batch.clusters.map((c) => [c.cluster, c.cores, c.waitS.pilots.length])).toEqual([['hpc', 4, 2]]);
      expect(renderHtmlReport(state)).toContain('hpc: 4 cores, Slurm');
      const pilotHosts = record.flatMap((e) => (e.type === 'grid' && e.event.kind === 'ADD_HOST' && e.event.cluster === 'hpc' ? [e.event] : []));
      expect(pilotHosts.length).toBe(4);
      expect(pilotHosts.every((h) => h.leavesAtS !== undefined && h.leavesAtS > 500)).toBe(true);
      // the dashboard shows the cluster's pilots, its size unknown (0: its scale grows with them)
      const playback = new Playback([{ name: 'run', events: record }], { speed: 1000 });
      while (!playback.finished) playback.tick(1);
      const snapshot = playback.snapshots()[0]!;
      expect(snapshot.batchClusters).toEqual([{ cluster: 'hpc', cores: 0 }]);
      expect(Math.max(...snapshot.batchLevels.map((l) => l[3]))).toBe(4);
    }, 180_000);
  });

  it('a pilot cancelled while it computes: its tasks run again elsewhere, each verified once', async () => {
    const o = origin(slurmGrid({ pilots: 1, pilotCores: 2, pilotWalltimeS: 600 }), 6, 2);
    let firstPilot: string | undefined;
    let cancelled = false;
    const r = await run(o, [], (line) => {
      firstPilot ??= pilotJob(line, /^started/);
      if (!cancelled && firstPilot && line.startsWith('done') && line.includes(`on hpc.${firstPilot}.`)) {
        cancelled = true;
        void slurm().command('scancel', [firstPilot]);
      }
    });
    expect(r.killedAtLimit, r.stdout + r.stderr).toBe(false);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(cancelled).toBe(true);
    expect(r.stdout).toContain(`pilot   hpc job ${firstPilot}: ended (CANCELLED)`);
    expectEachTaskDoneOnce(o, 6);
    // a task was running on the cancelled pilot: the journal says it failed there, not for good
    const lost = readJournal(o.journalPath).filter((e) => e.type === 'failed' && e.host.startsWith(`hpc.${firstPilot}.`));
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.every((e) => e.type === 'failed' && !e.final)).toBe(true);
    expect(r.stdout).toMatch(/pilots on hpc: [2-9] submitted/);
  }, 180_000);

  it('a pilot of a month keeps its hosts: its retirement is not due at once (Node fires longer timers after 1 ms)', async () => {
    const o = origin(slurmGrid({ pilots: 1, pilotCores: 2, pilotWalltimeS: 30 * 24 * 3600 }), 4, 1);
    const r = await run(o, []);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expectEachTaskDoneOnce(o, 4);
    expect(r.stdout).not.toMatch(/walltime is nearly over/);
    expect(r.stdout).toMatch(/pilots on hpc: 1 submitted/);
  }, 120_000);

  it('records the queue wait of a pilot behind a job that holds every CPU', async () => {
    const blocker = (await slurm().command('sbatch', ['--parsable', '--job-name=blocker', '--cpus-per-task=4', '--time=1', '--output=/dev/null', '--wrap=sleep 8'])).trim();
    const o = origin(slurmGrid({ pilots: 1, pilotCores: 2, pilotWalltimeS: 600 }), 2, 1);
    const r = await run(o, []);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expectEachTaskDoneOnce(o, 2);
    const jobs = recordOf(o).flatMap((e) => (e.type === 'job' ? [e] : []));
    const submit = jobs.find((j) => j.event === 'submit')!;
    const start = jobs.find((j) => j.event === 'start' && j.job === submit.job)!;
    // the blocker had up to 8 s left when the pilot was submitted
    expect(start.t - submit.t).toBeGreaterThan(3);
    expect(r.stdout).toMatch(/queue wait median (\d+\.\d) s/);
    expect(Number(/queue wait median (\d+\.\d) s/.exec(r.stdout)![1])).toBeGreaterThan(3);
    expect(await slurm().command('squeue', ['--noheader', '--states=all', `--jobs=${blocker}`, '--format=%T'])).toMatch(/COMPLETED/);
  }, 120_000);

  it('the controller killed while its pilots run, then resumed: what they finished meanwhile is collected, the old pilots cancelled', async () => {
    const o = origin(slurmGrid({ pilots: 2, pilotCores: 1, pilotWalltimeS: 600 }), 5, 2);
    let killed = false;
    // Killed 1 s after the first task is done: the next ones (2 s each) have been started and are mid-run.
    const first = await run(o, [], (line, child) => {
      if (!killed && line.startsWith('done')) {
        killed = true;
        setTimeout(() => child.kill('SIGKILL'), 1000);
      }
    });
    expect(killed).toBe(true);
    expect(first.code).toBe(null);
    const left = await liveJobs();
    expect(left.length).toBeGreaterThan(0);
    // the pilots' agents finish the 2-s tasks they were running, with no controller
    const before = readJournal(o.journalPath);
    const verifiedBefore = new Set(before.flatMap((e) => (e.type === 'verified' ? [e.work] : [])));
    const running = before.flatMap((e) => (e.type === 'started' ? [e.work] : [])).filter((w) => !verifiedBefore.has(w));
    await new Promise((r) => setTimeout(r, 3000));
    const second = await run(o, ['--resume']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toMatch(/cancelled \d+ pilot\(s\) left by the run this one resumes/);
    for (const work of running) expect(second.stdout).toMatch(new RegExp(`collected task ${work} on hpc\\.\\d+\\.1: it finished while gridsweep was not running`));
    const journal = readJournal(o.journalPath);
    const verified = journal.flatMap((e) => (e.type === 'verified' ? [e.work] : []));
    expect(verified.sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    // nothing ran twice
    expect(journal.flatMap((e) => (e.type === 'started' ? [e.work] : [])).sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    for (const line of left) expect(await slurm().command('squeue', ['--noheader', '--states=all', `--jobs=${line.split(' ')[0]}`, '--format=%T'])).toMatch(/CANCELLED/);
    expect(await liveJobs()).toEqual([]);
  }, 180_000);

  it('per-Work jobs: each single-core job computes one Work, then ends', async () => {
    const o = origin(slurmGrid({ submission: 'per-work', pilots: 3, pilotWalltimeS: 600 }), 3, 1);
    const r = await run(o, []);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expectEachTaskDoneOnce(o, 3);
    const record = recordOf(o);
    const submits = record.filter((e) => e.type === 'job' && e.event === 'submit');
    expect(submits.length).toBe(6);
    expect(submits.every((e) => e.type === 'job' && e.cores === 1)).toBe(true);
    const worksOnHost = new Map<string, number>();
    for (const e of record) if (e.type === 'start' && e.kind === 'compute' && e.resource.type === 'host') worksOnHost.set(e.resource.host, (worksOnHost.get(e.resource.host) ?? 0) + 1);
    expect(worksOnHost.size).toBe(6);
    expect([...worksOnHost.values()].every((n) => n === 1)).toBe(true);
    expect(r.stdout.match(/its Work has been computed: the job ends/g)?.length).toBe(6);
    expect(await liveJobs()).toEqual([]);
  }, 120_000);

  describe('with local slots beside it', () => {
    const withLocal = (slurmHosts: Record<string, unknown>) => ({
      realGridJson: (dir: string) =>
        JSON.stringify({
          realgrid: 1,
          clusters: [
            { name: 'here', storage: `${dir}/here-storage`, hosts: { type: 'local', slots: 2 } },
            { name: 'hpc', storage: `${dir}/hpc-storage`, hosts: { type: 'slurm', ...slurmHosts } },
          ],
        }),
    });

    it('a pilot Slurm refuses: submissions pause longer after each refusal, and the run ends on the other cluster', async () => {
      // a partition this Slurm does not have: sbatch refuses the pilot
      const o = origin(withLocal({ pilots: 1, pilotCores: 1, pilotWalltimeS: 600, partition: 'nosuch' }), 6, 1);
      const r = await run(o, []);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expectEachTaskDoneOnce(o, 6);
      const refusals = r.stdout.match(/pilot +hpc job -: cannot submit a pilot \(trying again in (\d+) s\)/g) ?? [];
      // 12 one-second tasks on 2 slots take about 6 s: refusals at 0 s and 5 s, not one per poll
      expect(refusals.length, r.stdout).toBeGreaterThan(0);
      expect(refusals.length).toBeLessThanOrEqual(3);
      expect(refusals.map((l) => Number(/in (\d+) s/.exec(l)![1]))).toEqual([5, 10, 20].slice(0, refusals.length));
      expect(r.stdout).toMatch(/pilots on hpc: 0 submitted, 0 started/);
    }, 120_000);

    it('a pilot that never starts: the run says why it waits, ends on the other cluster, and cancels it', async () => {
      const o = origin(withLocal({ pilots: 1, pilotCores: 1, pilotWalltimeS: 600, sbatchArgs: ['--begin=now+3600'] }), 4, 1);
      const r = await run(o, []);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expectEachTaskDoneOnce(o, 4);
      const job = pilotJob(r.stdout.split('\n').find((l) => /submitted/.test(l)) ?? '', /submitted/);
      expect(job).toBeDefined();
      expect(r.stdout).toContain(`pilot   hpc job ${job}: waiting in the queue (BeginTime)`);
      expect(r.stdout).toMatch(/pilots on hpc: 1 submitted, 0 started, queue wait -/);
      const ends = recordOf(o).filter((e) => e.type === 'job' && e.event === 'end');
      expect(ends).toHaveLength(1);
      expect(await slurm().command('squeue', ['--noheader', '--states=all', `--jobs=${job}`, '--format=%T'])).toMatch(/CANCELLED/);
    }, 120_000);
  });

  it('an interrupted run (SIGINT) cancels its pilots before it exits', async () => {
    const o = origin(slurmGrid({ pilots: 2, pilotCores: 1, pilotWalltimeS: 600 }), 5, 5);
    let started = 0;
    const r = await run(o, [], (line, child) => {
      if (pilotJob(line, /^started/) && ++started === 2) child.kill('SIGINT');
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('cancelling the Slurm pilots');
    expect(await liveJobs()).toEqual([]);
  }, 120_000);
});
