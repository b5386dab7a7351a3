// Real grid files: the JSON that says where a real run happens. It names the origin directory and, per
// cluster, its storage directory and its hosts: local process slots on this machine, or SSH hosts. Cluster
// and host names mean the same as in grid descriptions (they appear in run records and Gantt charts).
//
// {
//   "realgrid": 1,
//   "origin": ".",                              optional; relative to this file; default: the sweep's directory
//   "knownHosts": "~/.ssh/known_hosts",         optional; default for every SSH host
//   "keepalive": { "intervalS": 10, "countMax": 3 },   optional
//   "deadlines": { "commandS": 60, "probeS": 15, "loginS": 30, "assumedBandwidthBps": 100000 },   optional
//   "transport": "exec",                        optional; or "agent": one channel per SSH host for every command
//   "clusters": [
//     { "name": "here", "storage": "scratch/here", "hosts": { "type": "local", "slots": 2, "arch": 0 } },
//     { "name": "c1", "storage": "/scratch/gridsweep", "hosts": [
//         { "name": "c1.a", "address": "10.0.0.5", "port": 22, "user": "me",
//           "identityFile": "~/.ssh/id_ed25519", "arch": 0, "slots": 1 },
//         { "name": "c1.b", "address": "10.0.0.6", "user": "me", "agent": true, "arch": 1, "slots": 16,
//           "jump": { "address": "login.example.org" } } ] },   through its login node (OpenSSH's ProxyJump)
//     { "name": "hpc", "storage": "/scratch/me/gridsweep", "hosts": { "type": "slurm", "partition": "short",
//         "pilots": 2, "pilotCores": 8, "pilotWalltimeS": 3600, "setup": ["module load perl"] } } ]
// }
// A Slurm cluster's hosts are the cores of the pilot jobs gridsweep submits with sbatch on this machine
// (backends/slurm); its storage must be shared between this machine and the cluster's nodes.
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { ClusterId, HostId, SourcePos } from '../model/grid.js';
import { DEFAULT_DEADLINES, type Deadlines } from './deadlines.js';
import { InputError, unreadableFile, type Diagnostic } from '../util/diagnostics.js';
import { parseJsonSource } from '../sweep/json-source.js';
import { checkAgainstSchema, compileSchema } from '../sweep/schema-check.js';
import { SLURM_HOSTS_SCHEMA, slurmSpecOf, type RawSlurmHosts, type SlurmSpec } from './slurm-spec.js';
import { SSH_CONNECTION_PROPERTIES, type RawSshConnection } from './ssh-connection-schema.js';
import { SshConfig } from './ssh-config.js';
import { currentSshEnvironment, sshLoginOf, type SshEnvironment, type SshLogin, type SshLoginContext } from './ssh-login.js';

const NAME = '^[A-Za-z0-9_][A-Za-z0-9_.-]*$';

/**
 * With "transport": "exec" each running task holds one SSH channel of the host's connection, beside up to
 * three for short commands and transfers and one for the load probe: sshd allows 10 per connection
 * (MaxSessions). The agent runs every task on its one channel.
 */
export const EXEC_MAX_SLOTS = 6;

