// The obviously-correct reference for every heuristic: after each assignment, recompute Compl for every
// remaining Work on every candidate host (chart.takesWork: every host not closed, or under 'with-room' every
// host that still wants work)
// with chart.compl, score, take the best. Slow, simple,
// and written independently of src/scheduler/heuristics/mct-engine.ts.
import type { WorkSpec } from '../../../src/model/application.js';
import type { GanttChart } from '../../../src/scheduler/gantt.js';
import { firstJump } from '../../../src/scheduler/heuristics/first-jump.js';
import type { HostCandidates } from '../../../src/scheduler/strategies/host-candidates.js';
import type { Rng } from '../../../src/util/rng.js';

export interface Placement {
  readonly workId: number;
  readonly host: number;
}

interface Row {
  host: number;
  complS: number;
  endS: number;
}

type Scorer = (rows: Row[], clusterBests: Row[]) => [number, number];

const scorers: Record<string, Scorer> = {
  minmin: (rows) => [rows[0]!.complS, 0],
  maxmin: (rows) => [-rows[0]!.complS, 0],
  sufferage: (rows) => [rows.length < 2 ? 0 : -(rows[1]!.complS - rows[0]!.complS), 0],
  xsufferage: (_rows, bests) => [bests.length < 2 ? 0 : -(bests[1]!.complS - bests[0]!.complS), 0],
  'extended-sufferage': (_rows, bests) => [-firstJump(bests.map((r) => r.complS)).heightS, 0],
  sufferage2: (_rows, bests) => {
    const jump = firstJump(bests.map((r) => r.complS));
    return [jump.clustersBefore, -jump.heightS];
  },
};

/** Largest k1 accepted among the candidates, by the relative tolerance rules of src/scheduler/heuristics/tolerance.ts. */
function limitFor(base: string, bestK1: number, nowS: number, tol: number): number {
  if (base === 'minmin') return nowS + (bestK1 - nowS) * (1 + tol);
  if (base === 'maxmin') return -(nowS + (-bestK1 - nowS) * (1 - tol));
  return bestK1 * (1 - tol);
}

export function referencePlan(
  name: string,
  chart: GanttChart,
  works: readonly WorkSpec[],
  rng: Rng,
  tolerance: number,
  candidates: HostCandidates = 'all',
): Placement[] {
  const randomized = name.startsWith('randomized-');
  const base = randomized ? name.slice('randomized-'.length) : name;
  const scorer = scorers[base];
  if (scorer === undefined) throw new Error(`no reference for ${name}`);
  const placed: Placement[] = [];
  let remaining = [...works].sort((a, b) => a.id - b.id);
  while (remaining.length > 0 && chart.hasRoom()) {
    const scored: { work: WorkSpec; k1: number; k2: number; host: number }[] = [];
    for (const work of remaining) {
      const rows: Row[] = [];
      chart.hosts.forEach((_, host) => {
        if (!chart.takesWork(host, candidates)) return;
        const { complS, endS } = chart.compl(work, host);
        if (Number.isFinite(complS)) rows.push({ host, complS, endS });
      });
      if (rows.length === 0) continue;
      rows.sort(
        (a, b) =>
          a.complS - b.complS || a.endS - b.endS || chart.hostFreeS(a.host) - chart.hostFreeS(b.host) || a.host - b.host,
      );
      const seen = new Set<number>();
      const clusterBests = rows.filter((r) => {
        const c = chart.hosts[r.host]!.cluster;
        if (seen.has(c)) return false;
        seen.add(c);
        return true;
      });
      const [k1, k2] = scorer(rows, clusterBests);
      scored.push({ work, k1, k2, host: rows[0]!.host });
    }
    if (scored.length === 0) break;
    scored.sort((a, b) => a.k1 - b.k1 || a.k2 - b.k2 || a.work.id - b.work.id);
    let chosen = scored[0]!;
    if (randomized) {
      const limit = limitFor(base, chosen.k1, chart.nowS, tolerance);
      const candidates = scored.filter((s) => s.k1 <= limit).sort((a, b) => a.work.id - b.work.id);
      chosen = candidates[rng.int(candidates.length)]!;
    }
    chart.commit(chosen.work, chosen.host);
    placed.push({ workId: chosen.work.id, host: chosen.host });
    remaining = remaining.filter((w) => w !== chosen.work);
  }
  return placed;
}
