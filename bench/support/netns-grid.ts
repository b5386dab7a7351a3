// Grid hosts in Linux network namespaces, for tests and benchmarks: every host is its own namespace running
// a real OpenSSH server; every cluster is a bridge ("switch") in a namespace of its own, joined to the
// root namespace (the origin) by ONE veth pair, the cluster's link. That link can be rate-limited with
// `tc ... tbf` in both directions, made to lose packets at random (iptables' statistic match in each of
// its hosts) and cut with `ip link set DEV down`.
//
//   root namespace (origin)                    gsntNN-C-sw (switch)                 gsntNN-C-hJ (host J)
//   gsntNNcC  10.231.X.1/24  <== veth ==>  uplink ─┐                                 eth0 10.231.X.(10+J)
//     tbf: origin → cluster (inputs)        tbf: cluster → origin (outputs)          sshd on port 22
//                                                 └ br0 ─ hJ  <== veth ==>
//
// X = slot × 8 + cluster index: each harness instance holds a "slot" (0–31), taken by creating a lock file
// that holds its pid, so concurrent test files never share names or subnets. Every name starts with
// "gsnt" + the two-digit slot. At start, objects of slots whose owner is dead (a run killed with SIGKILL)
// are removed: their processes killed, their namespaces and links deleted.
//
// Traffic between hosts of one cluster crosses only the bridge and is not limited; traffic between the
// origin and a cluster crosses the cluster's link: with a limit, the root-side end's egress (towards the
// cluster: inputs, commands) and the switch-side end's egress (towards the origin: outputs) each get
// `tbf rate R burst B latency L`. No ifb is needed because the switch end lives in its own namespace.
// tbf's `latency` bounds the queueing delay (packets beyond it are dropped); it adds no delay of its own
// (that would need netem, which this kernel lacks). For the same reason loss is not netem's either: each
// host of a lossy cluster drops that share of the packets it receives from, and of those it sends to, the
// origin (INPUT and OUTPUT rules in its own namespace's firewall), so every packet between origin and
// cluster crosses exactly one chance of being lost.
//
// Only these namespaces and 10.231.0.0/16 addresses on their interfaces are ever touched. Needs root,
// iproute2 (`ip`, `tc`), iptables and openssh-server (`/usr/sbin/sshd`, `ssh-keygen`).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { realGridJsonForStartedHosts } from './real-grid-json.js';
import { waitForSshBanner } from './ssh-banner.js';
import { keyOnlySshdConfig } from './sshd-config.js';

export const FAMILY_PREFIX = 'gsnt';
export const SUBNET_BASE = '10.231';
const SLOT_COUNT = 32;
const MAX_CLUSTERS = 8;
const MAX_HOSTS_PER_CLUSTER = 100;
const SSH_PORT = 22;

export interface NetnsTools {
  readonly ip: string;
  readonly tc: string;
  readonly iptables: string;
  readonly sshd: string;
  readonly sshKeygen: string;
}

export const DEFAULT_TOOLS: NetnsTools = { ip: '/usr/sbin/ip', tc: '/usr/sbin/tc', iptables: '/usr/sbin/iptables', sshd: '/usr/sbin/sshd', sshKeygen: '/usr/bin/ssh-keygen' };

/** A cluster link's limit, applied to each direction separately. */
export interface LinkLimit {
  readonly rateBitsPerS: number;
  /** Token bucket size; default max(64 KiB, 10 ms at the rate). Must cover a GSO segment. */
  readonly burstBytes?: number;
  /** Longest queueing delay before tbf drops; default 100 ms. */
  readonly queueLatencyMs?: number;
}

export interface NetnsClusterLayout {
  readonly name: string;
  readonly hosts: readonly string[];
  readonly link?: LinkLimit;
  /**
   * The storage as a tmpfs of this many bytes (a disk that fills), mounted before the hosts start so that
   * their mount namespaces share it (a mount made later would not reach them: this machine's mounts are
   * private).
   */
  readonly storageBytes?: number;
}

export interface NetnsHost {
  readonly name: string;
  readonly cluster: string;
  readonly namespace: string;
  readonly address: string;
  readonly port: number;
  /** This host's scratch directory (its sshd config and host key live there). */
  readonly root: string;
  /** The user's home directory as this host's sessions see it (mounted over the real one in its namespace). */
  readonly home: string;
  /** "ssh-ed25519 AAAA..." */
  readonly hostKeyPub: string;
}

