// `gridsweep run` on compute nodes that only their cluster's login node reaches: the nodes refuse every
// connection from the origin, and the grid file names the login node as their "jump" host (OpenSSH's
// ProxyJump), or an ssh client configuration names it their ProxyJump. The run goes through one connection to
// the login node, shared by the nodes behind it, and survives that node stopped (SIGSTOP) and killed
// mid-run, as it survives any host going down. Behind two jump hosts (a bastion, then the login node: a
// ProxyJump list, a jump host's own ProxyJump, a list in the grid file) the same, the bastion stopped and
// killed mid-run.
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

/**
 * An origin whose grid file names the nodes by alias alone (no user, credentials, known_hosts file nor jump
 * host), with an ssh client configuration giving each of `aliases` its address, then the lines `via`, then
 * the grid's user, key and known_hosts for every host.
 */
function originWithSshConfig(block: BlockGrid, seeds: number, seconds: number, aliases: string[], via: string[], extra: Record<string, unknown> = {}): Origin {
  const o = block.origin(seeds, seconds);
  const g = block.grid;
  const configPath = join(o.dir, 'ssh_config');
  writeFileSync(
    configPath,
    [
      ...aliases.flatMap((n) => [`Host ${n}`, `  HostName ${g.host(n).address}`]),
      ...via,
      'Host *',
      `  User ${g.user}`,
      `  IdentityFile ${g.identityFile}`,
      `  UserKnownHostsFile ${g.knownHosts}`,
    ].join('\n'),
  );
  const hosts = NODES.map((n) => ({ name: n, address: n, arch: 0 }));
  writeFileSync(o.gridPath, JSON.stringify({ realgrid: 1, origin: o.dir, sshConfig: configPath, keepalive: { intervalS: 1, countMax: 3 }, ...extra, clusters: [{ name: 'c0', storage: g.cluster('c0').storage, hosts }] }));
  return o;
}

function runArgs(o: Origin): string[] {
  return ['run', o.sweepPath, '--grid', o.gridPath, '--journal', o.journalPath, '--record', o.recordPath, '--heuristic', 'workqueue', '--no-watch'];
}

/**
 * Runs the sweep of `o`, stopping (SIGSTOP) or killing `jumpHost` a second after the run starts and mending
 * it 6 s (stopped) or 3 s (killed) later; the nodes behind it must go down with it, and every task be done
 * once by the end.
 */
