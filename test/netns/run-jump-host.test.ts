// `gridsweep run` on compute nodes that only their cluster's login node reaches: the nodes refuse every
// connection from the origin, and the grid file names the login node as their "jump" host (OpenSSH's
// ProxyJump), or an ssh client configuration names it their ProxyJump. The run goes through one connection to
// the login node, shared by the nodes behind it, and survives that node stopped (SIGSTOP) and killed
// mid-run, as it survives any host going down.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gridForBlock, type BlockGrid } from '../support/netns-block.js';
import { expectEachTaskDoneOnce, runCli, type Origin } from '../support/run-support.js';

const NODES = ['n1', 'n2'];

/** An origin whose grid file lists the nodes, each through the login node `gw` (which runs no task). */
function originThroughLoginNode(block: BlockGrid, seeds: number, seconds: number, extra: Record<string, unknown> = {}): Origin {
  const o = block.origin(seeds, seconds, extra);
  const grid = JSON.parse(readFileSync(o.gridPath, 'utf8')) as { clusters: { hosts: { name: string }[] }[] };
  const gw = block.grid.host('gw');
  for (const c of grid.clusters) c.hosts = c.hosts.filter((h) => h.name !== 'gw').map((h) => ({ ...h, jump: { address: gw.address } }));
  writeFileSync(o.gridPath, JSON.stringify(grid, null, 2));
  return o;
}

function runArgs(o: Origin): string[] {
  return ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue', '--no-watch'];
}

/** The origin's TCP connections to the login node's sshd, as the login node sees them. */
function connectionsFromOrigin(block: BlockGrid): number {
  const gw = block.grid.host('gw');
  const origin = block.grid.cluster(gw.cluster).originAddress;
  const out = execFileSync('ip', ['netns', 'exec', gw.namespace, 'ss', '-Htn', 'state', 'established', '( sport = :22 )'], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes(`${origin}:`)).length;
}

function refusesOrigin(address: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host: address, port: 22 });
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