export interface NetnsCluster {
  readonly name: string;
  readonly index: number;
  /** e.g. "10.231.8.0/24" */
  readonly subnet: string;
  /** The root namespace's address on this cluster's link. */
  readonly originAddress: string;
  /** Root-side end of the cluster's link (the device `cutLink` takes down). */
  readonly linkDevice: string;
  readonly switchNamespace: string;
  /** The cluster's shared storage directory (the namespaces share this machine's file system). */
  readonly storage: string;
  readonly hosts: readonly NetnsHost[];
}

export interface NetnsGrid {
  /** "gsntNN": every namespace and root-namespace link of this grid starts with it. */
  readonly runPrefix: string;
  readonly dir: string;
  readonly user: string;
  readonly identityFile: string;
  /** known_hosts listing every host's key (plain entries, port 22). */
  readonly knownHosts: string;
  /** An OpenSSH client config with one `Host <name>` entry per host (for `ssh -F`, GNU parallel, scp). */
  readonly sshConfig: string;
  readonly clusters: readonly NetnsCluster[];
  host(name: string): NetnsHost;
  cluster(name: string): NetnsCluster;
  /** Takes the cluster's link down (`ip link set DEV down`): nothing passes between origin and cluster. */
  cutLink(cluster: string): void;
  restoreLink(cluster: string): void;
  /** Sets (or, with undefined, removes) the cluster link's limit in both directions. */
  setLinkLimit(cluster: string, limit: LinkLimit | undefined): void;
  /**
   * Makes the cluster's link lose this share (0 < share < 1) of the packets in each direction between the
   * origin and its hosts, at random; undefined makes it lossless again.
   */
  setLinkLoss(cluster: string, share: number | undefined): void;
  /**
   * Makes the host's sshd refuse every connection from the origin (a compute node behind its cluster's login
   * node): only its cluster's other hosts reach it; its own connections out are untouched. False lifts the
   * fence. Flushes the host's INPUT chain, as setLinkLoss does.
   */
  fenceFromOrigin(name: string, fenced?: boolean): void;
  /** Kills every process in the host's namespace (its sshd, sessions and tasks): the machine dies. */
  killHost(name: string): void;
  /**
   * Stops every process in the host's namespace (SIGSTOP): the machine hangs, its TCP connections stay
   * open and nothing answers. Returns how many processes were stopped.
   */
  hangHost(name: string): number;
  /** Continues a hung host's processes (SIGCONT). */
  continueHost(name: string): void;
  /** Starts a killed host's sshd again, with the same key. */
  restartHost(name: string): Promise<void>;
  /** A real grid file (JSON text) for these hosts; `extra` is merged into the top level. */
  realGridJson(originDir: string, extra?: Record<string, unknown>, slotsPerHost?: number): string;
  /** Kills every process, deletes every namespace and link, removes the directory, frees the slot. */
  stop(): Promise<void>;
}

export interface NetnsGridOptions {
  readonly tools?: NetnsTools;
  /**
   * Directories put in front of PATH in the hosts' sessions (sshd `SetEnv`), for tools this machine has
   * but not in the standard directories. Default: sshd's own PATH.
   */
  readonly sessionPathPrefix?: string;
  /** The hosts' sessions' whole PATH instead (sshd `SetEnv`): a host without some program, say. */
  readonly sessionPath?: string;
  /** SFTP's server as OpenSSH's sftp-server program, started through the login shell (default: built in). */
  readonly sftpThroughShell?: boolean;
  /** No SFTP server at all (sshd without a Subsystem sftp line). */
  readonly noSftp?: boolean;
  /** sshd's MaxSessions: the channels one connection may have open at once (default 20; OpenSSH's own is 10). */
  readonly maxSessions?: number;
  /** sshd's AllowTcpForwarding no: the hosts refuse to be jump hosts. */
  readonly noTcpForwarding?: boolean;
  /** The user's login shell on every host (its /etc/passwd entry, seen by that host alone), e.g. /usr/bin/tcsh. */
  readonly loginShell?: string;
}

export class NetnsUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NetnsUnavailableError';
  }
}

