// A real Slurm of a test's (or a benchmark's) own, on loopback: a munge daemon with a generated key and its
// own socket, then slurmctld and one slurmd (one node) with a private state directory, spool, logs and
// free ports. Clients find it through SLURM_CONF (`env`). stop() cancels every job, waits for their
// processes to end, stops the daemons and removes the directory; it is safe to call however the test
// ended. Needs root (slurmd runs jobs as their users) and Debian's munge, slurmctld, slurmd and
// slurm-client: a missing one fails the test loudly instead of skipping it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeServerPort } from './free-port.js';

export interface TestSlurm {
  readonly dir: string;
  readonly conf: string;
  /** The environment Slurm's clients (and gridsweep run) need to reach it. */
  readonly env: NodeJS.ProcessEnv;
  readonly nodeName: string;
  readonly cpus: number;
  /** Runs a Slurm client command (sbatch, squeue, scancel, scontrol) against this Slurm. */
  command(cmd: string, args: readonly string[]): Promise<string>;
  /** The slurmctld log so far (to explain a failure). */
  logs(): string;
  stop(): Promise<void>;
}

const BINARIES = ['/usr/sbin/munged', '/usr/sbin/slurmctld', '/usr/sbin/slurmd', '/usr/bin/sbatch', '/usr/bin/srun', '/usr/bin/squeue', '/usr/bin/scancel'];

function run(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: 30_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout)));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, check: () => Promise<boolean> | boolean, limitMs: number, explain: () => string): Promise<void> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`test Slurm: ${what} within ${limitMs / 1000} s\n${explain()}`);
}

