// Real grid files for tests that edit them during a run: the farm's file keeping only some hosts.
import type { SshdFarm } from '../../support/sshd.js';

interface GridJson {
  clusters: { name: string; hosts: { name: string }[] }[];
}

/** The farm's real grid file keeping only the named hosts (and the clusters that still have one). */
export function gridWith(farm: SshdFarm, originDir: string, hosts: readonly string[]): string {
  const g = JSON.parse(farm.realGridJson(originDir)) as GridJson;
  g.clusters = g.clusters.map((c) => ({ ...c, hosts: c.hosts.filter((h) => hosts.includes(h.name)) })).filter((c) => c.hosts.length > 0);
  return JSON.stringify(g, null, 2);
}