/** Throws a clear error when the harness cannot work here (not root, or a tool missing). */
export function checkNetnsPrerequisites(tools: NetnsTools = DEFAULT_TOOLS): void {
  if (process.getuid?.() !== 0) {
    throw new NetnsUnavailableError('the network-namespace test hosts need root (ip netns, tc, iptables and sshd need CAP_NET_ADMIN and CAP_SYS_ADMIN); run the tests as root.');
  }
  const missing = (Object.entries(tools) as [keyof NetnsTools, string][]).filter(([, path]) => !existsSync(path));
  if (missing.length > 0) {
    throw new NetnsUnavailableError(
      `the network-namespace test hosts need ${missing.map(([name, path]) => `${name} (${path})`).join(', ')}, missing here; install them (Debian: apt-get install -y iproute2 iptables openssh-server openssh-client).`,
    );
  }
}

/** Unmounts what is mounted below `dir` (a cluster's tmpfs storage), so that it can be removed. */
function unmountUnder(dir: string): void {
  const mounts = readFileSync('/proc/self/mounts', 'utf8').split('\n').map((l) => l.split(' ')[1] ?? '');
  for (const m of mounts) if (m.startsWith(`${dir}/`)) tryRun('/usr/bin/umount', ['-l', m]);
}

function run(cmd: string, args: readonly string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed: ${(e.stderr ?? e.message).trim()}`);
  }
}

function tryRun(cmd: string, args: readonly string[]): void {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
  } catch {
    // already gone
  }
}

// ---------------------------------------------------------------------------------------------------
// Slots, names, leftovers

function lockDir(): string {
  const dir = join(tmpdir(), 'gridsweep-netns-locks');
  mkdirSync(dir, { recursive: true });
  return dir;
}

function slotLockPath(slot: number): string {
  return join(lockDir(), `slot-${slotLabel(slot)}.pid`);
}

function slotLabel(slot: number): string {
  return String(slot).padStart(2, '0');
}

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in a slot's lock file; undefined when there is none (or it is still being written). */
function slotOwner(slot: number): number | undefined {
  try {
    const pid = Number(readFileSync(slotLockPath(slot), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Namespaces and root-namespace links whose names start with `prefix`. */
export function listHarnessObjects(prefix: string = FAMILY_PREFIX, tools: NetnsTools = DEFAULT_TOOLS): { namespaces: string[]; links: string[] } {
  const namespaces = run(tools.ip, ['netns', 'list'])
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0] ?? '')
    .filter((n) => n.startsWith(prefix));
  const links = run(tools.ip, ['-o', 'link', 'show'])
    .split('\n')
    .map((l) => /^\d+:\s+([^:@\s]+)/.exec(l)?.[1] ?? '')
    .filter((n) => n.startsWith(prefix));
  return { namespaces, links };
}

/** The grid's temporary directory is named after its prefix, so a dead run's directory can be found. */
function gridDirPrefix(prefix: string): string {
  return `gridsweep-${prefix}-`;
}

function slotOfName(name: string): number | undefined {
  const m = new RegExp(`^${FAMILY_PREFIX}(\\d\\d)`).exec(name);
  return m ? Number(m[1]) : undefined;
}

/** Sends `signal` to every process in the namespace; returns their ids. */
function signalNamespaceProcesses(ns: string, signal: NodeJS.Signals, tools: NetnsTools): number[] {
  let pids: number[] = [];
  try {
    pids = run(tools.ip, ['netns', 'pids', ns]).split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

function killNamespaceProcesses(ns: string, tools: NetnsTools): number[] {
  return signalNamespaceProcesses(ns, 'SIGKILL', tools);
}

/** Deletes every object of one slot: processes in its namespaces, root-side links, namespaces. */
function removeSlotObjects(prefix: string, tools: NetnsTools): string[] {
  const { namespaces, links } = listHarnessObjects(prefix, tools);
  for (const ns of namespaces) killNamespaceProcesses(ns, tools);
  for (const link of links) tryRun(tools.ip, ['link', 'del', link]);
  for (const ns of namespaces) tryRun(tools.ip, ['netns', 'del', ns]);
  const dirs = readdirSync(tmpdir()).filter((d) => d.startsWith(gridDirPrefix(prefix)));
  for (const d of dirs) {
    unmountUnder(join(tmpdir(), d));
    rmSync(join(tmpdir(), d), { recursive: true, force: true });
  }
  return [...namespaces, ...links, ...dirs];
}

/**
 * Removes what killed runs left behind: every gsnt* namespace or link whose slot has no live owner, the
 * processes in those namespaces and the grid's temporary directory. Returns the names removed. Called by startNetnsGrid; callable on its own.
 */
export function removeLeftovers(tools: NetnsTools = DEFAULT_TOOLS): string[] {
  const { namespaces, links } = listHarnessObjects(FAMILY_PREFIX, tools);
  const slots = new Set([...namespaces, ...links].map(slotOfName).filter((s): s is number => s !== undefined));
  const removed: string[] = [];
  for (const slot of slots) {
    const owner = slotOwner(slot);
    if (owner !== undefined && pidAlive(owner)) continue;
    removed.push(...removeSlotObjects(`${FAMILY_PREFIX}${slotLabel(slot)}`, tools));
    if (owner !== undefined) tryUnlink(slotLockPath(slot));
  }
  return removed;
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Takes a free slot (lock file created exclusively, holding our pid); reclaims slots of dead owners. */
function acquireSlot(tools: NetnsTools): number {
  for (let slot = 0; slot < SLOT_COUNT; slot++) {
    const path = slotLockPath(slot);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(path, 'wx');
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        // A dead owner's objects may exist without its lock file (removed by hand): clear them.
        removeSlotObjects(`${FAMILY_PREFIX}${slotLabel(slot)}`, tools);
        return slot;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const owner = slotOwner(slot);
        if (owner === undefined) break; // being written right now: try the next slot
        if (pidAlive(owner)) break;
        removeSlotObjects(`${FAMILY_PREFIX}${slotLabel(slot)}`, tools);
        tryUnlink(path);
      }
    }
  }
  throw new Error(`all ${SLOT_COUNT} network-namespace grid slots are taken (lock files in ${lockDir()})`);
}

// ---------------------------------------------------------------------------------------------------
// Processes

/** tc arguments of a tbf qdisc for `limit`. */
export function tbfArgs(dev: string, limit: LinkLimit): string[] {
  if (!(limit.rateBitsPerS > 0)) throw new Error(`link rate must be positive, got ${limit.rateBitsPerS} bit/s`);
  const burstBytes = limit.burstBytes ?? Math.max(64 * 1024, Math.ceil(limit.rateBitsPerS / 8 / 100));
  const latencyMs = limit.queueLatencyMs ?? 100;
  return ['qdisc', 'replace', 'dev', dev, 'root', 'tbf', 'rate', `${Math.round(limit.rateBitsPerS)}bit`, 'burst', String(burstBytes), 'latency', `${latencyMs}ms`];
}

/** iptables arguments (after `-A` or `-D`) of a host's two loss rules: what it receives from, and sends to, the origin. */
function lossRules(originAddress: string, share: number): string[][] {
  if (!(share > 0 && share < 1)) throw new Error(`a link's loss is a share between 0 and 1 (exclusive), got ${share}`);
  const drop = ['-m', 'statistic', '--mode', 'random', '--probability', String(share), '-j', 'DROP'];
  return [
    ['INPUT', '-i', 'eth0', '-s', originAddress, ...drop],
    ['OUTPUT', '-o', 'eth0', '-d', originAddress, ...drop],
  ];
}

