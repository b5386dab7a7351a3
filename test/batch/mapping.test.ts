// Task mapping (Bunde and Leung 2015, §III-B): the patterns' edges, each mapper's rank → node assignment
// and score on small allocations, all worked out by hand, and `gridsweep map` on a log this test writes.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { Topology } from '../../src/batch/machines/topology.js';
import { findMapper, listMappers } from '../../src/batch/mapping/mappers/registry.js';
import { allToAll, cubiestGrid, type CommunicationPattern, ring, squarestGrid, stencil2d, stencil3d } from '../../src/batch/mapping/patterns.js';
import { scoreMapping, summarize } from '../../src/batch/mapping/score.js';
import mapCommand from '../../src/cli/commands/map.js';
import { UsageError } from '../../src/cli/command.js';
import { InputError } from '../../src/util/diagnostics.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const mesh4x4 = new Topology('mesh', [4, 4, 1]);

function mapped(mapper: string, topology: Topology, nodes: number[], pattern: CommunicationPattern, coresPerNode = 1): number[] {
  return Array.from(findMapper(mapper)!.map({ topology, nodes: Int32Array.from(nodes), coresPerNode, pattern }));
}

function score(mapper: string, topology: Topology, nodes: number[], pattern: CommunicationPattern, coresPerNode = 1, messageBytes = 1) {
  const rankToNode = findMapper(mapper)!.map({ topology, nodes: Int32Array.from(nodes), coresPerNode, pattern });
  return scoreMapping(topology, rankToNode, pattern.edges(rankToNode.length), messageBytes);
}

describe('communication patterns', () => {
  it('stencil2d over 6 ranks: a 2×3 grid, 3 x-edges and 4 y-edges', () => {
    expect(squarestGrid(6)).toEqual([2, 3]);
    // rank r at (r mod 2, r div 2):  0 1 / 2 3 / 4 5. x-neighbours (0,1) (2,3) (4,5); y-neighbours
    // (0,2) (1,3) (2,4) (3,5); no wrap.
    expect(stencil2d.edges(6)).toEqual([[0, 1, 1], [0, 2, 1], [1, 3, 1], [2, 3, 1], [2, 4, 1], [3, 5, 1], [4, 5, 1]]);
    expect(stencil2d.grid(6)).toEqual([2, 3, 1]);
  });

  it('a prime count is a 1×R line; a square count a square', () => {
    expect(squarestGrid(7)).toEqual([1, 7]);
    expect(stencil2d.edges(7)).toHaveLength(6);
    expect(squarestGrid(16)).toEqual([4, 4]);
    // 4×4: 3 x-edges in each of 4 rows + 3 y-edges in each of 4 columns.
    expect(stencil2d.edges(16)).toHaveLength(24);
  });

  it('stencil3d takes the least-surface factorisation: 8 → 2×2×2 (12 edges), 12 → 2×2×3, 7 → 1×1×7', () => {
    expect(cubiestGrid(8)).toEqual([2, 2, 2]);
    // A 2×2×2 cube: 4 edges along each of the 3 axes.
    expect(stencil3d.edges(8)).toHaveLength(12);
    // 12: (2,2,3) has surface 4+6+6 = 16, (1,3,4) 3+12+4 = 19, (1,2,6) 20, (1,1,12) 25.
    expect(cubiestGrid(12)).toEqual([2, 2, 3]);
    expect(cubiestGrid(7)).toEqual([1, 1, 7]);
    expect(stencil3d.edges(8)).toContainEqual([0, 4, 1]); // (0,0,0)–(0,0,1): 4 = px·py away
  });

  it('ring over 4 ranks: 0–1, 1–2, 2–3 and 3–0; two ranks one edge; one rank none', () => {
    expect(ring.edges(4)).toEqual([[0, 1, 1], [1, 2, 1], [2, 3, 1], [0, 3, 1]]);
    expect(ring.edges(2)).toEqual([[0, 1, 1]]);
    expect(ring.edges(1)).toEqual([]);
    expect(ring.grid(4)).toEqual([4, 1, 1]);
  });

  it('all-to-all over 4 ranks: the 6 pairs', () => {
    expect(allToAll.edges(4)).toEqual([[0, 1, 1], [0, 2, 1], [0, 3, 1], [1, 2, 1], [1, 3, 1], [2, 3, 1]]);
  });
});

