// The grid description of a probed real grid: one ADD_CLUSTER per cluster (its link behaviour measured),
// one ADD_HOST per host (its availability measured), all at time 0, with the same names as the real grid
// file. A batch cluster (Slurm) is one ADD_BATCH_CLUSTER instead: the nodes and CPUs its batch system
// reported, the policy closest to its scheduler, first-fit, its measured link, and cores always available
// (a pilot's cores are its own); the grid file's header says the partition, its time limit and what was
// left out. Written with writeGrid into a staging folder beside the destination, each file headed by a
// comment naming the sample period, then moved into place: a failure leaves nothing half-written.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { GridDescription, GridEvent, HostBehavior, LinkBehavior } from '../../src/model/grid.js';
import { writeGrid } from '../../src/formats/index.js';
import type { ProbeResult } from './probe-grid.js';

export const PROBED_GRID_FILE = 'real.grid';

export function linkBehaviorName(cluster: string): string {
  return `link_${cluster}`;
}

export function hostBehaviorName(host: string): string {
  return `host_${host}`;
}

/** The behaviour of a batch cluster's cores (every core of a running pilot is the pilot's own). */
export function batchCoresBehaviorName(cluster: string): string {
  return `cores_${cluster}`;
}

/** Core allocation of a probed batch cluster: Slurm's cons_tres picks a job's cores node by node. */
const PROBED_ALLOCATOR = 'first-fit';

function timeText(s: number | undefined): string {
  if (s === undefined) return 'none';
  const d = Math.floor(s / 86400);
  const hms = [Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60), s % 60].map((x) => String(x).padStart(2, '0')).join(':');
  return `${d > 0 ? `${d}-` : ''}${hms} (${s} s)`;
}

/** Comment lines about the batch clusters of a probe: what each is, and what a simulation should ask of it. */
export function batchClusterNotes(result: ProbeResult): string[] {
  return result.clusters.flatMap((c) => {
    const b = c.batch;
    if (!b) return [];
    return [
      `# ${c.id}: partition ${b.partition}, ${b.nodes} node(s) of ${b.coresPerNode} CPU(s), policy ${b.policy} from ${b.policyFrom}`,
      `# ${c.id}: time limit ${timeText(b.timeLimitS)}${b.timeLimitS !== undefined ? `: simulate with --pilot-walltime ${b.timeLimitS} or less` : ''}`,
      ...b.notes.map((n) => `# ${c.id}: ${n}`),
    ];
  });
}

export function probedGridDescription(result: ProbeResult): GridDescription {
  const events: GridEvent[] = [];
  const linkBehaviors = new Map<string, LinkBehavior>();
  const hostBehaviors = new Map<string, HostBehavior>();
  for (const c of result.clusters) {
    const link = linkBehaviorName(c.id);
    linkBehaviors.set(link, { kind: 'link', name: link, samples: c.link });
    if (c.batch) {
      const cores = batchCoresBehaviorName(c.id);
      hostBehaviors.set(cores, { kind: 'host', name: cores, availabilityPct: c.link.map(() => 100) });
      const b = c.batch;
      events.push({ kind: 'ADD_BATCH_CLUSTER', timeS: 0, cluster: c.id, behavior: link, offset: 0, nodes: b.nodes, coresPerNode: b.coresPerNode, policy: b.policy, allocator: PROBED_ALLOCATOR, hostBehavior: cores, arch: b.arch });
    } else events.push({ kind: 'ADD_CLUSTER', timeS: 0, cluster: c.id, behavior: link, offset: 0 });
    for (const h of c.hosts) {
      const name = hostBehaviorName(h.id);
      hostBehaviors.set(name, { kind: 'host', name, availabilityPct: h.availabilityPct });
      events.push({ kind: 'ADD_HOST', timeS: 0, cluster: c.id, host: h.id, behavior: name, offset: 0, arch: h.arch });
    }
  }
  return { version: '1', events, linkBehaviors, hostBehaviors };
}

/** Writes the description into `dir` (created if needed); returns the grid file's path. */
export function writeProbedGrid(dir: string, result: ProbeResult, source: string): string {
  const target = resolve(dir);
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const stage = mkdtempSync(join(parent, `.${basename(target)}.probe-`));
  try {
    writeGrid(stage, PROBED_GRID_FILE, probedGridDescription(result));
    const when = new Date().toISOString();
    const comment = [
      `# measured by gridsweep probe from ${source} at ${when}`,
      `# one sample every ${result.samplePeriodS} s: simulate with --sample-period ${result.samplePeriodS}`,
      '',
    ].join('\n');
    const names = readdirSync(stage);
    const batch = batchClusterNotes(result).map((l) => `${l}\n`).join('');
    for (const name of names) writeFileSync(join(stage, name), comment + (name === PROBED_GRID_FILE ? batch : '') + readFileSync(join(stage, name), 'utf8'));
    mkdirSync(target, { recursive: true });
    // behaviour files first, the grid file (which names them) last
    for (const name of [...names.filter((n) => n !== PROBED_GRID_FILE), PROBED_GRID_FILE]) renameSync(join(stage, name), join(target, name));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  return join(target, PROBED_GRID_FILE);
}
