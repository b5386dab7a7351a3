// Seeded random applications, grids and behaviours for round-trip and fuzz tests.
import type { Application, FileSpec, WorkSpec } from '../../src/model/application.js';
import type { GridDescription, GridEvent, HostBehavior, LinkBehavior } from '../../src/model/grid.js';
import { MAX_EXACT } from '../../src/util/exact-limit.js';
import type { Rng } from '../../src/util/rng.js';

const NAME_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-+#/é';
const TRICKY_NAMES = ['File', 'Work', 'ADD_HOST', 'GridDescription', '12', '1e5', '-3', '#x', 'a#b'];

export function randomName(rng: Rng): string {
  if (rng.next() < 0.1) return rng.pick(TRICKY_NAMES);
  const n = 1 + rng.int(12);
  let s = '';
  for (let i = 0; i < n; i++) s += NAME_CHARS[rng.int(NAME_CHARS.length)];
  return s;
}

/** A non-negative number: often an integer, sometimes a float or a very large value. */
export function randomAmount(rng: Rng, max: number): number {
  const r = rng.next();
  if (r < 0.1) return 0;
  if (r < 0.6) return rng.int(max);
  if (r < 0.95) return rng.uniform(0, max);
  return rng.uniform(0, MAX_EXACT); // up to the largest value the parsers accept
}

export function randomApplication(rng: Rng): Application {
  const nFiles = rng.int(30);
  const files: FileSpec[] = [];
  for (let id = 0; id < nFiles; id++) {
    files.push({ id, name: randomName(rng), sizeBytes: randomAmount(rng, 1e9), estSizeBytes: randomAmount(rng, 1e9) });
  }
  const archs = 1 + rng.int(4);
  const works: WorkSpec[] = [];
  const nWorks = nFiles === 0 ? 0 : rng.int(20);
  for (let id = 0; id < nWorks; id++) {
    const pickFiles = (k: number) => Array.from({ length: k }, () => rng.int(nFiles));
    works.push({
      id,
      inputs: pickFiles(rng.int(5)),
      outputs: pickFiles(rng.int(3)),
      runTimeS: Array.from({ length: archs }, () => randomAmount(rng, 5000)),
      estRunTimeS: Array.from({ length: archs }, () => randomAmount(rng, 5000)),
    });
  }
  return { version: rng.next() < 0.5 ? '1' : randomName(rng), files, works };
}

export function randomLinkBehavior(rng: Rng, name: string): LinkBehavior {
  const n = 1 + rng.int(10);
  const samples = Array.from({ length: n }, () => ({ latencyMs: randomAmount(rng, 500), bandwidthBps: 1 + randomAmount(rng, 1e7) }));
  return { kind: 'link', name, samples };
}

export function randomHostBehavior(rng: Rng, name: string): HostBehavior {
  const n = 1 + rng.int(10);
  return { kind: 'host', name, availabilityPct: Array.from({ length: n }, () => (rng.next() < 0.5 ? rng.int(101) : rng.uniform(0, 100))) };
}

/** A valid grid: names are only used while present, times never decrease, behaviours are link xor host. */
export function randomGrid(rng: Rng): GridDescription {
  const links = Array.from({ length: 1 + rng.int(3) }, (_, i) => `link${i}_${randomName(rng).replace(/\//g, '')}`);
  const cpus = Array.from({ length: 1 + rng.int(3) }, (_, i) => `cpu${i}_${randomName(rng).replace(/\//g, '')}`);
  const events: GridEvent[] = [];
  const clusters = new Map<string, boolean>();
  const hosts = new Map<string, { cluster: string; present: boolean }>();
  let t = 0;
  for (let i = 0; i < 1 + rng.int(40); i++) {
    if (rng.next() < 0.3) t += rng.next() < 0.8 ? rng.int(100) : rng.uniform(0, 10);
    const present = [...clusters].filter(([, p]) => p).map(([c]) => c);
    const presentHosts = [...hosts].filter(([, h]) => h.present).map(([h]) => h);
    const r = rng.next();
    const offset = rng.int(20);
    if (present.length === 0 || r < 0.2) {
      const cluster = `c${clusters.size}_${randomName(rng)}`;
      clusters.set(cluster, true);
      events.push({ kind: 'ADD_CLUSTER', timeS: t, cluster, behavior: rng.pick(links), offset });
    } else if (r < 0.55) {
      const host = `h${hosts.size}_${randomName(rng)}`;
      const cluster = rng.pick(present);
      hosts.set(host, { cluster, present: true });
      events.push({ kind: 'ADD_HOST', timeS: t, cluster, host, behavior: rng.pick(cpus), offset, arch: rng.int(4) });
    } else if (r < 0.65) {
      const cluster = rng.pick(present);
      clusters.set(cluster, false);
      for (const h of hosts.values()) if (h.cluster === cluster) h.present = false;
      events.push({ kind: 'REMOVE_CLUSTER', timeS: t, cluster });
    } else if (r < 0.75 && presentHosts.length > 0) {
      const host = rng.pick(presentHosts);
      hosts.get(host)!.present = false;
      events.push({ kind: 'REMOVE_HOST', timeS: t, host });
    } else if (r < 0.88 && presentHosts.length > 0) {
      events.push({ kind: 'CHANGE_HOST_BEHAVIOR', timeS: t, host: rng.pick(presentHosts), behavior: rng.pick(cpus), offset });
    } else {
      events.push({ kind: 'CHANGE_CLUSTER_BEHAVIOR', timeS: t, cluster: rng.pick(present), behavior: rng.pick(links), offset });
    }
  }
  const used = new Set(events.flatMap((e) => ('behavior' in e ? [e.behavior] : [])));
  const linkBehaviors = new Map(links.filter((n) => used.has(n)).map((n) => [n, randomLinkBehavior(rng, n)] as const));
  const hostBehaviors = new Map(cpus.filter((n) => used.has(n)).map((n) => [n, randomHostBehavior(rng, n)] as const));
  return { version: '1', events, linkBehaviors, hostBehaviors };
}

/** Events without their source positions, for comparisons. */
export function withoutPos(events: readonly GridEvent[]): object[] {
  return events.map(({ pos: _pos, ...rest }) => rest);
}