describe('mappers on nodes {0, 1, 4, 5, 10} of a 4x4 mesh, one core each', () => {
  // Node i at (i mod 4, i div 4): 0 (0,0), 1 (1,0), 4 (0,1), 5 (1,1), 10 (2,2).
  const nodes = [0, 1, 4, 5, 10];

  it('row-major: increasing node index', () => {
    expect(mapped('row-major', mesh4x4, nodes, ring)).toEqual([0, 1, 4, 5, 10]);
  });

  it('column-major: by x, then y: (0,0) (0,1) (1,0) (1,1) (2,2)', () => {
    expect(mapped('column-major', mesh4x4, nodes, ring)).toEqual([0, 4, 1, 5, 10]);
  });

  it('corner: from (0,0); 1 and 4 tie at 1 hop (lower index 1), then 5, then 4, then 10', () => {
    // From 1 (1,0): 4 is 2 hops, 5 is 1, 10 is 3 → 5. From 5: 4 is 1, 10 is 2 → 4. Then 10.
    expect(mapped('corner', mesh4x4, nodes, ring)).toEqual([0, 1, 5, 4, 10]);
  });

  it('bisection (ring: rank order): x and y extents tie at 2 → split along x', () => {
    // Sorted by x (ties by index): 0 4 | 1 5 10 → ranks {0,1} | {2,3,4}. {0,4} spreads along y: 0←0, 4←1.
    // {1,5,10}: x extent 1, y extent 2 → y: 1 | 5 10, so 1←2; {5,10} ties (1,1) → x: 5←3, 10←4.
    expect(mapped('bisection', mesh4x4, nodes, ring)).toEqual([0, 4, 1, 5, 10]);
  });

  it('scores the ring (0–1, 1–2, 2–3, 3–4, 4–0): 10 hops over 5 messages for every mapper here', () => {
    // row-major: d(0,1)=1 d(1,4)=2 d(4,5)=1 d(5,10)=2 d(10,0)=4 → 10.  column-major and bisection:
    // d(0,4)=1 d(4,1)=2 d(1,5)=1 d(5,10)=2 d(10,0)=4 → 10.  corner: d(0,1)=1 d(1,5)=1 d(5,4)=1
    // d(4,10)=3 d(10,0)=4 → 10.
    for (const m of listMappers()) expect(score(m.name, mesh4x4, nodes, ring), m.name).toEqual({ messages: 5, hopWeightedBytes: 10, meanHops: 2 });
    // --message-bytes scales the volume, not the hops.
    expect(score('row-major', mesh4x4, nodes, ring, 1, 1024)).toEqual({ messages: 5, hopWeightedBytes: 10240, meanHops: 2 });
  });

  it('two cores a node: a node takes 2 consecutive ranks, and ranks on one node cost 0 hops', () => {
    expect(mapped('row-major', mesh4x4, nodes, stencil2d, 2)).toEqual([0, 0, 1, 1, 4, 4, 5, 5, 10, 10]);
    // stencil2d over 10 ranks is 2×5: rank r at (r mod 2, r div 2), so a node holds one grid row; its
    // 5 x-edges stay on a node (0 hops), and the 8 y-edges are 2 between each pair of consecutive nodes:
    // 2 × (d(0,1) + d(1,4) + d(4,5) + d(5,10)) = 2 × 6 = 12.
    expect(score('row-major', mesh4x4, nodes, stencil2d, 2)).toEqual({ messages: 13, hopWeightedBytes: 12, meanHops: 12 / 13 });
  });
});