describe('gridsweep run on nodes reached only through their login node', () => {
  const block = gridForBlock([{ name: 'c0', hosts: ['gw', ...NODES] }]);
  beforeAll(() => {
    for (const n of NODES) block.grid.fenceFromOrigin(n);
  });

  it('the nodes refuse the origin', async () => {
    for (const n of NODES) expect(await refusesOrigin(block.grid.host(n).address)).toBe('ECONNREFUSED');
    expect(await refusesOrigin(block.grid.host('gw').address)).toBe('connected');
  });

  it('runs every task once on the nodes, through one connection to the login node', async () => {
    const seeds = 4;
    const o = originThroughLoginNode(block, seeds, 2);
    const seen: number[] = [];
    const r = await runCli(runArgs(o), (line) => {
      if (/^(start|done) /.test(line)) seen.push(connectionsFromOrigin(block));
    }, 60);
    const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
    expect(r.killedAtLimit, log).toBe(false);
    expect(r.code, log).toBe(0);
    expect(r.stdout, log).toMatch(/^start +8 task\(s\) to run, 0 already verified, 2 host\(s\) up$/m);
    expect(r.stdout, log).not.toMatch(/^(failed|down|unusable) /m);
    expectEachTaskDoneOnce(o, seeds);
    for (const n of NODES) expect(r.stdout, log).toMatch(new RegExp(`^done .* on ${n}\\b`, 'm'));
    // Both nodes' connections ride on one connection to the login node, for the whole run.
    expect(seen.length, log).toBeGreaterThan(1);
    expect(new Set(seen), log).toEqual(new Set([1]));
  }, 90_000);

  // A ProxyCommand that runs ssh -W through the login node is read as that jump host.
  it.each(['ProxyJump gw', 'ProxyCommand ssh -q -W %h:%p gw'])('reaches the nodes by their aliases in an ssh client configuration, as ssh would (%s)', async (via) => {
    const seeds = 2;
    const o = block.origin(seeds, 1);
    const g = block.grid;
    const configPath = join(o.dir, 'ssh_config');
    writeFileSync(
      configPath,
      [
        ...NODES.flatMap((n) => [`Host ${n}`, `  HostName ${g.host(n).address}`]),
        'Host gw',
        `  HostName ${g.host('gw').address}`,
        'Host n*',
        `  ${via}`,
        'Host *',
        `  User ${g.user}`,
        `  IdentityFile ${g.identityFile}`,
        `  UserKnownHostsFile ${g.knownHosts}`,
      ].join('\n'),
    );
    // The hosts by alias alone: no user, credentials, known_hosts file nor jump host in the grid file.
    const hosts = NODES.map((n) => ({ name: n, address: n, arch: 0 }));
    writeFileSync(o.gridPath, JSON.stringify({ realgrid: 1, origin: o.dir, sshConfig: configPath, keepalive: { intervalS: 1, countMax: 3 }, clusters: [{ name: 'c0', storage: g.cluster('c0').storage, hosts }] }));
    const r = await runCli(runArgs(o), () => undefined, 60);
    const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
    expect(r.code, log).toBe(0);
    expect(r.stdout, log).not.toMatch(/^(failed|down|unusable) /im);
    expectEachTaskDoneOnce(o, seeds);
  }, 90_000);

  it('sets every node aside, each under its own name, when the login node\'s key is unknown', async () => {
    const o = originThroughLoginNode(block, 1, 1);
    const grid = JSON.parse(readFileSync(o.gridPath, 'utf8')) as { clusters: { hosts: { jump: { knownHosts?: string } }[] }[] };
    writeFileSync(join(o.dir, 'empty_known_hosts'), '');
    for (const h of grid.clusters[0]!.hosts) h.jump.knownHosts = join(o.dir, 'empty_known_hosts');
    writeFileSync(o.gridPath, JSON.stringify(grid));
    const r = await runCli(runArgs(o), () => undefined, 60);
    expect(r.killedAtLimit).toBe(false);
    for (const n of NODES) {
      expect(r.stdout).toMatch(new RegExp(`^UNUSABLE ${n}: ${n} \\(root@[\\d.]+\\): its jump host root@([\\d.]+): \\1 is not in ${o.dir}/empty_known_hosts( \\(nor in [^)]*\\))?\\. Add its key`, 'm'));
    }
    expect(r.stderr).toContain('no host of the real grid could be reached');
  }, 60_000);

  for (const fault of ['stopped', 'killed'] as const) {
    it(`finishes every task once when the login node is ${fault} mid-run`, async () => {
      const seeds = 4;
      const o = originThroughLoginNode(block, seeds, 3, { deadlines: { probeS: 2, loginS: 3, commandS: 5 }, keepalive: { intervalS: 1, countMax: 2 } });
      let struck = false;
      let mended = false;
      const mend = (): void => {
        if (mended) return;
        mended = true;
        if (fault === 'stopped') block.grid.continueHost('gw');
        else void block.grid.restartHost('gw');
      };
      const r = await runCli(runArgs(o), (line) => {
        if (struck || !line.startsWith('start ')) return;
        struck = true;
        setTimeout(() => {
          if (fault === 'stopped') block.grid.hangHost('gw');
          else block.grid.killHost('gw');
          setTimeout(mend, fault === 'stopped' ? 6000 : 3000);
        }, 1000);
      }, 80);
      mend();
      const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
      expect(r.killedAtLimit, log).toBe(false);
      expect(r.code, log).toBe(0);
      // The nodes' connections ran through the login node: they went down with it, and came back.
      for (const n of NODES) expect(r.stdout, log).toMatch(new RegExp(`^down +${n}\\b`, 'm'));
      expectEachTaskDoneOnce(o, seeds);
    }, 100_000);
  }

  it('carries on with the other node when one behind the login node is killed mid-run', async () => {
    const seeds = 4;
    const o = originThroughLoginNode(block, seeds, 3, { deadlines: { probeS: 2, loginS: 3, commandS: 5 }, keepalive: { intervalS: 1, countMax: 2 } });
    let restarted: Promise<void> | undefined;
    const seen: number[] = [];
    const r = await runCli(runArgs(o), (line) => {
      if (restarted === undefined && line.startsWith('start ')) {
        restarted = new Promise((done) =>
          setTimeout(() => {
            block.grid.killHost('n1');
            // The harness waits for the restarted sshd's banner from the origin: the fence is lifted meanwhile.
            setTimeout(() => {
              block.grid.fenceFromOrigin('n1', false);
              void block.grid.restartHost('n1').finally(() => {
                block.grid.fenceFromOrigin('n1');
                done();
              });
            }, 3000);
          }, 1000),
        );
      }
      if (/^(down|up) /.test(line)) seen.push(connectionsFromOrigin(block));
    }, 80);
    await restarted;
    const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
    expect(r.killedAtLimit, log).toBe(false);
    expect(r.code, log).toBe(0);
    expect(r.stdout, log).toMatch(/^down +n1\b/m);
    expect(r.stdout, log).not.toMatch(/^down +n2\b/m);
    // n1's task died with it: not taken for one still running when n1 answered again.
    expect(r.stdout, log).not.toMatch(/^adopted /m);
    // n2's connection rode on the shared one to the login node all along.
    expect(new Set(seen), log).toEqual(new Set([1]));
    expectEachTaskDoneOnce(o, seeds);
  }, 100_000);
});

describe('gridsweep run through a login node that refuses to forward', () => {
  const block = gridForBlock([{ name: 'c0', hosts: ['gw', 'n1'] }], { noTcpForwarding: true });

  it('sets the node aside at once, saying why', async () => {
    const o = originThroughLoginNode(block, 1, 1);
    const r = await runCli(runArgs(o), () => undefined, 60);
    expect(r.killedAtLimit).toBe(false);
    expect(r.stdout).toMatch(/^UNUSABLE n1: n1 \(root@[\d.]+\): its jump host root@[\d.]+ refuses to forward connections to [\d.]+ \(AllowTcpForwarding or PermitOpen in its sshd_config\)$/m);
    expect(r.stderr).toContain('no host of the real grid could be reached');
  }, 60_000);
});