// ---------------------------------------------------------------------------------------------------
// The grid

interface HostRuntime {
  readonly spec: NetnsHost;
  readonly config: string;
  child?: ChildProcess;
  stderr: string;
}

interface GridState {
  readonly prefix: string;
  readonly slot: number;
  readonly dir: string;
  readonly tools: NetnsTools;
  readonly runtimes: Map<string, HostRuntime>;
  stopped: boolean;
}

const liveGrids = new Set<GridState>();
let exitHookInstalled = false;

/** Synchronous teardown: usable from process 'exit' and signal handlers. */
function teardown(state: GridState): void {
  if (state.stopped) return;
  state.stopped = true;
  liveGrids.delete(state);
  for (const rt of state.runtimes.values()) {
    if (rt.child?.pid !== undefined && rt.child.exitCode === null) {
      try {
        rt.child.kill('SIGKILL');
      } catch {
        // gone
      }
    }
  }
  removeSlotObjects(state.prefix, state.tools);
  rmSync(state.dir, { recursive: true, force: true });
  if (slotOwner(state.slot) === process.pid) tryUnlink(slotLockPath(state.slot));
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const g of [...liveGrids]) teardown(g);
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const handler = (): void => {
      for (const g of [...liveGrids]) teardown(g);
      // Keep the default behaviour (terminate) unless somebody else handles the signal too.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, handler);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, handler);
  }
}