describe('mappers where they differ', () => {
  it('a ring on two rows of four nodes: corner snakes round (8 hops), row-major and column-major jump back (14)', () => {
    // Nodes 0…7 of the 4x4 mesh: 0–3 at y = 0, 4–7 at y = 1.
    const nodes = [0, 1, 2, 3, 4, 5, 6, 7];
    // corner: 0 1 2 3 (each step 1 hop; at 0, 1 and 4 tie → 1), then 7 (1 hop), 6 5 4; ring hops are
    // seven 1s plus 4→0 = 1 → 8.
    expect(mapped('corner', mesh4x4, nodes, ring)).toEqual([0, 1, 2, 3, 7, 6, 5, 4]);
    expect(score('corner', mesh4x4, nodes, ring)).toEqual({ messages: 8, hopWeightedBytes: 8, meanHops: 1 });
    // row-major: 3 + d(3,4)=4 + 3 + d(7,0)=4 = 14.
    expect(score('row-major', mesh4x4, nodes, ring).hopWeightedBytes).toBe(14);
    // column-major 0 4 1 5 2 6 3 7: 1+2+1+2+1+2+1 + d(7,0)=4 = 14.
    expect(mapped('column-major', mesh4x4, nodes, ring)).toEqual([0, 4, 1, 5, 2, 6, 3, 7]);
    expect(score('column-major', mesh4x4, nodes, ring).hopWeightedBytes).toBe(14);
  });

  it('bisection beats row-major for a 4×4 stencil on an 8×2 mesh (40 hops against 64)', () => {
    // Why: row-major lays the rank grid's rows of 4 end to end along mesh rows of 8, so the 12
    // y-neighbours (r, r+4) land 4 hops apart (r = 0–3 and 8–11) or 5 when they cross to the next mesh
    // row (r = 4–7); with the 12 x-edges at 1 hop: 12 + 4·4 + 4·5 + 4·4 = 64. Bisection cuts both the 8×2 nodes and the 4×4 ranks into four 2×2
    // blocks and keeps each block's orientation, so the 16 edges inside blocks cost 1 hop and the 8
    // edges between blocks 3 hops each: 16 + 24 = 40.
    const mesh8x2 = new Topology('mesh', [8, 2, 1]);
    const all = Array.from({ length: 16 }, (_, i) => i);
    expect(score('row-major', mesh8x2, all, stencil2d)).toEqual({ messages: 24, hopWeightedBytes: 64, meanHops: 64 / 24 });
    expect(score('bisection', mesh8x2, all, stencil2d)).toEqual({ messages: 24, hopWeightedBytes: 40, meanHops: 40 / 24 });
    // Rank block (x 0–1, y 0–1) → nodes x 0–1; (x 0–1, y 2–3) → x 2–3; (x 2–3, y 0–1) → x 4–5; the last → x 6–7.
    expect(mapped('bisection', mesh8x2, all, stencil2d)).toEqual([0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15]);
  });

  it('a torus wraps: row-major ring on a 4-node row closes in 1 hop, not 3', () => {
    const torus = new Topology('torus', [4, 1, 1]);
    expect(score('row-major', torus, [0, 1, 2, 3], ring).hopWeightedBytes).toBe(4);
    expect(score('row-major', new Topology('mesh', [4, 1, 1]), [0, 1, 2, 3], ring).hopWeightedBytes).toBe(6);
  });

  it('every mapper gives each node exactly C ranks', () => {
    const t = new Topology('mesh', [4, 4, 2]);
    const nodes = [0, 2, 3, 7, 9, 14, 17, 18, 22, 31];
    for (const m of listMappers()) {
      for (const p of [stencil2d, stencil3d, ring]) {
        const counts = new Map<number, number>();
        for (const v of mapped(m.name, t, nodes, p, 3)) counts.set(v, (counts.get(v) ?? 0) + 1);
        expect([...counts.keys()].sort((a, b) => a - b), `${m.name} ${p.name}`).toEqual(nodes);
        expect([...counts.values()].every((k) => k === 3), `${m.name} ${p.name}`).toBe(true);
      }
    }
  });
});

describe('summaries over jobs', () => {
  it('sums volumes and averages hops per message, per job, and by job nodes; best/worst by mean hops', () => {
    const jobs = [
      { job: 1, line: 7, nodes: 2, ranks: 2, messages: 1, hopWeightedBytes: 3, meanHops: 3 },
      { job: 2, line: 8, nodes: 1, ranks: 1, messages: 0, hopWeightedBytes: 0, meanHops: 0 },
      { job: 3, line: 9, nodes: 4, ranks: 4, messages: 4, hopWeightedBytes: 4, meanHops: 1 },
      { job: 4, line: 10, nodes: 4, ranks: 4, messages: 4, hopWeightedBytes: 4, meanHops: 1 },
    ];
    const s = summarize('x', jobs);
    expect(s.totalHopWeightedBytes).toBe(11);
    expect(s.meanHopWeightedBytesPerJob).toBe(11 / 4);
    // Per message: (3 + 4 + 4) / 9. Per job (job 2 has no messages): (3 + 1 + 1) / 3. By nodes: (2·3 + 4 + 4) / 10.
    expect(s.meanHopsPerMessage).toBe(11 / 9);
    expect(s.meanOfJobMeanHops).toBe(5 / 3);
    expect(s.nodeWeightedMeanHops).toBe(14 / 10);
    expect(s.jobsWithMessages).toBe(3);
    // Jobs 3 and 4 tie at 1 hop: the earlier, 3, is best.
    expect(s.best?.job).toBe(3);
    expect(s.worst?.job).toBe(1);
  });
});