export const REAL_GRID_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['realgrid', 'clusters'],
  properties: {
    realgrid: { const: 1, description: 'the format version, 1' },
    origin: { type: 'string', minLength: 1, description: 'the origin directory, relative to this file' },
    knownHosts: { type: 'string', minLength: 1, description: 'a known_hosts file path' },
    sshConfig: {
      type: ['string', 'boolean'],
      minLength: 1,
      description: 'an OpenSSH client configuration to read the SSH hosts\' settings from, or false to read none (default: ~/.ssh/config, then /etc/ssh/ssh_config)',
    },
    keepalive: {
      type: 'object',
      additionalProperties: false,
      properties: {
        intervalS: { type: 'number', exclusiveMinimum: 0, description: 'seconds between keep-alives' },
        countMax: { type: 'integer', minimum: 1, description: 'unanswered keep-alives before the host counts as failed' },
      },
      description: 'an object {"intervalS": 10, "countMax": 3}',
    },
    transport: { enum: ['exec', 'agent'], description: '"exec" (an SSH channel per command) or "agent" (one channel per host, every command through gridsweep\'s agent)' },
    deadlines: {
      type: 'object',
      additionalProperties: false,
      properties: {
        commandS: { type: 'number', exclusiveMinimum: 0, description: 'seconds a short command on a host may take' },
        probeS: { type: 'number', exclusiveMinimum: 0, description: "seconds the load probe (the hosts' heartbeat) may take" },
        loginS: { type: 'number', exclusiveMinimum: 0, description: 'seconds a connection and its login shell may take to answer' },
        assumedBandwidthBps: { type: 'number', exclusiveMinimum: 0, description: "a link's bandwidth in bytes/s until it is measured" },
      },
      description: 'an object {"commandS": 60, "probeS": 15, "loginS": 30, "assumedBandwidthBps": 100000}',
    },
    clusters: {
      type: 'array',
      minItems: 1,
      description: 'a non-empty list of clusters',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'storage', 'hosts'],
        description: 'a cluster {"name", "storage", "hosts"}',
        properties: {
          name: { type: 'string', pattern: NAME, description: 'a cluster name (letters, digits, _ . -)' },
          storage: { type: 'string', minLength: 1, description: "the cluster's shared storage directory" },
          hosts: {
            description: '{"type": "local", "slots": N}, {"type": "slurm", ...} or a list of SSH hosts',
            oneOf: [
              SLURM_HOSTS_SCHEMA,
              {
                type: 'object',
                additionalProperties: false,
                required: ['type', 'slots'],
                description: 'local slots {"type": "local", "slots": N, "arch": 0}',
                properties: {
                  type: { const: 'local', description: '"local"' },
                  slots: { type: 'integer', minimum: 1, maximum: 1024, description: 'a whole number of slots, 1 or more' },
                  arch: { type: 'integer', minimum: 0, description: 'an architecture index, 0 or more' },
                },
              },
              {
                type: 'array',
                minItems: 1,
                description: 'a non-empty list of SSH hosts',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['name', 'address', 'arch'],
                  description: 'an SSH host {"name", "address", "port", "user", "identityFile" or "agent": true, "arch"}',
                  properties: {
                    type: { const: 'ssh', description: '"ssh"' },
                    name: { type: 'string', pattern: NAME, description: 'a host name (letters, digits, _ . -)' },
                    ...SSH_CONNECTION_PROPERTIES,
                    arch: { type: 'integer', minimum: 0, description: 'an architecture index, 0 or more' },
                    slots: { type: 'integer', minimum: 1, maximum: 1024, description: `concurrent tasks on this host, 1 to 1024 (${EXEC_MAX_SLOTS} at most with "transport": "exec")` },
                  },
                },
              },
            ],
          },
        },
      },
    },
  },
} as const;

const validateRealGrid = compileSchema(REAL_GRID_SCHEMA);

export interface SshEndpointSpec extends SshLogin {
  readonly kind: 'ssh';
  readonly name: string;
  readonly keepaliveIntervalMs: number;
  readonly keepaliveCountMax: number;
  readonly deadlines: Deadlines;
  /** "exec": an SSH channel per command; "agent": every command through the agent on one channel. */
  readonly transport: 'exec' | 'agent';
  /** The scheduler's hosts served by this endpoint (one per slot). */
  readonly hostIds: readonly HostId[];
  /** The grid file gave this host no "slots" (it has one). */
  readonly slotsLeftOut?: true;
  readonly arch: number;
}

export interface LocalEndpointSpec {
  readonly kind: 'local';
  readonly name: string;
  readonly hostIds: readonly HostId[];
  readonly arch: number;
}

/** A running Slurm pilot (made at run time, never read from a file): one host per core, until `leavesAtS`. */
export interface PilotEndpointSpec {
  readonly kind: 'pilot';
  readonly name: string;
  readonly jobId: string;
  readonly hostIds: readonly HostId[];
  readonly arch: number;
  /** When the scheduler must expect its hosts to leave (shortly before the walltime's end), run clock seconds. */
  readonly leavesAtS: number;
}

/** A machine a real grid file names. */
export type GridEndpointSpec = SshEndpointSpec | LocalEndpointSpec;

export type EndpointSpec = GridEndpointSpec | PilotEndpointSpec;

export interface RealClusterSpec {
  readonly id: ClusterId;
  readonly kind: 'local' | 'ssh' | 'slurm';
  /**
   * Absolute storage path (on this machine for local clusters, on the hosts for SSH clusters, shared by
   * this machine and the nodes for Slurm clusters).
   */
  readonly storageDir: string;
  /** For a Slurm cluster, one local endpoint with no hosts: its storage as this machine sees it. */
  readonly endpoints: readonly GridEndpointSpec[];
  /** How pilots are submitted to a Slurm cluster. */
  readonly slurm?: SlurmSpec;
  readonly pos: SourcePos;
}

