// A Slurm cluster in a real grid file: how gridsweep asks Slurm for cores. The submission strategy and its
// parameters have the names the simulated batch clusters use (src/batch/submission.ts), so that a
// strategy compared in simulation runs as is for real: "pilots", or "per-work" (single-core jobs that
// each compute one Work, for sites that do not allow pilots to take Work after Work).
//
//   "hosts": { "type": "slurm", "partition": "short", "account": "proj42", "qos": "normal",
//              "submission": "pilots", "pilots": 2, "pilotCores": 4, "memoryMB": 4000,
//              "pilotWalltimeS": 3600, "sbatchArgs": ["--constraint=avx2"],
//              "setup": ["module load perl"], "env": {"SLURM_CONF": "/etc/slurm/b.conf"}, "arch": 0,
//              "login": { "address": "login.hpc.example.org", "user": "me", "identityFile": "~/.ssh/id_ed25519" } }
// Without "login", the Slurm commands run on this machine (a login node of the cluster); with it, on the
// login node over SSH (host keys checked as for SSH hosts), and the storage is reached through it.
import { DEFAULT_SUBMISSION } from '../batch/submission.js';
import { SSH_CONNECTION_PROPERTIES, type RawSshConnection } from './ssh-connection-schema.js';

export interface SlurmSpec {
  /** "pilots": jobs whose cores are hosts until their walltime; "per-work": single-core jobs that each compute one Work. */
  readonly submission: 'pilots' | 'per-work';
  /** Jobs queued or running at once. */
  readonly pilots: number;
  /** Cores each pilot asks for (one host per core); 1 for per-Work jobs. */
  readonly pilotCores: number;
  /** Walltime each pilot asks for, seconds (Slurm counts whole minutes: it is rounded up). */
  readonly pilotWalltimeS: number;
  readonly memoryMB?: number;
  readonly partition?: string;
  readonly account?: string;
  readonly qos?: string;
  /** More sbatch arguments, passed as they are. */
  readonly sbatchArgs: readonly string[];
  /** Shell lines run in each pilot before the agent starts (`module load …`). */
  readonly setup: readonly string[];
  /** Environment variables for every Slurm command (e.g. SLURM_CONF). */
  readonly env: Readonly<Record<string, string>>;
  readonly arch: number;
}

export interface RawSlurmHosts {
  type: 'slurm';
  submission?: 'pilots' | 'per-work';
  pilots?: number;
  pilotCores?: number;
  pilotWalltimeS?: number;
  memoryMB?: number;
  partition?: string;
  account?: string;
  qos?: string;
  sbatchArgs?: string[];
  setup?: string[];
  env?: Record<string, string>;
  arch?: number;
  login?: RawSshConnection & { name?: string };
}

const SLURM_NAME = { type: 'string', pattern: '^[A-Za-z0-9_.+-]+$' } as const;

export const SLURM_HOSTS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  description: 'Slurm pilots {"type": "slurm", "pilots": 2, "pilotCores": 4, "pilotWalltimeS": 3600, ...}',
  properties: {
    type: { const: 'slurm', description: '"slurm"' },
    submission: { enum: ['pilots', 'per-work'], description: '"pilots" or "per-work"' },
    pilots: { type: 'integer', minimum: 1, maximum: 1000, description: 'jobs queued or running at once, 1 or more' },
    pilotCores: { type: 'integer', minimum: 1, maximum: 4096, description: 'cores each pilot asks for, 1 or more' },
    pilotWalltimeS: { type: 'number', minimum: 60, description: 'seconds each pilot asks for, 60 or more (Slurm counts whole minutes)' },
    memoryMB: { type: 'integer', minimum: 1, description: 'memory each pilot asks for, in MB' },
    partition: { ...SLURM_NAME, description: 'a Slurm partition name' },
    account: { ...SLURM_NAME, description: 'a Slurm account name' },
    qos: { ...SLURM_NAME, description: 'a Slurm QOS name' },
    sbatchArgs: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'a list of extra sbatch arguments, e.g. ["--constraint=avx2"]' },
    setup: { type: 'array', items: { type: 'string' }, description: 'a list of shell lines to run before the agent, e.g. ["module load perl"]' },
    env: {
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      additionalProperties: { type: 'string' },
      description: 'an object of environment variables for the Slurm commands, e.g. {"SLURM_CONF": "/etc/slurm/other.conf"}',
    },
    arch: { type: 'integer', minimum: 0, description: 'an architecture index, 0 or more' },
    login: {
      type: 'object',
      additionalProperties: false,
      required: ['address'],
      description: 'the login node {"address", "port", "user", "identityFile" or "agent": true, "knownHosts", "name"}',
      properties: { name: { type: 'string', pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]*$', description: 'a machine name (letters, digits, _ . -)' }, ...SSH_CONNECTION_PROPERTIES },
    },
  },
} as const;

/** The settings, or a problem: [the setting at fault, what is wrong, how to fix it]. */
export function slurmSpecOf(raw: RawSlurmHosts): SlurmSpec | [keyof RawSlurmHosts, string, string] {
  const submission = raw.submission ?? 'pilots';
  if (submission === 'per-work' && raw.pilotCores !== undefined && raw.pilotCores !== 1) {
    return ['pilotCores', `per-Work jobs take one core each, got "pilotCores": ${raw.pilotCores}`, 'leave "pilotCores" out, or use "submission": "pilots"'];
  }
  return {
    submission,
    pilots: raw.pilots ?? DEFAULT_SUBMISSION.pilots,
    pilotCores: raw.pilotCores ?? 1,
    pilotWalltimeS: raw.pilotWalltimeS ?? DEFAULT_SUBMISSION.pilotWalltimeS,
    ...(raw.memoryMB !== undefined ? { memoryMB: raw.memoryMB } : {}),
    ...(raw.partition !== undefined ? { partition: raw.partition } : {}),
    ...(raw.account !== undefined ? { account: raw.account } : {}),
    ...(raw.qos !== undefined ? { qos: raw.qos } : {}),
    sbatchArgs: raw.sbatchArgs ?? [],
    setup: raw.setup ?? [],
    env: raw.env ?? {},
    arch: raw.arch ?? 0,
  };
}