/** A copy of /etc/passwd, in `dir`, whose entry for this process's user has `shell` as its login shell. */
function passwdWithShell(dir: string, shell: string): string {
  if (!existsSync(shell)) throw new NetnsUnavailableError(`the login shell ${shell} is not installed here`);
  const user = userInfo().username;
  const lines = readFileSync('/etc/passwd', 'utf8').split('\n');
  const at = lines.findIndex((line) => line.startsWith(`${user}:`));
  if (at < 0) throw new Error(`no /etc/passwd entry for ${user}`);
  const fields = lines[at]!.split(':');
  fields[6] = shell;
  lines[at] = fields.join(':');
  const path = join(dir, 'passwd');
  writeFileSync(path, lines.join('\n'), { mode: 0o644 });
  return path;
}

const STANDARD_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function sshdConfig(host: NetnsHost, hostKey: string, authorizedKeys: string, options: NetnsGridOptions): string {
  return keyOnlySshdConfig({
    ...(options.sftpThroughShell ? { sftpThroughShell: true } : {}),
    ...(options.noSftp ? { noSftp: true } : {}),
    port: host.port,
    listenAddress: host.address,
    hostKey,
    pidFile: join(host.root, 'sshd.pid'),
    authorizedKeysFile: authorizedKeys,
    extraLines: [
      'UseDNS no',
      'MaxStartups 200',
      `MaxSessions ${options.maxSessions ?? 20}`,
      ...(options.noTcpForwarding ? ['AllowTcpForwarding no'] : []),
      ...(options.sessionPath !== undefined ? [`SetEnv PATH=${options.sessionPath}`] : []),
      ...(options.sessionPathPrefix !== undefined && options.sessionPath === undefined ? [`SetEnv PATH=${options.sessionPathPrefix}:${STANDARD_PATH}`] : []),
    ],
  });
}

/**
 * Creates the namespaces, links, limits and sshd servers of `layout` (at most 8 clusters of at most 100
 * hosts). Cleans up everything it made if any step fails, and on process exit if `stop` is never called.
 */