export interface RealGrid {
  readonly file: string;
  /** Absolute origin directory, or undefined when the file does not name one. */
  readonly originDir?: string;
  readonly clusters: readonly RealClusterSpec[];
  readonly deadlines: Deadlines;
}

/**
 * The ssh client configuration the file says to read: "sshConfig" (a path: that file alone, as `ssh -F`
 * reads it), none with false, else ~/.ssh/config and the system-wide file, those that exist.
 */
function readSshConfig(setting: string | boolean | undefined, fromFile: (p: string) => string, env: SshEnvironment): SshConfig | undefined {
  if (setting === false) return undefined;
  const userDir = join(env.home, '.ssh');
  if (typeof setting === 'string') return SshConfig.read([{ path: fromFile(setting), includeDir: userDir }], env);
  const files = existsSync(join(userDir, 'config')) ? [{ path: join(userDir, 'config'), includeDir: userDir }] : [];
  // ssh skips a system-wide file it cannot read; the user's own is read or is an error.
  if (env.systemSshConfig !== undefined && readableFile(env.systemSshConfig)) files.push({ path: env.systemSshConfig, includeDir: dirname(env.systemSshConfig) });
  return files.length > 0 ? SshConfig.read(files, env) : undefined;
}

/** Whether `path` is a file this process can read. */
function readableFile(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

interface RawHost extends RawSshConnection {
  name: string;
  arch: number;
  slots?: number;
}
interface RawCluster {
  name: string;
  storage: string;
  hosts: { type: 'local'; slots: number; arch?: number } | RawSlurmHosts | RawHost[];
}
interface RawGrid {
  origin?: string;
  knownHosts?: string;
  sshConfig?: string | boolean;
  keepalive?: { intervalS?: number; countMax?: number };
  deadlines?: Partial<Deadlines>;
  transport?: 'exec' | 'agent';
  clusters: RawCluster[];
}

/**
 * Reads a real grid file's text (`file` names it in errors and anchors its relative paths). `env` is the
 * user's, for ~ and the SSH defaults (a test gives its own).
 */
export function parseRealGrid(text: string, file: string, env: SshEnvironment = currentSshEnvironment()): RealGrid {
  const source = parseJsonSource(text, file);
  checkAgainstSchema(source, validateRealGrid, 'real grid file');
  const raw = source.value as RawGrid;
  const base = dirname(resolve(file));
  const problems: Diagnostic[] = [];
  const add = (pointer: string, message: string, hint: string): void => {
    problems.push({ severity: 'error', pos: source.positionOf(pointer), message, hint });
  };
  const fromFile = (p: string): string => resolve(base, p === '~' ? env.home : p.startsWith('~/') ? join(env.home, p.slice(2)) : p);
  const keepaliveIntervalMs = Math.round((raw.keepalive?.intervalS ?? 10) * 1000);
  const keepaliveCountMax = raw.keepalive?.countMax ?? 3;
  const deadlines: Deadlines = { ...DEFAULT_DEADLINES, ...raw.deadlines };

  const clusterNames = new Set<string>();
  const hostNames = new Map<string, string>();
  const claimHost = (id: string, pointer: string): void => {
    if (hostNames.has(id) || clusterNames.has(id)) add(pointer, `name "${id}" is used twice`, 'give every cluster and host its own name');
    hostNames.set(id, pointer);
  };

  const requireAbsoluteStorage = (c: RawCluster, cptr: string, what: string): void => {
    if (!isAbsolute(c.storage)) {
      add(`${cptr}/storage`, `storage of ${what} must be an absolute path on its hosts, got "${c.storage}"`, 'write the full path, e.g. "/scratch/gridsweep"');
    }
  };
  // Read at the first SSH machine: a grid of local slots does not depend on it.
  let sshConfig: SshConfig | undefined | null = null;
  const loginContext: SshLoginContext = {
    get config() {
      if (sshConfig === null) sshConfig = readSshConfig(raw.sshConfig, fromFile, env);
      return sshConfig;
    },
    env,
    fromFile,
    gridKnownHosts: raw.knownHosts ? fromFile(raw.knownHosts) : undefined,
    problem: add,
  };
  const sshSpec = (name: string, h: RawSshConnection, pointer: string, hostIds: HostId[], arch: number): SshEndpointSpec => ({
    kind: 'ssh',
    name,
    ...sshLoginOf(loginContext, name, h, pointer),
    keepaliveIntervalMs,
    keepaliveCountMax,
    deadlines,
    transport: raw.transport ?? 'agent',
    hostIds,
    arch,
  });

  const clusters: RealClusterSpec[] = raw.clusters.map((c, ci) => {
    const cptr = `/clusters/${ci}`;
    if (clusterNames.has(c.name) || hostNames.has(c.name)) add(`${cptr}/name`, `name "${c.name}" is used twice`, 'give every cluster and host its own name');
    clusterNames.add(c.name);
    const pos = source.positionOf(cptr);
    if (!Array.isArray(c.hosts) && c.hosts.type === 'slurm') {
      const slurm = slurmSpecOf(c.hosts);
      if (Array.isArray(slurm)) {
        const [field, message, hint] = slurm;
        add(`${cptr}/hosts/${field}`, `cluster "${c.name}": ${message}`, hint);
        return { id: c.name, kind: 'slurm', storageDir: '', endpoints: [], pos };
      }
      // The storage as this machine sees it (or as the login node does, reached over SSH); the pilots'
      // cores join as hosts while they run.
      const login = c.hosts.login;
      if (login === undefined) {
        const storage: LocalEndpointSpec = { kind: 'local', name: `${c.name}.storage`, hostIds: [], arch: slurm.arch };
        return { id: c.name, kind: 'slurm', storageDir: fromFile(c.storage), endpoints: [storage], slurm, pos };
      }
      requireAbsoluteStorage(c, cptr, 'a Slurm cluster reached through a login node');
      const name = login.name ?? `${c.name}.login`;
      claimHost(name, `${cptr}/hosts/login`);
      return { id: c.name, kind: 'slurm', storageDir: c.storage, endpoints: [sshSpec(name, login, `${cptr}/hosts/login`, [], slurm.arch)], slurm, pos };
    }
    if (!Array.isArray(c.hosts)) {
      const slots = c.hosts.slots;
      const hostIds = Array.from({ length: slots }, (_, k) => `${c.name}.${k + 1}`);
      hostIds.forEach((h) => claimHost(h, `${cptr}/hosts`));
      return {
        id: c.name,
        kind: 'local',
        storageDir: fromFile(c.storage),
        endpoints: [{ kind: 'local', name: c.name, hostIds, arch: c.hosts.arch ?? 0 }],
        pos,
      };
    }
    requireAbsoluteStorage(c, cptr, 'an SSH cluster');
    const endpoints: SshEndpointSpec[] = c.hosts.map((h, hi) => {
      const hptr = `${cptr}/hosts/${hi}`;
      const slots = h.slots ?? 1;
      if (slots > EXEC_MAX_SLOTS && raw.transport === 'exec') {
        add(
          `${hptr}/slots`,
          `host "${h.name}" has ${slots} slots, but with "transport": "exec" each running task holds one of the SSH channels sshd allows a connection (10 by default, MaxSessions), beside the transfers' and the load probe's`,
          `leave out "transport" (the agent runs every task on one channel), or give the host ${EXEC_MAX_SLOTS} slots at most`,
        );
      }
      const hostIds = slots === 1 ? [h.name] : Array.from({ length: slots }, (_, k) => `${h.name}.${k + 1}`);
      hostIds.forEach((id) => claimHost(id, `${hptr}/name`));
      return { ...sshSpec(h.name, h, hptr, hostIds, h.arch), ...(h.slots === undefined ? { slotsLeftOut: true as const } : {}) };
    });
    return { id: c.name, kind: 'ssh', storageDir: c.storage, endpoints, pos };
  });
  if (problems.length > 0) throw new InputError(problems);
  return { file, ...(raw.origin !== undefined ? { originDir: fromFile(raw.origin) } : {}), clusters, deadlines };
}

export function loadRealGrid(path: string): RealGrid {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadableFile(path, 'the real grid file', err, { hint: 'check the path' });
  }
  return parseRealGrid(text, path);
}

/** Number of architectures the grid's hosts use (highest index + 1). */
export function realGridArchitectures(grid: RealGrid): number {
  let max = 0;
  for (const c of grid.clusters) for (const e of c.endpoints) max = Math.max(max, e.arch);
  for (const c of grid.clusters) if (c.slurm) max = Math.max(max, c.slurm.arch);
  return max + 1;
}
