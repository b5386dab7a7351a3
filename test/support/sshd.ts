// Real OpenSSH servers on loopback for tests: one sshd per "host", each on its own 127.0.0.1 port with its
// own generated host key, all accepting one generated user key (public-key only, no PAM). Each host gets
// a temporary working root; hosts of one cluster share that cluster's storage directory.
//
// Needs /usr/sbin/sshd and ssh-keygen (Debian: openssh-server, openssh-client) and, for sshd to switch
// users and use /run/sshd, root. Nothing listens beyond 127.0.0.1.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freeServerPort } from '../../bench/support/free-port.js';
import { realGridJsonForStartedHosts } from '../../bench/support/real-grid-json.js';
import { waitForSshBanner } from '../../bench/support/ssh-banner.js';
import { keyOnlySshdConfig } from '../../bench/support/sshd-config.js';

export const SSHD_PATH = '/usr/sbin/sshd';

export interface SshdHost {
  readonly name: string;
  readonly cluster: string;
  readonly port: number;
  /** This host's own scratch directory. */
  readonly root: string;
  /** The public host key line ("ssh-ed25519 AAAA..."). */
  readonly hostKeyPub: string;
  readonly pid: () => number | undefined;
}

export interface SshdCluster {
  readonly name: string;
  readonly storage: string;
  readonly hosts: readonly SshdHost[];
}

export interface SshdFarm {
  readonly dir: string;
  readonly user: string;
  readonly identityFile: string;
  /** A known_hosts file listing every host's key (plain entries). */
  readonly knownHosts: string;
  readonly clusters: readonly SshdCluster[];
  host(name: string): SshdHost;
  /** Kills a host's sshd and every process it started (its sessions, its tasks): the machine "dies". */
  kill(name: string): void;
  /** Starts a killed host again on the same port with the same key. */
  restart(name: string): Promise<void>;
  /** A real grid file (JSON text) for these hosts; `extra` is merged into the top level. */
  realGridJson(originDir: string, extra?: Record<string, unknown>): string;
  stop(): Promise<void>;
}

function requireSshd(): void {
  if (!existsSync(SSHD_PATH)) {
    throw new Error(`${SSHD_PATH} is missing: the SSH tests need a real OpenSSH server. Install it (Debian/Ubuntu: apt-get install -y openssh-server openssh-client).`);
  }
  if (process.getuid?.() !== 0) {
    throw new Error('the SSH tests start sshd and must run as root (sshd needs /run/sshd and to set up sessions).');
  }
}

/** Every process descended from `pid` (read from /proc). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // the process ended meanwhile
    }
  }
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    for (const c of children.get(stack.pop()!) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

function killTree(pid: number): void {
  for (const p of [pid, ...descendants(pid)]) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

interface HostRuntime {
  spec: SshdHost;
  config: string;
  child?: ChildProcess;
  stderr: string;
}

/**
 * Starts `layout` (cluster name → host names) as loopback sshd servers; `sshdLines`: more lines at the end of
 * every host's sshd_config (a Match block, say).
 */
export async function startSshdFarm(layout: Readonly<Record<string, readonly string[]>>, options: { readonly sshdLines?: readonly string[] } = {}): Promise<SshdFarm> {
  requireSshd();
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-sshd-'));
  const user = userInfo().username;
  const identityFile = join(dir, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'gridsweep-test', '-f', identityFile]);
  const authorizedKeys = join(dir, 'authorized_keys');
  writeFileSync(authorizedKeys, readFileSync(`${identityFile}.pub`), { mode: 0o600 });
  const runtimes = new Map<string, HostRuntime>();
  const clusters: SshdCluster[] = [];
  const knownLines: string[] = [];

  const launch = async (rt: HostRuntime): Promise<void> => {
    rt.stderr = '';
    const child = spawn(SSHD_PATH, ['-D', '-e', '-f', rt.config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (d: Buffer) => {
      rt.stderr = (rt.stderr + d.toString()).slice(-4000);
    });
    rt.child = child;
    await waitForSshBanner('127.0.0.1', rt.spec.port, child, () => rt.stderr);
  };

  try {
    for (const [clusterName, hostNames] of Object.entries(layout)) {
      const storage = join(dir, 'storage', clusterName);
      mkdirSync(storage, { recursive: true });
      const hosts: SshdHost[] = [];
      for (const name of hostNames) {
        const root = join(dir, 'hosts', name);
        mkdirSync(root, { recursive: true });
        const hostKey = join(root, 'ssh_host_ed25519_key');
        execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', hostKey]);
        const port = await freeServerPort();
        const config = join(root, 'sshd_config');
        writeFileSync(
          config,
          keyOnlySshdConfig({
            port,
            listenAddress: '127.0.0.1',
            hostKey,
            pidFile: join(root, 'sshd.pid'),
            authorizedKeysFile: authorizedKeys,
            extraLines: [
              'MaxStartups 100',
              // bash skips ~/.bashrc when not top-level: test sessions stay fast and independent of the
              // machine's shell setup (a killed session must not leave, e.g., a pyenv rehash lock behind).
              'SetEnv SHLVL=1',
              ...(options.sshdLines ?? []),
            ],
          }),
        );
        const hostKeyPub = readFileSync(`${hostKey}.pub`, 'utf8').trim().split(/\s+/).slice(0, 2).join(' ');
        knownLines.push(`[127.0.0.1]:${port} ${hostKeyPub}`);
        const rt: HostRuntime = {
          spec: { name, cluster: clusterName, port, root, hostKeyPub, pid: () => rt.child?.pid },
          config,
          stderr: '',
        };
        runtimes.set(name, rt);
        hosts.push(rt.spec);
      }
      clusters.push({ name: clusterName, storage, hosts });
    }
    const knownHosts = join(dir, 'known_hosts');
    writeFileSync(knownHosts, `${knownLines.join('\n')}\n`);
    await Promise.all([...runtimes.values()].map(launch));

    const farm: SshdFarm = {
      dir,
      user,
      identityFile,
      knownHosts,
      clusters,
      host(name) {
        const rt = runtimes.get(name);
        if (!rt) throw new Error(`no sshd host ${name}`);
        return rt.spec;
      },
      kill(name) {
        const rt = runtimes.get(name);
        if (rt?.child?.pid !== undefined) killTree(rt.child.pid);
      },
      async restart(name) {
        const rt = runtimes.get(name);
        if (!rt) throw new Error(`no sshd host ${name}`);
        if (rt.child && rt.child.exitCode === null && rt.child.signalCode === null) {
          await new Promise((r) => rt.child!.once('exit', r));
        }
        await launch(rt);
      },
      realGridJson(originDir, extra = {}) {
        const onLoopback = clusters.map((c) => ({ ...c, hosts: c.hosts.map((h) => ({ ...h, address: '127.0.0.1' })) }));
        return realGridJsonForStartedHosts({ originDir, knownHosts, user, identityFile, clusters: onLoopback, extra });
      },
      async stop() {
        await Promise.all(
          [...runtimes.values()].map(async (rt) => {
            const child = rt.child;
            if (!child || child.pid === undefined) return;
            const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
            killTree(child.pid);
            await exited;
          }),
        );
        rmSync(dir, { recursive: true, force: true });
      },
    };
    return farm;
  } catch (err) {
    for (const rt of runtimes.values()) if (rt.child?.pid !== undefined) killTree(rt.child.pid);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