describe('gridsweep map', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gs-map-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  // Two jobs on a 4x4 mesh, one core a node: job 1 on the 8 nodes of rows y = 0 and 1 (the ring case
  // above), job 2 on the 5 nodes {0, 1, 4, 5, 10} (the hand-worked allocation above).
  const header = ['# gridsweep allocation log 1', '# machine: mesh:4x4', '# cores-per-node: 1', '# allocator: first-fit', '# policy: fcfs', '# columns: job start_s end_s node…'];
  const log = join(dir, 'alloc.log');
  writeFileSync(log, [...header, '1 0 100 0 1 2 3 4 5 6 7', '2 100 250 0 1 4 5 10', ''].join('\n'));

  /** Runs the command as main.ts does (strict option parsing), capturing what it prints. */
  async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
    vi.spyOn(console, 'error').mockImplementation((s: string) => void err.push(s));
    const options = Object.fromEntries(Object.entries(mapCommand.options).map(([k, { description: _d, valueName: _v, ...o }]) => [k, o]));
    const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    const code = await mapCommand.run({ values: parsed.values, positionals: parsed.positionals });
    vi.restoreAllMocks();
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  }

  it('prints a table of every mapper, and the same figures as JSON', async () => {
    const text = await run(log, '--pattern', 'ring');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('2 jobs on mesh:4x4, 1 core(s) a node');
    // corner: job 1 8 hops + job 2 10 = 18 over 13 messages; row-major 14 + 10 = 24.
    expect(text.stdout).toMatch(/^corner +18 +1\.385 /m);
    expect(text.stdout).toMatch(/^row-major +24 +1\.846 /m);
    const j = await run(log, '--pattern', 'ring', '--json', '--message-bytes', '8');
    const out = JSON.parse(j.stdout) as { machine: string; mappers: { mapper: string; totalHopWeightedBytes: number; meanHopsPerMessage: number; best: { job: number }; worst: { job: number } }[] };
    expect(out.machine).toBe('mesh:4x4');
    expect(out.mappers.map((m) => m.mapper)).toEqual(listMappers().map((m) => m.name));
    const corner = out.mappers.find((m) => m.mapper === 'corner')!;
    expect(corner.totalHopWeightedBytes).toBe(18 * 8);
    expect(corner.meanHopsPerMessage).toBe(18 / 13);
    // Job 1 averages 1 hop, job 2 averages 2.
    expect(corner.best.job).toBe(1);
    expect(corner.worst.job).toBe(2);
  });

  it('the example log (test/fixtures/allocation-logs/mesh-8x2.log): bisection 40 against row-major 64 on job 1', async () => {
    // Job 1 is the whole 8×2 mesh under a 4×4 stencil, the case worked out above.
    const csv = join(dir, 'example.csv');
    const r = await run(join(PACKAGE_ROOT, 'test/fixtures/allocation-logs/mesh-8x2.log'), '--pattern', 'stencil2d', '--out', csv);
    expect(r.code).toBe(0);
    const rows = readFileSync(csv, 'utf8').split('\n').filter((l) => l.includes(',1,7,'));
    expect(rows).toContain('row-major,1,7,16,16,24,64,' + 64 / 24);
    expect(rows).toContain('bisection,1,7,16,16,24,40,' + 40 / 24);
  });

  it('--mapper M --out FILE.csv: one row per job, nothing left under a temporary name', async () => {
    const csv = join(dir, 'per-job.csv');
    const r = await run(log, '--pattern', 'ring', '--mapper', 'corner', '--out', csv);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`wrote ${csv}`);
    expect(readFileSync(csv, 'utf8')).toBe('mapper,job,line,nodes,ranks,messages,hop_weighted_bytes,mean_hops\ncorner,1,7,8,8,8,8,1\ncorner,2,8,5,5,5,10,2\n');
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('refuses an unknown pattern or mapper with the list', async () => {
    await expect(run(log, '--pattern', 'mesh')).rejects.toThrow(new UsageError("unknown --pattern 'mesh'; expected one of stencil2d, stencil3d, ring, all-to-all"));
    await expect(run(log, '--pattern', 'ring', '--mapper', 'random')).rejects.toThrow(/unknown --mapper 'random'; expected all or one of row-major, column-major, corner, bisection/);
    await expect(run(log)).rejects.toThrow('--pattern is required');
  });

  it('all-to-all over a job too large to enumerate: an error at the job\'s line', async () => {
    // 3000 ranks → 3000·2999/2 = 4,498,500 pairs, more than MAX_EDGES = 4,194,304.
    const big = join(dir, 'big.log');
    const nodes = Array.from({ length: 3000 }, (_, i) => i).join(' ');
    writeFileSync(big, [...header.map((l) => l.replace('mesh:4x4', 'mesh:64x64')), '1 0 10 0 1', `2 0 10 ${nodes}`].join('\n'));
    const e = await run(big, '--pattern', 'all-to-all').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).message).toContain('big.log:8:1: error: job 2: all-to-all over 3000 ranks is 4498500 messages');
  });

  it('a malformed log: one error at file:line:column', async () => {
    const bad = join(dir, 'bad.log');
    writeFileSync(bad, [...header, '1 0 100 0 1 2', '2 100 250 4 3'].join('\n'));
    const e = await run(bad, '--pattern', 'ring').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(InputError);
    // Line 8, column 13: the second node index, 3, which is not above 4.
    expect((e as InputError).message).toMatch(/^.*bad\.log:8:13: error: node 3 is out of order or not on the machine/);
  });
});