async function expectNodesBackAfter(block: BlockGrid, o: Origin, jumpHost: string, fault: 'stopped' | 'killed', seeds: number): Promise<void> {
  let mending: Promise<void> | undefined;
  const mend = (): Promise<void> => (mending ??= fault === 'stopped' ? Promise.resolve(block.grid.continueHost(jumpHost)) : block.grid.restartHost(jumpHost));
  let struck = false;
  const r = await runCli(runArgs(o), (line) => {
    if (struck || !line.startsWith('start ')) return;
    struck = true;
    setTimeout(() => {
      if (fault === 'stopped') block.grid.hangHost(jumpHost);
      else block.grid.killHost(jumpHost);
      setTimeout(() => void mend(), fault === 'stopped' ? 6000 : 3000);
    }, 1000);
  }, 80);
  await mend();
  const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
  expect(r.killedAtLimit, log).toBe(false);
  expect(r.code, log).toBe(0);
  // The nodes' connections ran through the jump host: they went down with it, and came back.
  for (const n of NODES) expect(r.stdout, log).toMatch(new RegExp(`^down +${n}\\b`, 'm'));
  expectEachTaskDoneOnce(o, seeds);
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
    // The hosts by alias alone: no user, credentials, known_hosts file nor jump host in the grid file.
    const o = originWithSshConfig(block, seeds, 1, [...NODES, 'gw'], ['Host n*', `  ${via}`]);
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
      await expectNodesBackAfter(block, o, 'gw', fault, seeds);
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

/** The addresses the SSH connections to `name`'s sshd come from, as `name` sees them. */
function peersOf(block: BlockGrid, name: string): Set<string> {
  const out = execFileSync('ip', ['netns', 'exec', block.grid.host(name).namespace, 'ss', '-Htn', 'state', 'established', '( sport = :22 )'], { encoding: 'utf8' });
  return new Set(out.split('\n').flatMap((l) => /\s(\d+\.\d+\.\d+\.\d+):\d+\s*$/.exec(l.trim())?.[1] ?? []));
}

// A bastion, then the cluster's login node, then the nodes (ssh -J bastion,login node): only the bastion
// takes the origin's connections, only the login node reaches the nodes.
describe('gridsweep run on nodes behind two jump hosts', () => {
  const block = gridForBlock([{ name: 'c0', hosts: ['bastion', 'login', ...NODES] }]);
  beforeAll(() => {
    for (const n of ['login', ...NODES]) block.grid.fenceFromOrigin(n);
  });

  const layouts: Record<string, string[]> = {
    'ProxyJump bastion,login': ['Host n*', '  ProxyJump bastion,login'],
    "the login node's own ProxyJump": ['Host n*', '  ProxyJump login', 'Host login', '  ProxyJump bastion'],
    'ProxyCommand ssh -W through the login node, whose ProxyJump is the bastion': ['Host n*', '  ProxyCommand ssh -W %h:%p login', 'Host login', '  ProxyJump bastion'],
  };
  it.each(Object.keys(layouts))('runs every task once, the nodes reached from the login node and the login node from the bastion (%s)', async (layout) => {
    const seeds = 2;
    const o = originWithSshConfig(block, seeds, 2, ['bastion', 'login', ...NODES], layouts[layout]!);
    const peers = { login: new Set<string>(), nodes: new Set<string>() };
    const r = await runCli(runArgs(o), (line) => {
      if (!/^(start|done) /.test(line)) return;
      for (const a of peersOf(block, 'login')) peers.login.add(a);
      for (const n of NODES) for (const a of peersOf(block, n)) peers.nodes.add(a);
    }, 60);
    const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
    expect(r.killedAtLimit, log).toBe(false);
    expect(r.code, log).toBe(0);
    expect(r.stdout, log).not.toMatch(/^(failed|down|unusable) /im);
    expectEachTaskDoneOnce(o, seeds);
    expect(peers.login, log).toEqual(new Set([block.grid.host('bastion').address]));
    expect(peers.nodes, log).toEqual(new Set([block.grid.host('login').address]));
  }, 90_000);

  it('takes a list of jump hosts in the grid file', async () => {
    const seeds = 2;
    const o = block.origin(seeds, 1);
    const grid = JSON.parse(readFileSync(o.gridPath, 'utf8')) as { clusters: { hosts: { name: string }[] }[] };
    const hop = (n: string): { address: string } => ({ address: block.grid.host(n).address });
    for (const c of grid.clusters) c.hosts = c.hosts.filter((h) => NODES.includes(h.name)).map((h) => ({ ...h, jump: [hop('bastion'), hop('login')] }));
    writeFileSync(o.gridPath, JSON.stringify(grid, null, 2));
    const r = await runCli(runArgs(o), () => undefined, 60);
    const log = `--- the run's output ---\n${r.stdout}\n${r.stderr}`;
    expect(r.code, log).toBe(0);
    expectEachTaskDoneOnce(o, seeds);
  }, 90_000);

  it('sets every node aside, naming the hop, when the bastion\'s key is unknown', async () => {
    const o = block.origin(1, 1);
    writeFileSync(join(o.dir, 'empty_known_hosts'), '');
    const grid = JSON.parse(readFileSync(o.gridPath, 'utf8')) as { clusters: { hosts: { name: string }[] }[] };
    const bastion = { address: block.grid.host('bastion').address, knownHosts: join(o.dir, 'empty_known_hosts') };
    for (const c of grid.clusters) c.hosts = c.hosts.filter((h) => NODES.includes(h.name)).map((h) => ({ ...h, jump: [bastion, { address: block.grid.host('login').address }] }));
    writeFileSync(o.gridPath, JSON.stringify(grid, null, 2));
    const r = await runCli(runArgs(o), () => undefined, 60);
    expect(r.killedAtLimit).toBe(false);
    for (const n of NODES) {
      expect(r.stdout).toMatch(new RegExp(`^UNUSABLE ${n}: ${n} \\(root@[\\d.]+\\): its jump host root@[\\d.]+: its jump host root@([\\d.]+): \\1 is not in ${o.dir}/empty_known_hosts`, 'm'));
    }
    expect(r.stderr).toContain('no host of the real grid could be reached');
  }, 60_000);

  for (const fault of ['stopped', 'killed'] as const) {
    it(`finishes every task once when the bastion is ${fault} mid-run, the nodes down with it and back`, async () => {
      const seeds = 4;
      const o = originWithSshConfig(block, seeds, 3, ['bastion', 'login', ...NODES], layouts['ProxyJump bastion,login']!, { deadlines: { probeS: 2, loginS: 3, commandS: 5 }, keepalive: { intervalS: 1, countMax: 2 } });
      await expectNodesBackAfter(block, o, 'bastion', fault, seeds);
    }, 100_000);
  }
});
