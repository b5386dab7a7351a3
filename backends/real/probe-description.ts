// The grid description of a probed real grid: one ADD_CLUSTER per cluster (its link behaviour measured),
// one ADD_HOST per host (its availability measured), all at time 0, with the same names as the real grid
// file. Written with writeGrid into a staging folder beside the destination, each file headed by a comment
// naming the sample period, then moved into place: a failure leaves nothing half-written.
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

export function probedGridDescription(result: ProbeResult): GridDescription {
  const events: GridEvent[] = [];
  const linkBehaviors = new Map<string, LinkBehavior>();
  const hostBehaviors = new Map<string, HostBehavior>();
  for (const c of result.clusters) {
    const link = linkBehaviorName(c.id);
    linkBehaviors.set(link, { kind: 'link', name: link, samples: c.link });
    events.push({ kind: 'ADD_CLUSTER', timeS: 0, cluster: c.id, behavior: link, offset: 0 });
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
    for (const name of names) writeFileSync(join(stage, name), comment + readFileSync(join(stage, name), 'utf8'));
    mkdirSync(target, { recursive: true });
    // behaviour files first, the grid file (which names them) last
    for (const name of [...names.filter((n) => n !== PROBED_GRID_FILE), PROBED_GRID_FILE]) renameSync(join(stage, name), join(target, name));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  return join(target, PROBED_GRID_FILE);
}