function stopDaemon(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface TestSlurmOptions {
  /** CPUs of its one node (default 4; more than this machine has is fine). */
  readonly cpus?: number;
  /**
   * The address slurmctld and slurmd are reached at (default 127.0.0.1): a namespaced grid's
   * originAddress lets its hosts be Slurm clients (a login node over SSH).
   */
  readonly address?: string;
  /**
   * A second partition, "urgent", on the same node, whose jobs preempt those of "main": the preempted
   * job is requeued (PreemptMode=REQUEUE), as many sites do.
   */
  readonly preemption?: boolean;
}

export async function startSlurm(options: TestSlurmOptions = {}): Promise<TestSlurm> {
  const missing = BINARIES.filter((b) => !existsSync(b));
  if (missing.length > 0) throw new Error(`test Slurm: ${missing.join(', ')} missing; run scripts/install-test-deps.sh (Debian packages munge slurmctld slurmd slurm-client)`);
  if (process.getuid?.() !== 0) throw new Error('test Slurm: slurmd must run as root');
  const cpus = options.cpus ?? 4;
  const address = options.address ?? '127.0.0.1';
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-slurm-'));
  chmodSync(dir, 0o755);
  for (const d of ['munge', 'state', 'spool', 'log']) mkdirSync(join(dir, d));
  chmodSync(join(dir, 'munge'), 0o700);
  const key = join(dir, 'munge', 'munge.key');
  writeFileSync(key, randomBytes(1024), { mode: 0o400 });
  const socket = join(dir, 'munge', 'munge.socket');
  const tag = Math.random().toString(36).slice(2, 8);
  const nodeName = `gs${tag}`;
  const [ctldPort, slurmdPort] = [await freeServerPort(), await freeServerPort()];
  const conf = join(dir, 'slurm.conf');
  const host = hostname();
  writeFileSync(
    conf,
    [
      `ClusterName=gstest${tag}`,
      `SlurmctldHost=${host}(${address})`,
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${slurmdPort}`,
      'AuthType=auth/munge',
      'CredType=cred/munge',
      `AuthInfo=socket=${socket}`,
      'SlurmUser=root',
      'SlurmdUser=root',
      `StateSaveLocation=${join(dir, 'state')}`,
      `SlurmdSpoolDir=${join(dir, 'spool')}`,
      `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
      `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
      `SlurmctldLogFile=${join(dir, 'log', 'slurmctld.log')}`,
      `SlurmdLogFile=${join(dir, 'log', 'slurmd.log')}`,
      // no cgroups here: processes are tracked through their parents
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'JobAcctGatherType=jobacct_gather/none',
      'AccountingStorageType=accounting_storage/none',
      'JobCompType=jobcomp/none',
      'MpiDefault=none',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core',
      'SchedulerType=sched/backfill',
      'ReturnToService=2',
      // the node may claim more CPUs than this machine has
      'SlurmdParameters=config_overrides',
      'MinJobAge=300',
      'KillWait=2',
      'InactiveLimit=0',
      `NodeName=${nodeName} NodeHostname=${host} NodeAddr=${address} CPUs=${cpus} RealMemory=4000 State=UNKNOWN`,
      ...(options.preemption
        ? [
            'PreemptType=preempt/partition_prio',
            'PreemptMode=REQUEUE',
            `PartitionName=main Nodes=${nodeName} Default=YES MaxTime=INFINITE State=UP PriorityTier=1`,
            `PartitionName=urgent Nodes=${nodeName} MaxTime=INFINITE State=UP PriorityTier=10 PreemptMode=OFF`,
          ]
        : [`PartitionName=main Nodes=${nodeName} Default=YES MaxTime=INFINITE State=UP`]),
      '',
    ].join('\n'),
  );
  const env = { ...process.env, SLURM_CONF: conf };
  const daemons: ChildProcess[] = [];
  const logOf = (name: string): string => {
    const p = join(dir, 'log', name);
    return existsSync(p) ? readFileSync(p, 'utf8').slice(-3000) : '';
  };
  const logs = (): string => ['slurmctld.log', 'slurmd.log', 'munged.out', 'slurmctld.out', 'slurmd.out'].map((n) => `--- ${n}\n${logOf(n)}`).join('\n');
  const daemon = (cmd: string, args: readonly string[], out: string): ChildProcess => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const log = join(dir, 'log', out);
    const append = (d: Buffer): void => writeFileSync(log, d, { flag: 'a' });
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    daemons.push(child);
    return child;
  };

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await run('scancel', ['--full', '--partition=main'], env).catch(() => undefined);
    if (options.preemption) await run('scancel', ['--full', '--partition=urgent'], env).catch(() => undefined);
    // the jobs' processes end before slurmd goes (proctrack/linuxproc leaves orphans behind otherwise)
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      const out = await run('squeue', ['--noheader', '--states=RUNNING,COMPLETING,PENDING,CONFIGURING'], env).catch(() => '');
      if (out.trim() === '') break;
      await sleep(300);
    }
    for (const d of [...daemons].reverse()) await stopDaemon(d);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const munged = daemon('/usr/sbin/munged', ['--foreground', '--force', `--key-file=${key}`, `--socket=${socket}`, `--pid-file=${join(dir, 'munge', 'munged.pid')}`, `--log-file=${join(dir, 'log', 'munged.log')}`, `--seed-file=${join(dir, 'munge', 'seed')}`], 'munged.out');
    await waitFor('munged did not create its socket', () => existsSync(socket) || munged.exitCode !== null, 10_000, logs);
    daemon('/usr/sbin/slurmctld', ['-D', '-i', '-f', conf], 'slurmctld.out');
    await waitFor('slurmctld did not answer', () => run('scontrol', ['ping'], env).then((o) => /UP/.test(o), () => false), 20_000, logs);
    daemon('/usr/sbin/slurmd', ['-D', '-N', nodeName, '-f', conf], 'slurmd.out');
    await waitFor('the node did not become idle', () => run('sinfo', ['--noheader', '--format=%T'], env).then((o) => o.trim() === 'idle', () => false), 30_000, logs);
  } catch (err) {
    await stop();
    throw err;
  }
  return { dir, conf, env, nodeName, cpus, command: (cmd, args) => run(cmd, args, env), logs, stop };
}
