// The narrative is computed from the numbers: fabricated results with different orders must give
// different sentences and different verdicts against the paper.
import { describe, expect, it } from 'vitest';
import { formatPercent, labelOf, studyFindings, randomizedPairs } from '../../src/demo/narrative.js';
import { summarizeStudy } from '../../src/demo/summary.js';
import { fabricatedRows, FIG11_NAMES, HEURISTIC_CODES, MINMIN_WINS, PAPER_LIKE, study } from './fabricated.js';

const bound = (_size: number, seedIndex: number): number => [3390, 3400, 3395][seedIndex]!;
const findingsOf = (large: Record<string, number>, small?: number) => studyFindings(summarizeStudy(fabricatedRows(study(large, small), bound), HEURISTIC_CODES));
const text = (f: ReturnType<typeof findingsOf>): string => f.sentences.join('\n');

describe('summary of the rows', () => {
  it('medians across seeds, the largest bound across seeds, sizes ascending, registry codes', () => {
    const s = summarizeStudy(fabricatedRows(study(PAPER_LIKE), bound), HEURISTIC_CODES);
    expect(s.sizesKB).toEqual([100, 9600]);
    expect(s.seeds).toEqual([1999, 2000, 2001]);
    expect(s.medianS('minmin', 9600)).toBe(6000);
    expect(s.makespansS('minmin', 9600)).toEqual([5950, 6000, 6050]);
    expect(s.lowerBoundS(9600)).toBe(3400);
    expect(s.heuristics.find((h) => h.name === 'sufferage2')?.code).toBe('H9');
    expect(s.medianS('nonexistent', 9600)).toBeNaN();
  });

  it('the fabricated studies give a makespan to every registered heuristic, and to no other', () => {
    expect(Object.keys(PAPER_LIKE).sort()).toEqual([...FIG11_NAMES].sort());
  });

  it('pairs every randomized heuristic with its plain version by name', () => {
    const pairs = randomizedPairs(HEURISTIC_CODES).map((p) => `${p.randomized.code}/${p.plain.code}`);
    expect(pairs.sort()).toEqual(['H5/H1', 'H6/H2', 'H7/H3', 'H8/H4']);
  });
});

describe('the findings follow the numbers', () => {
  it('paper-like results: Extended Sufferage wins, the paper is matched on every point', () => {
    const f = findingsOf(PAPER_LIKE);
    expect(f.atSizeKB).toBe(9600);
    const t = text(f);
    // The best is extended-sufferage at 5000 s; randomized-extended-sufferage (5010) is within 2 %.
    expect(t).toContain('extended-sufferage (H4) has the shortest median makespan (5,000 s)');
    expect(t).toContain('randomized-extended-sufferage (H8, +0.2 %)');
    // (11000 − 5000) / 11000 = 54.5 %.
    expect(t).toContain(`${formatPercent((11000 - 5000) / 11000)} shorter than the work queue (H0, 11,000 s), which ranks 11 of 11`);
    expect(t).toContain('Min-min (H1) ranks 5 of 11, 20 % behind the best (6,000 s)');
    expect(t).toContain('Every randomized heuristic matches its plain version within 2.0 % at every size');
    // 5000 / 3400 − 1 = 47 %.
    expect(t).toContain('47 % above the lower bound (3,400 s, set by the work over all hosts)');
    expect(f.paper.map((c) => c.agrees)).toEqual([true, true, true, true, true]);
    expect(f.paperVerdict).toMatch(/matches what the paper reports for Figure 11 on all 5 points/);
  });

  it('Min-min winning and a randomized variant diverging give other sentences and an honest "differs"', () => {
    const f = findingsOf(MINMIN_WINS);
    const t = text(f);
    expect(t).toContain('minmin (H1) has the shortest median makespan (4,000 s)');
    expect(t).not.toContain('extended-sufferage (H4) has the shortest');
    expect(t).toContain('Min-min (H1) is the best heuristic at this size');
    // 8000 vs 5000: 60 % slower.
    expect(t).toContain('randomized-extended-sufferage (H8) is 60 % slower than extended-sufferage (H4) at 9,600 KB');
    expect(t).toContain('randomized-minmin (H5) matches minmin (H1) within 2.0 % at every size');
    const byClaim = Object.fromEntries(f.paper.map((c) => [c.claim.slice(0, 20), c.agrees]));
    expect(Object.values(byClaim)).toEqual([true, true, false, false, false]);
    expect(f.paper[2]!.detail).toContain('extended-sufferage (H4) 5,000 s (+25 % vs the best)');
    expect(f.paperVerdict).toMatch(/agrees with what the paper reports for Figure 11 on 2 of 5 points checked and differs on 3 \(each marked below/);
    expect(f.paperVerdict).toContain('docs/fig11-analysis.md explains why');
  });

  it('an absurd order (the work queue best, everything within 10 %) is reported as it is', () => {
    const flat = Object.fromEntries(Object.keys(PAPER_LIKE).map((n) => [n, 5200]));
    const f = findingsOf({ ...flat, workqueue: 5000 });
    const t = text(f);
    expect(t).toContain('workqueue (H0) has the shortest median makespan (5,000 s)');
    expect(t).toContain('The work queue (H0), which ignores file sharing, is itself the best here.');
    expect(t).toContain('Every heuristic is within 10 % of the best at this size.');
    expect(f.paper[0]!.agrees).toBe(false);
    expect(f.paper[1]!.agrees).toBe(false);
  });

  it('the spread sentence grows or shrinks with the data', () => {
    expect(text(findingsOf(PAPER_LIKE))).toMatch(/spread between the best and the worst median grows from [\d.]+ % at 100 KB to 120 % at 9,600 KB/);
    const flat = Object.fromEntries(Object.keys(PAPER_LIKE).map((n) => [n, 5000]));
    const rows = fabricatedRows(study({ ...flat, workqueue: 5100 }), bound);
    // At 100 KB make the work queue far behind instead.
    for (const r of rows) if (r.heuristic === 'workqueue' && r.sweep === 100) (r as { makespanS: number }).makespanS = 9000;
    const f = studyFindings(summarizeStudy(rows, HEURISTIC_CODES));
    expect(text(f)).toMatch(/spread between the best and the worst median shrinks from/);
  });

  it('a study without some heuristics marks the claims it cannot check', () => {
    const rows = fabricatedRows(study(PAPER_LIKE), bound).filter((r) => ['minmin', 'maxmin'].includes(r.heuristic));
    const f = studyFindings(summarizeStudy(rows, HEURISTIC_CODES));
    expect(f.paper.every((c) => c.agrees === null)).toBe(true);
    expect(f.paperVerdict).toMatch(/lacks the heuristics/);
    expect(text(f)).toContain('minmin (H1) has the shortest');
    expect(text(f)).not.toMatch(/work queue/);
  });

  it('labels and percentages', () => {
    expect(labelOf({ name: 'minmin', code: 'H1' })).toBe('minmin (H1)');
    expect(labelOf({ name: 'x', code: '' }, '+3 %')).toBe('x (+3 %)');
    expect(formatPercent(0.054)).toBe('5.4 %');
    expect(formatPercent(-0.54)).toBe('54 %');
  });
});
