// `gridsweep run` on a Slurm cluster reached through its login node over SSH, as from a laptop: the login
// node is a namespaced sshd host (test/support/netns.ts) whose sessions are Slurm clients of a test Slurm
// listening on the root namespace's address on that host's link; sbatch, squeue, scancel and srun (the
// pilots' agents) run there, and files go through it to the cluster's storage. Every task is verified
// at the origin exactly once, and the pilots are cancelled at the end; a run killed and resumed collects
// what its pilots finished and cancels them, all through the login node; a login node stopped or killed
// mid-run, its pilots' agents with it, comes back and the run finishes; a login node that only a gateway
// reaches is driven through that jump host; `gridsweep probe` runs sinfo there.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetnsGrid, type NetnsGrid } from '../support/netns.js';
import { readJournal } from '../../backends/real/journal.js';
import { loadGrid } from '../../src/formats/index.js';
import { expectEachTaskDoneOnce, makeOrigin, runCli, type GridWriter, type Origin } from '../support/run-support.js';
import { startSlurm, type TestSlurm } from '../support/slurm.js';
import { recordOf } from './slurm-run-support.js';

describe('gridsweep run on a Slurm cluster through its login node', () => {
  let net: NetnsGrid;
  let slurm: TestSlurm;
  const origins: Origin[] = [];

  beforeAll(async () => {
    // Two channels per connection (OpenSSH's default is 10): the pilots' agents, one channel each, go on
    // connections of their own beside the main one, a second opened for the third pilot.
    net = await startNetnsGrid([{ name: 'site', hosts: ['login', 'gw'] }], { maxSessions: 2 });
    slurm = await startSlurm({ cpus: 4, address: net.clusters[0]!.originAddress });
  }, 90_000);
  afterAll(async () => {
    await slurm?.stop();
    await net?.stop();
    for (const o of origins) rmSync(o.dir, { recursive: true, force: true });
  }, 90_000);

  const loginGrid = (extra: Record<string, unknown> = {}, jump?: { address: string }): GridWriter => {
    const login = net.host('login');
    return {
      realGridJson: (dir) =>
        JSON.stringify({
          realgrid: 1,
          ...extra,
          knownHosts: net.knownHosts,
          clusters: [
            {
              name: 'hpc',
              storage: `${dir}/hpc-storage`,
              hosts: {
                type: 'slurm',
                pilots: 3,
                pilotCores: 1,
                pilotWalltimeS: 600,
                env: { SLURM_CONF: slurm.conf },
                login: { address: login.address, port: login.port, user: net.user, identityFile: net.identityFile, ...(jump !== undefined ? { jump } : {}) },
              },
            },
          ],
        }),
    };
  };
  // this process has no SLURM_CONF: only the login node's sessions reach the Slurm
  const env = { ...process.env };
  delete env['SLURM_CONF'];
  const argsOf = (o: Origin): string[] => ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue', '--no-watch'];
  const liveJobs = async (): Promise<string> => (await slurm.command('squeue', ['--noheader', '--states=PENDING,RUNNING,CONFIGURING'])).trim();

  it('submits the pilots, runs their agents and moves the files through the login node', async () => {
    const o = makeOrigin(loginGrid(), 4, 1);
    origins.push(o);
    const r = await runCli(argsOf(o), () => undefined, 150, env);
    expect(r.killedAtLimit, r.stdout + r.stderr).toBe(false);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expectEachTaskDoneOnce(o, 4);
    expect(r.stdout).toMatch(/pilots on hpc: 3 submitted, 3 started/);
    const hosts = new Set(recordOf(o).flatMap((e) => (e.type === 'start' && e.kind === 'compute' && e.resource.type === 'host' ? [e.resource.host] : [])));
    expect([...hosts].every((h) => /^hpc\.\d+\.1$/.test(h))).toBe(true);
    // Every pilot's agent came up (none refused a channel), and they shared the tasks.
    expect(r.stdout).not.toMatch(/^(down|UNUSABLE) /m);
    expect(new Set([...hosts].map((h) => h.split('.')[1])).size, r.stdout).toBeGreaterThanOrEqual(2);
    expect(await liveJobs()).toBe('');
  }, 180_000);

  it('resumed after the controller was killed: collects what the pilots finished, cancels them through the login node', async () => {
    const o = makeOrigin(loginGrid(), 4, 2);
    origins.push(o);
    let killed = false;
    // Killed 1 s after the first task is done: the next ones (2 s each) have been started and are mid-run.
    const first = await runCli(argsOf(o), (line, child) => {
      if (!killed && line.startsWith('done')) {
        killed = true;
        setTimeout(() => child.kill('SIGKILL'), 1000);
      }
    }, 150, env);
    expect(first.code).toBe(null);
    expect(await liveJobs()).not.toBe('');
    await new Promise((r) => setTimeout(r, 3000));
    const second = await runCli([...argsOf(o), '--resume'], () => undefined, 150, env);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toMatch(/cancelled \d+ pilot\(s\) left by the run this one resumes/);
    expect(second.stdout).toMatch(/collected task \d+ on hpc\.\d+\.1/);
    const journal = readJournal(o.journalPath);
    expect(journal.flatMap((e) => (e.type === 'verified' ? [e.work] : [])).sort((a, b) => a - b)).toEqual([...Array(8).keys()]);
    expect(journal.flatMap((e) => (e.type === 'started' ? [e.work] : [])).sort((a, b) => a - b)).toEqual([...Array(8).keys()]);
    expect(await liveJobs()).toBe('');
  }, 180_000);

  // The login node carries the pilots' agents (srun, on side connections) as well as the commands and files.
  it.each(['stopped (SIGSTOP) for 8 s', 'killed (every process) and restarted 3 s later'])('the login node %s mid-run: every task verified once, no pilot left', async (fault) => {
    const stop = fault.startsWith('stopped');
    const o = makeOrigin(loginGrid({ keepalive: { intervalS: 1, countMax: 2 }, deadlines: { probeS: 3, loginS: 8, commandS: 10 } }), 4, 2);
    origins.push(o);
    let struck = false;
    let timer: NodeJS.Timeout | undefined;
    let restarted: Promise<void> | undefined;
    try {
      const r = await runCli(argsOf(o), (line) => {
        if (!struck && line.startsWith('done')) {
          struck = true;
          if (stop) {
            net.hangHost('login');
            timer = setTimeout(() => net.continueHost('login'), 8000);
          } else {
            net.killHost('login');
            timer = setTimeout(() => (restarted = net.restartHost('login')), 3000);
          }
        }
      }, 150, env);
      const log = `${r.stdout}\n${r.stderr}`;
      expect(r.killedAtLimit, log).toBe(false);
      expect(r.code, log).toBe(0);
      expect(struck).toBe(true);
      expectEachTaskDoneOnce(o, 4);
    } finally {
      clearTimeout(timer);
      if (stop) net.continueHost('login');
      else await (restarted ?? (struck ? net.restartHost('login') : undefined)); // up again for the next test
    }
    expect(await liveJobs()).toBe('');
  }, 180_000);

  // Commands, files and the pilots' side connections all ride on channels the gateway forwards.
  it('a login node that only its gateway reaches: every task verified once, through the jump host', async () => {
    const o = makeOrigin(loginGrid({}, { address: net.host('gw').address }), 4, 1);
    origins.push(o);
    net.fenceFromOrigin('login');
    try {
      const r = await runCli(argsOf(o), () => undefined, 150, env);
      const log = `${r.stdout}\n${r.stderr}`;
      expect(r.killedAtLimit, log).toBe(false);
      expect(r.code, log).toBe(0);
      expect(r.stdout, log).toMatch(/pilots on hpc: 3 submitted, 3 started/);
      expect(r.stdout, log).not.toMatch(/^(down|UNUSABLE) /m);
      expectEachTaskDoneOnce(o, 4);
    } finally {
      net.fenceFromOrigin('login', false);
    }
    expect(await liveJobs()).toBe('');
  }, 180_000);

  it('gridsweep probe asks Slurm through the login node (sinfo there) and writes the cluster as a batch cluster', async () => {
    const o = makeOrigin(loginGrid(), 1, 1);
    origins.push(o);
    const out = join(o.dir, 'probed');
    const r = await runCli(['probe', o.gridPath, '-o', out, '--samples', '1', '--transfer-bytes', '65536'], () => undefined, 60, env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // the test Slurm: one node of 4 CPUs, partition main, sched/backfill; this process has no SLURM_CONF,
    // so only the login node's sinfo (with the grid file's env) can have said so
    const { grid } = loadGrid(join(out, 'real.grid'));
    const batch = grid.events.filter((e) => e.kind === 'ADD_BATCH_CLUSTER');
    expect(batch).toHaveLength(1);
    expect(batch[0]).toMatchObject({ cluster: 'hpc', nodes: 1, coresPerNode: 4, policy: 'conservative', allocator: 'first-fit' });
    expect(readFileSync(join(out, 'real.grid'), 'utf8')).toMatch(/^# hpc: partition main, 1 node\(s\) of 4 CPU\(s\)/m);
  }, 90_000);
});