export async function startNetnsGrid(layout: readonly NetnsClusterLayout[], options: NetnsGridOptions = {}): Promise<NetnsGrid> {
  const tools = options.tools ?? DEFAULT_TOOLS;
  checkNetnsPrerequisites(tools);
  if (layout.length === 0 || layout.length > MAX_CLUSTERS) throw new Error(`a netns grid has 1 to ${MAX_CLUSTERS} clusters, got ${layout.length}`);
  const names = layout.flatMap((c) => [c.name, ...c.hosts]);
  if (new Set(names).size !== names.length) throw new Error(`cluster and host names must be distinct: ${names.join(', ')}`);
  for (const c of layout) {
    if (c.hosts.length === 0 || c.hosts.length > MAX_HOSTS_PER_CLUSTER) throw new Error(`cluster ${c.name} must have 1 to ${MAX_HOSTS_PER_CLUSTER} hosts`);
  }
  removeLeftovers(tools);
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const slot = acquireSlot(tools);
  const prefix = `${FAMILY_PREFIX}${slotLabel(slot)}`;
  const dir = mkdtempSync(join(tmpdir(), gridDirPrefix(prefix)));
  const state: GridState = { prefix, slot, dir, tools, runtimes: new Map(), stopped: false };
  liveGrids.add(state);
  installExitHook();
  const ip = (...args: string[]): string => run(tools.ip, args);
  const inNs = (ns: string, cmd: string, ...args: string[]): string => run(tools.ip, ['netns', 'exec', ns, cmd, ...args]);
  let passwdCopy = ''; // none: the user's own login shell

  const launch = async (rt: HostRuntime): Promise<void> => {
    rt.stderr = '';
    // `ip netns exec` gives the process its own mount namespace: the host's empty home directory is bound
    // over the user's there, as on a separate machine (this also keeps this machine's ~/.bashrc out); so is
    // a copy of /etc/passwd that gives the user another login shell, when asked for.
    const script = 'mount --bind "$1" "$2" && { [ -z "$5" ] || mount --bind "$5" /etc/passwd; } && exec "$3" -D -e -f "$4"';
    const child = spawn(
      tools.ip,
      ['netns', 'exec', rt.spec.namespace, '/bin/sh', '-c', script, 'sh', rt.spec.home, homedir(), tools.sshd, rt.config, passwdCopy],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr!.on('data', (d: Buffer) => {
      rt.stderr = (rt.stderr + d.toString()).slice(-4000);
    });
    child.on('error', (err) => {
      rt.stderr += String(err);
    });
    rt.child = child;
    await waitForSshBanner(rt.spec.address, rt.spec.port, child, () => rt.stderr);
  };

  try {
    if (options.loginShell !== undefined) passwdCopy = passwdWithShell(dir, options.loginShell);
    const user = userInfo().username;
    const identityFile = join(dir, 'id_ed25519');
    run(tools.sshKeygen, ['-q', '-t', 'ed25519', '-N', '', '-C', 'gridsweep-netns-test', '-f', identityFile]);
    const authorizedKeys = join(dir, 'authorized_keys');
    writeFileSync(authorizedKeys, readFileSync(`${identityFile}.pub`), { mode: 0o600 });
    const knownHosts = join(dir, 'known_hosts');
    const sshConfig = join(dir, 'ssh_config');
    const clusters: NetnsCluster[] = [];
    const knownLines: string[] = [];
    const configBlocks: string[] = [];

    for (const [index, c] of layout.entries()) {
      const octet = slot * MAX_CLUSTERS + index;
      const net = `${SUBNET_BASE}.${octet}`;
      const originAddress = `${net}.1`;
      const linkDevice = `${prefix}c${index}`;
      const switchNamespace = `${prefix}-${index}-sw`;
      ip('netns', 'add', switchNamespace);
      ip('-n', switchNamespace, 'link', 'set', 'lo', 'up');
      ip('-n', switchNamespace, 'link', 'add', 'br0', 'type', 'bridge');
      ip('-n', switchNamespace, 'link', 'set', 'br0', 'up');
      ip('link', 'add', linkDevice, 'type', 'veth', 'peer', 'name', 'uplink', 'netns', switchNamespace);
      ip('-n', switchNamespace, 'link', 'set', 'uplink', 'master', 'br0');
      ip('-n', switchNamespace, 'link', 'set', 'uplink', 'up');
      ip('addr', 'add', `${originAddress}/24`, 'dev', linkDevice);
      ip('link', 'set', linkDevice, 'up');
      const storage = join(dir, 'storage', c.name);
      mkdirSync(storage, { recursive: true });
      if (c.storageBytes !== undefined) {
        run('/usr/bin/mount', ['-t', 'tmpfs', '-o', `size=${c.storageBytes}`, 'tmpfs', storage]);
      }
      const hosts: NetnsHost[] = [];
      for (const [j, name] of c.hosts.entries()) {
        const namespace = `${prefix}-${index}-h${j}`;
        const address = `${net}.${10 + j}`;
        ip('netns', 'add', namespace);
        ip('-n', namespace, 'link', 'set', 'lo', 'up');
        ip('-n', switchNamespace, 'link', 'add', `h${j}`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace);
        ip('-n', switchNamespace, 'link', 'set', `h${j}`, 'master', 'br0');
        ip('-n', switchNamespace, 'link', 'set', `h${j}`, 'up');
        ip('-n', namespace, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
        ip('-n', namespace, 'link', 'set', 'eth0', 'up');
        ip('-n', namespace, 'route', 'add', 'default', 'via', originAddress);
        const root = join(dir, 'hosts', name);
        mkdirSync(root, { recursive: true });
        const home = join(root, 'home');
        mkdirSync(home, { mode: 0o700 });
        const hostKey = join(root, 'ssh_host_ed25519_key');
        run(tools.sshKeygen, ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', hostKey]);
        const hostKeyPub = readFileSync(`${hostKey}.pub`, 'utf8').trim().split(/\s+/).slice(0, 2).join(' ');
        const spec: NetnsHost = { name, cluster: c.name, namespace, address, port: SSH_PORT, root, home, hostKeyPub };
        const config = join(root, 'sshd_config');
        writeFileSync(config, sshdConfig(spec, hostKey, authorizedKeys, options));
        knownLines.push(`${address} ${hostKeyPub}`);
        configBlocks.push(
          [
            `Host ${name}`,
            `  HostName ${address}`,
            `  Port ${SSH_PORT}`,
            `  User ${user}`,
            `  IdentityFile ${identityFile}`,
            '  IdentitiesOnly yes',
            `  UserKnownHostsFile ${knownHosts}`,
            '  GlobalKnownHostsFile /dev/null',
            '  StrictHostKeyChecking yes',
            '  BatchMode yes',
            '  ConnectTimeout 10',
            // The key exchange node-ssh (ssh2) uses: OpenSSH 9's default, sntrup761x25519, costs far more CPU
            // per connection (about 0.35 s on a slow core), which would dominate any per-connection figure.
            '  KexAlgorithms curve25519-sha256',
            '  LogLevel ERROR',
            '',
          ].join('\n'),
        );
        state.runtimes.set(name, { spec, config, stderr: '' });
        hosts.push(spec);
      }
      if (c.link) {
        inNs(switchNamespace, tools.tc, ...tbfArgs('uplink', c.link));
        run(tools.tc, tbfArgs(linkDevice, c.link));
      }
      clusters.push({ name: c.name, index, subnet: `${net}.0/24`, originAddress, linkDevice, switchNamespace, storage, hosts });
    }
    writeFileSync(knownHosts, `${knownLines.join('\n')}\n`);
    writeFileSync(sshConfig, configBlocks.join('\n'));
    await Promise.all([...state.runtimes.values()].map(launch));

    const runtime = (name: string): HostRuntime => {
      const rt = state.runtimes.get(name);
      if (!rt) throw new Error(`no netns host ${name}`);
      return rt;
    };
    const clusterOf = (name: string): NetnsCluster => {
      const c = clusters.find((x) => x.name === name);
      if (!c) throw new Error(`no netns cluster ${name}`);
      return c;
    };
    return {
      runPrefix: prefix,
      dir,
      user,
      identityFile,
      knownHosts,
      sshConfig,
      clusters,
      host: (name) => runtime(name).spec,
      cluster: clusterOf,
      cutLink(name) {
        ip('link', 'set', clusterOf(name).linkDevice, 'down');
      },
      restoreLink(name) {
        ip('link', 'set', clusterOf(name).linkDevice, 'up');
      },
      setLinkLimit(name, limit) {
        const c = clusterOf(name);
        if (limit) {
          run(tools.tc, tbfArgs(c.linkDevice, limit));
          inNs(c.switchNamespace, tools.tc, ...tbfArgs('uplink', limit));
        } else {
          tryRun(tools.tc, ['qdisc', 'del', 'dev', c.linkDevice, 'root']);
          tryRun(tools.ip, ['netns', 'exec', c.switchNamespace, tools.tc, 'qdisc', 'del', 'dev', 'uplink', 'root']);
        }
      },
      setLinkLoss(name, share) {
        const c = clusterOf(name);
        const rules = share === undefined ? [] : lossRules(c.originAddress, share);
        for (const h of c.hosts) {
          for (const chain of ['INPUT', 'OUTPUT']) inNs(h.namespace, tools.iptables, '-F', chain);
          for (const rule of rules) inNs(h.namespace, tools.iptables, '-A', ...rule);
        }
      },
      fenceFromOrigin(name, fenced = true) {
        const h = runtime(name).spec;
        inNs(h.namespace, tools.iptables, '-F', 'INPUT');
        if (fenced) inNs(h.namespace, tools.iptables, '-A', 'INPUT', '-p', 'tcp', '--dport', String(h.port), '-s', clusterOf(h.cluster).originAddress, '-j', 'REJECT', '--reject-with', 'tcp-reset');
      },
      killHost(name) {
        killNamespaceProcesses(runtime(name).spec.namespace, tools);
      },
      hangHost(name) {
        return signalNamespaceProcesses(runtime(name).spec.namespace, 'SIGSTOP', tools).length;
      },
      continueHost(name) {
        signalNamespaceProcesses(runtime(name).spec.namespace, 'SIGCONT', tools);
      },
      async restartHost(name) {
        const rt = runtime(name);
        const child = rt.child;
        if (child && child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
        await launch(rt);
      },
      realGridJson(originDir, extra = {}, slotsPerHost = 1) {
        return realGridJsonForStartedHosts({ originDir, knownHosts, user, identityFile, clusters, extra, slotsPerHost });
      },
      async stop() {
        const exits = [...state.runtimes.values()].flatMap((rt) => {
          const child = rt.child;
          if (!child || child.exitCode !== null || child.signalCode !== null) return [];
          return [new Promise((r) => child.once('exit', r))];
        });
        teardown(state);
        await Promise.all(exits);
      },
    };
  } catch (err) {
    teardown(state);
    throw err;
  }
}
