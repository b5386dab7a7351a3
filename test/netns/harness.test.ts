// The network-namespace test hosts (test/support/netns.ts) are what they claim: real sshd servers in their
// own namespaces, reachable from the root namespace only through their cluster's link, which tbf really
// limits, iptables' random drops really thin and `ip link set down` really cuts; and nothing of them outlives the harness, not even after the
// process that made them was killed with SIGKILL.
import { execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { NodeSSH } from 'node-ssh';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';
import {
  DEFAULT_TOOLS,
  checkNetnsPrerequisites,
  listHarnessObjects,
  removeLeftovers,
  startNetnsGrid,
  type NetnsGrid,
  type NetnsHost,
} from '../support/netns.js';

const LIMIT_BPS = 8_000_000;
const PAYLOAD_BYTES = 2 * 1024 * 1024;

async function connectTo(grid: NetnsGrid, host: NetnsHost, readyTimeoutMs = 10_000): Promise<NodeSSH> {
  const ssh = new NodeSSH();
  const expectedKey = host.hostKeyPub.split(' ')[1];
  await ssh.connect({
    host: host.address,
    port: host.port,
    username: grid.user,
    privateKeyPath: grid.identityFile,
    readyTimeout: readyTimeoutMs,
    hostVerifier: (key: Buffer) => key.toString('base64') === expectedKey,
  });
  return ssh;
}

/** Running (a zombie waiting for an absent reaper counts as dead). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | 'timed out'> {
  return Promise.race([p, new Promise<'timed out'>((r) => setTimeout(() => r('timed out'), ms))]);
}

describe('network-namespace grid hosts', () => {
  let grid: NetnsGrid;
  let scratch: string;

  beforeAll(async () => {
    grid = await startNetnsGrid([
      { name: 'c0', hosts: ['n00', 'n01'], link: { rateBitsPerS: LIMIT_BPS } },
      { name: 'c1', hosts: ['n10'] },
    ]);
    scratch = mkdtempSync(join(tmpdir(), 'gridsweep-netns-test-'));
    // Incompressible, so no layer can make the transfer cheaper than its size.
    writeFileSync(join(scratch, 'payload'), Buffer.from(Array.from({ length: PAYLOAD_BYTES }, (_, i) => (i * 2654435761) >>> 24)));
  });
  afterAll(async () => {
    await grid?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('runs a real sshd in each host namespace, reachable from the root namespace through its cluster link', async () => {
    for (const cluster of grid.clusters) {
      for (const host of cluster.hosts) {
        const ssh = await connectTo(grid, host);
        try {
          const r = await ssh.execCommand('ip -o -4 addr show; echo "conn=$SSH_CONNECTION"; echo "home=$HOME"; ls -A "$HOME" | wc -l');
          expect(r.code).toBe(0);
          const addresses = [...r.stdout.matchAll(/inet (\S+)\//g)].map((m) => m[1]);
          // The host sees only its loopback and its own address: it is in its own namespace.
          expect(addresses.sort()).toEqual(['127.0.0.1', host.address].sort());
          // The connection arrives from the origin's address on this cluster's link.
          expect(r.stdout).toContain(`conn=${cluster.originAddress} `);
          expect(r.stdout).toMatch(/\n0\n?$/); // its own empty home directory
        } finally {
          ssh.dispose();
        }
      }
    }
  });

  it('refuses a client whose key verification fails (the known host keys are the generated ones)', async () => {
    const ssh = new NodeSSH();
    await expect(
      ssh.connect({ host: grid.host('n10').address, port: 22, username: grid.user, privateKeyPath: grid.identityFile, hostVerifier: () => false }),
    ).rejects.toThrow();
    ssh.dispose();
    expect(readFileSync(grid.knownHosts, 'utf8')).toContain(`${grid.host('n10').address} ${grid.host('n10').hostKeyPub}`);
  });

  it('limits a cluster link with tbf in both directions, and only that link', async () => {
    const expectedS = (PAYLOAD_BYTES * 8) / LIMIT_BPS;
    const limited = await connectTo(grid, grid.host('n00'));
    const free = await connectTo(grid, grid.host('n10'));
    try {
      let t0 = performance.now();
      await limited.putFile(join(scratch, 'payload'), join(grid.cluster('c0').storage, 'up'));
      const upS = (performance.now() - t0) / 1000;
      t0 = performance.now();
      await limited.getFile(join(scratch, 'down'), join(grid.cluster('c0').storage, 'up'));
      const downS = (performance.now() - t0) / 1000;
      t0 = performance.now();
      await free.putFile(join(scratch, 'payload'), join(grid.cluster('c1').storage, 'up'));
      const freeS = (performance.now() - t0) / 1000;
      expect(readFileSync(join(scratch, 'down')).equals(readFileSync(join(scratch, 'payload')))).toBe(true);
      expect(upS).toBeGreaterThan(0.5 * expectedS);
      expect(upS).toBeLessThan(1.5 * expectedS);
      expect(downS).toBeGreaterThan(0.5 * expectedS);
      expect(downS).toBeLessThan(1.5 * expectedS);
      expect(freeS).toBeLessThan(0.5 * expectedS);
    } finally {
      limited.dispose();
      free.dispose();
    }
  });

  it('makes a cluster link lose the given share of packets from the origin at random, and lossless again', async () => {
    const host = grid.host('n10');
    const share = 0.3;
    const datagrams = 3000;
    const iptables = (...args: string[]): string => execFileSync(DEFAULT_TOOLS.ip, ['netns', 'exec', host.namespace, DEFAULT_TOOLS.iptables, ...args], { encoding: 'utf8' });
    grid.setLinkLoss('c1', share);
    try {
      // A rule without a target ahead of the loss rule counts every packet that arrives from the origin.
      iptables('-I', 'INPUT', '1', '-i', 'eth0', '-s', grid.cluster('c1').originAddress);
      const socket = createSocket('udp4');
      try {
        // One at a time: a burst could overflow the queue of packets waiting for the host's ARP answer.
        for (let i = 0; i < datagrams; i++) await new Promise<void>((resolve, reject) => socket.send(Buffer.from('x'), 9, host.address, (err) => (err ? reject(err) : resolve())));
      } finally {
        socket.close();
      }
      const counts = iptables('-L', 'INPUT', '-v', '-x', '-n').split('\n').flatMap((l) => (/^\s*\d+/.test(l) ? [Number(l.trim().split(/\s+/)[0])] : []));
      const [arrived, dropped] = counts as [number, number];
      expect(arrived).toBeGreaterThanOrEqual(datagrams);
      // 3,000 draws at 0.3: the share dropped is within 0.05 of it but once in 10^8.
      expect(Math.abs(dropped / arrived - share)).toBeLessThan(0.05);
    } finally {
      grid.setLinkLoss('c1', undefined);
    }
    expect(iptables('-S')).not.toMatch(/statistic|-s /);
    expect(() => grid.setLinkLoss('c1', 1)).toThrow(/a share between 0 and 1/);
  });

  it('cuts a cluster link with ip link set down: new and open connections to it fail, other clusters are unaffected, restoring brings it back', async () => {
    const open = await connectTo(grid, grid.host('n01'));
    try {
      grid.cutLink('c0');
      await expect(connectTo(grid, grid.host('n00'), 2000)).rejects.toThrow();
      expect(await withTimeout(open.execCommand('echo still here'), 2000)).toBe('timed out');
      const other = await connectTo(grid, grid.host('n10'));
      expect((await other.execCommand('echo ok')).stdout).toBe('ok');
      other.dispose();
    } finally {
      grid.restoreLink('c0');
      open.dispose();
    }
    const again = await connectTo(grid, grid.host('n00'));
    expect((await again.execCommand('echo back')).stdout).toBe('back');
    again.dispose();
  });

  it('kills a host (every process in its namespace) and starts it again with the same key', async () => {
    const host = grid.host('n10');
    const ssh = await connectTo(grid, host);
    const connection = ssh.connection as unknown as NodeJS.EventEmitter;
    const closed = new Promise((r) => connection.once('close', r));
    // The host is killed under the open connection: a write on its socket may then fail (EPIPE,
    // ECONNRESET), which is what killing it means; without a listener that error would be unhandled.
    connection.on('error', () => undefined);
    grid.killHost('n10');
    await closed;
    await expect(connectTo(grid, host, 2000)).rejects.toThrow();
    await grid.restartHost('n10');
    const again = await connectTo(grid, host);
    expect((await again.execCommand('echo up')).stdout).toBe('up');
    again.dispose();
  });

  it('removes every namespace, link, process and file it made when stopped', async () => {
    const small = await startNetnsGrid([{ name: 'solo', hosts: ['s0'], link: { rateBitsPerS: 1e8 } }]);
    const prefix = small.runPrefix;
    const made = listHarnessObjects(prefix);
    expect(made.namespaces.length).toBe(2);
    expect(made.links).toEqual([small.cluster('solo').linkDevice]);
    const sshdPid = Number(readFileSync(join(small.host('s0').root, 'sshd.pid'), 'utf8'));
    expect(alive(sshdPid)).toBe(true);
    await small.stop();
    expect(listHarnessObjects(prefix)).toEqual({ namespaces: [], links: [] });
    expect(alive(sshdPid)).toBe(false);
    expect(existsSync(small.dir)).toBe(false);
  });

  it('removes at the next start what a run killed with SIGKILL left behind', async () => {
    const childDir = mkdtempSync(join(tmpdir(), 'gridsweep-netns-child-'));
    try {
      const script = join(childDir, 'child.mts');
      const harness = pathToFileURL(join(PACKAGE_ROOT, 'test', 'support', 'netns.ts')).href;
      writeFileSync(
        script,
        [
          `import { startNetnsGrid } from ${JSON.stringify(harness)};`,
          `const g = await startNetnsGrid([{ name: 'k', hosts: ['k0', 'k1'] }]);`,
          'console.log(JSON.stringify({ prefix: g.runPrefix, roots: g.clusters[0].hosts.map((h) => h.root) }));',
          'setInterval(() => undefined, 1000);',
        ].join('\n'),
      );
      const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        child.once('exit', (code) => reject(new Error(`child exited with ${code}: ${err}`)));
      });
      const { prefix, roots } = JSON.parse(line) as { prefix: string; roots: string[] };
      const sshdPids = roots.map((r) => Number(readFileSync(join(r, 'sshd.pid'), 'utf8')));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      // SIGKILL runs no clean-up: the namespaces and the sshd servers in them are still there.
      expect(listHarnessObjects(prefix).namespaces.length).toBe(3);
      expect(sshdPids.every(alive)).toBe(true);
      const removed = removeLeftovers();
      expect(removed).toEqual(expect.arrayContaining([`${prefix}c0`, `${prefix}-0-sw`, `${prefix}-0-h0`, `${prefix}-0-h1`]));
      expect(listHarnessObjects(prefix)).toEqual({ namespaces: [], links: [] });
      await new Promise((r) => setTimeout(r, 200));
      expect(sshdPids.some(alive)).toBe(false);
      // This harness's own grid (another slot, live owner) was left alone.
      expect(listHarnessObjects(grid.runPrefix).namespaces.length).toBe(5);
    } finally {
      rmSync(childDir, { recursive: true, force: true });
    }
  });

  it('says clearly what is missing when a tool is not installed', () => {
    expect(() => checkNetnsPrerequisites({ ...DEFAULT_TOOLS, tc: '/nonexistent/tc' })).toThrow(/need tc \(\/nonexistent\/tc\), missing here; install them/);
  });
});
