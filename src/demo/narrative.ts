// What the study shows, in words computed from its numbers: who wins at the largest shared file size and
// by how much, where Min-min stands, whether the randomized heuristics differ from their plain versions,
// how far the best is from the lower bound; and, point by point, whether the outcome matches what Berman et al. 1999
// §8 reports for Figure 11. Nothing here states a conclusion that the numbers did not produce.
import type { HeuristicLabel, StudySummary } from './summary.js';

/** Two medians within this relative gap are "the same" (randomized vs plain). */
export const SAME_FRACTION = 0.02;
/** Within this gap of the best median counts as "among the best". */
export const LEADING_FRACTION = 0.05;
/** More than this gap above the best median is "clearly behind". */
export const BEHIND_FRACTION = 0.1;

const RANDOMIZED_PREFIX = 'randomized-';

export interface PaperCheck {
  /** What Berman et al. 1999, §8 reports, in our words. */
  readonly claim: string;
  /** null when a heuristic the claim needs is not in the study. */
  readonly agrees: boolean | null;
  /** The numbers behind the verdict. */
  readonly detail: string;
}

export interface StudyFindings {
  /** The shared file size the comparison is made at (the largest). */
  readonly atSizeKB: number;
  readonly sentences: readonly string[];
  readonly paper: readonly PaperCheck[];
  /** One sentence: how the run compares with the paper overall. */
  readonly paperVerdict: string;
}

export function formatSeconds(s: number): string {
  return `${Math.round(s).toLocaleString('en-US')} s`;
}

export function formatSize(kb: number): string {
  return `${kb.toLocaleString('en-US')} KB`;
}

/** A fraction as a percentage: one decimal below 10 %, none above. */
export function formatPercent(fraction: number): string {
  const p = Math.abs(fraction) * 100;
  return `${p < 10 ? p.toFixed(1) : p.toFixed(0)} %`;
}

/** "minmin (H1)", or with a note: "minmin (H1, +5.2 %)". */
export function labelOf(h: HeuristicLabel, note?: string): string {
  const inParens = [h.code, note].filter((x) => x !== undefined && x !== '');
  return inParens.length > 0 ? `${h.name} (${inParens.join(', ')})` : h.name;
}

function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

interface Ranked {
  readonly h: HeuristicLabel;
  readonly medianS: number;
  /** (median − best) / best. */
  readonly behind: number;
}

function rankAt(s: StudySummary, sizeKB: number): Ranked[] {
  const withMedian = s.heuristics.map((h) => ({ h, medianS: s.medianS(h.name, sizeKB) })).filter((r) => Number.isFinite(r.medianS));
  withMedian.sort((a, b) => a.medianS - b.medianS);
  const best = withMedian[0]?.medianS ?? NaN;
  return withMedian.map((r) => ({ ...r, behind: (r.medianS - best) / best }));
}

function byCode(ranked: readonly Ranked[], code: string): Ranked | undefined {
  return ranked.find((r) => r.h.code === code);
}

/** Pairs (plain, randomized) found by name: "randomized-X" is the randomized version of "X". */
export function randomizedPairs(heuristics: readonly HeuristicLabel[]): Array<{ plain: HeuristicLabel; randomized: HeuristicLabel }> {
  const out: Array<{ plain: HeuristicLabel; randomized: HeuristicLabel }> = [];
  for (const r of heuristics) {
    if (!r.name.startsWith(RANDOMIZED_PREFIX)) continue;
    const plain = heuristics.find((p) => p.name === r.name.slice(RANDOMIZED_PREFIX.length));
    if (plain) out.push({ plain, randomized: r });
  }
  return out;
}

function winnerSentence(ranked: readonly Ranked[], sizeKB: number): string {
  const best = ranked[0]!;
  const close = ranked.slice(1).filter((r) => r.behind <= SAME_FRACTION);
  const head = `At the largest shared file size (${formatSize(sizeKB)}), ${labelOf(best.h)} has the shortest median makespan (${formatSeconds(best.medianS)})`;
  if (close.length === 0) {
    const second = ranked[1];
    return second ? `${head}; the runner-up, ${labelOf(second.h)}, takes ${formatPercent(second.behind)} longer (${formatSeconds(second.medianS)}).` : `${head}.`;
  }
  return `${head}; ${listWords(close.map((r) => labelOf(r.h, `+${formatPercent(r.behind)}`)))} ${close.length === 1 ? 'is' : 'are'} within ${formatPercent(SAME_FRACTION)} of it.`;
}

function workQueueSentence(ranked: readonly Ranked[]): string | undefined {
  const wq = byCode(ranked, 'H0');
  const best = ranked[0]!;
  if (!wq) return undefined;
  if (wq === best) return `The work queue (H0), which ignores file sharing, is itself the best here.`;
  const shorter = (wq.medianS - best.medianS) / wq.medianS;
  const rank = ranked.indexOf(wq) + 1;
  return `That is ${formatPercent(shorter)} shorter than the work queue (H0, ${formatSeconds(wq.medianS)}), which ranks ${rank} of ${ranked.length}.`;
}

function behindSentence(ranked: readonly Ranked[]): string {
  const behind = ranked.filter((r) => r.behind > BEHIND_FRACTION);
  if (behind.length === 0) return `Every heuristic is within ${formatPercent(BEHIND_FRACTION)} of the best at this size.`;
  const items = behind.map((r) => labelOf(r.h, `+${formatPercent(r.behind)}`));
  return `${behind.length} of ${ranked.length} heuristics are more than ${formatPercent(BEHIND_FRACTION)} behind the best: ${listWords(items)}.`;
}

function minMinSentence(ranked: readonly Ranked[]): string | undefined {
  const mm = byCode(ranked, 'H1');
  if (!mm) return undefined;
  const rank = ranked.indexOf(mm) + 1;
  if (rank === 1) return `Min-min (H1) is the best heuristic at this size.`;
  return `Min-min (H1) ranks ${rank} of ${ranked.length}, ${formatPercent(mm.behind)} behind the best (${formatSeconds(mm.medianS)}).`;
}

/** Relative gap (randomized − plain) / plain at `sizeKB`, and the largest absolute gap over every size. */
function pairGap(s: StudySummary, plain: HeuristicLabel, randomized: HeuristicLabel, sizeKB: number): { at: number; largest: number } {
  const gapAt = (kb: number): number => (s.medianS(randomized.name, kb) - s.medianS(plain.name, kb)) / s.medianS(plain.name, kb);
  const largest = s.sizesKB.map(gapAt).filter(Number.isFinite).reduce((m, g) => Math.max(m, Math.abs(g)), 0);
  return { at: gapAt(sizeKB), largest };
}

function randomizedSentence(s: StudySummary, sizeKB: number): string | undefined {
  const pairs = randomizedPairs(s.heuristics);
  if (pairs.length === 0) return undefined;
  const same: string[] = [];
  const differ: string[] = [];
  for (const { plain, randomized } of pairs) {
    const { at: gap, largest } = pairGap(s, plain, randomized, sizeKB);
    if (largest <= SAME_FRACTION) {
      same.push(`${labelOf(randomized)} matches ${labelOf(plain)} within ${formatPercent(SAME_FRACTION)} at every size`);
      continue;
    }
    differ.push(
      Math.abs(gap) <= SAME_FRACTION
        ? `${labelOf(randomized)} matches ${labelOf(plain)} within ${formatPercent(SAME_FRACTION)} at ${formatSize(sizeKB)} but differs by up to ${formatPercent(largest)} at other sizes`
        : `${labelOf(randomized)} is ${formatPercent(gap)} ${gap > 0 ? 'slower' : 'faster'} than ${labelOf(plain)} at ${formatSize(sizeKB)}`,
    );
  }
  if (differ.length === 0) return `Every randomized heuristic matches its plain version within ${formatPercent(SAME_FRACTION)} at every size.`;
  return `Randomized versus plain: ${[...differ, ...same].join('; ')}.`;
}

const BINDING_WORDS: Readonly<Record<string, string>> = {
  cpu: 'set by the work over all hosts',
  task: 'set by the longest task',
  link: 'set by the bytes over all links',
  startup: 'set by the work plus the transfers each cluster needs before its first task and after its last',
};

/** ", set by …; the work alone gives N s" when a transfer-aware bound is above the work-only one. */
function boundOrigin(s: StudySummary, sizeKB: number): string {
  const binding = s.lowerBoundBinding(sizeKB);
  if (binding === undefined) return '';
  const work = s.workBoundS(sizeKB);
  const words = BINDING_WORDS[binding] ?? `set by the ${binding} bound`;
  return work > 0 && work < s.lowerBoundS(sizeKB) ? `, ${words}; the work alone gives ${formatSeconds(work)}` : `, ${words}`;
}

function lowerBoundSentence(s: StudySummary, ranked: readonly Ranked[], sizeKB: number): string | undefined {
  const lb = s.lowerBoundS(sizeKB);
  if (!(lb > 0)) return undefined;
  const best = ranked[0]!;
  const smallest = s.sizesKB[0]!;
  const text = `The best median makespan at ${formatSize(sizeKB)} is ${formatPercent(best.medianS / lb - 1)} above the lower bound (${formatSeconds(lb)}${boundOrigin(s, sizeKB)})`;
  if (smallest === sizeKB) return `${text}.`;
  const smallRanked = rankAt(s, smallest);
  const lbSmall = s.lowerBoundS(smallest);
  if (smallRanked.length === 0 || !(lbSmall > 0)) return `${text}.`;
  return `${text}; at ${formatSize(smallest)} the best, ${labelOf(smallRanked[0]!.h)}, is ${formatPercent(smallRanked[0]!.medianS / lbSmall - 1)} above it (${formatSeconds(lbSmall)}).`;
}

function spreadSentence(s: StudySummary, sizeKB: number): string | undefined {
  const smallest = s.sizesKB[0]!;
  if (smallest === sizeKB) return undefined;
  const small = rankAt(s, smallest);
  const large = rankAt(s, sizeKB);
  if (small.length < 2) return undefined;
  const spread = (r: readonly Ranked[]): number => r[r.length - 1]!.behind;
  const wins = s.sizesKB.filter((kb) => rankAt(s, kb)[0]?.h.name === large[0]!.h.name).length;
  const verb = spread(large) >= spread(small) ? 'grows' : 'shrinks';
  return `The spread between the best and the worst median ${verb} from ${formatPercent(spread(small))} at ${formatSize(smallest)} to ${formatPercent(spread(large))} at ${formatSize(sizeKB)}; ${labelOf(large[0]!.h)} is the best at ${wins} of ${s.sizesKB.length} sizes.`;
}

function paperChecks(s: StudySummary, ranked: readonly Ranked[], sizeKB: number): PaperCheck[] {
  const at = `at ${formatSize(sizeKB)}`;
  const missing = (what: string): PaperCheck => ({ claim: what, agrees: null, detail: 'not in this study' });
  const checks: PaperCheck[] = [];
  const describe = (r: Ranked): string => `${labelOf(r.h)} ${formatSeconds(r.medianS)} (${r.behind === 0 ? 'the best' : `+${formatPercent(r.behind)} vs the best`})`;

  for (const [code, claim] of [
    ['H0', 'the work queue (H0) is clearly behind'],
    ['H3', 'plain Sufferage (H3) is clearly behind'],
  ] as const) {
    const r = byCode(ranked, code);
    checks.push(r ? { claim, agrees: r.behind > BEHIND_FRACTION, detail: `${at}: ${describe(r)}; "clearly behind" means more than ${formatPercent(BEHIND_FRACTION)}` } : missing(claim));
  }

  const leaders = ['H4', 'H9', 'XS'].map((c) => byCode(ranked, c)).filter((r): r is Ranked => r !== undefined);
  const leadClaim = 'Extended Sufferage (H4) and Sufferage II (H9) are the best (XSufferage, not in the figure, is expected with them)';
  checks.push(
    leaders.length > 0
      ? { claim: leadClaim, agrees: leaders.every((r) => r.behind <= LEADING_FRACTION), detail: `${at}: ${leaders.map(describe).join('; ')}; "the best" means within ${formatPercent(LEADING_FRACTION)} of the best median` }
      : missing(leadClaim),
  );

  const mm = byCode(ranked, 'H1');
  const laggards = ['H0', 'H3'].map((c) => byCode(ranked, c)).filter((r): r is Ranked => r !== undefined);
  const mmClaim = 'Min-min (H1) lies in between: behind the sufferage-based leaders, ahead of H0 and H3';
  if (mm && leaders.length > 0 && laggards.length > 0) {
    const bestLeader = Math.min(...leaders.map((r) => r.medianS));
    const agrees = mm.medianS > bestLeader * (1 + SAME_FRACTION) && laggards.every((r) => mm.medianS < r.medianS);
    checks.push({ claim: mmClaim, agrees, detail: `${at}: ${describe(mm)}; best of H4/H9/XS ${formatSeconds(bestLeader)}; ${laggards.map((r) => `${r.h.code} ${formatSeconds(r.medianS)}`).join(', ')}` });
  } else checks.push(missing(mmClaim));

  const pairs = randomizedPairs(s.heuristics);
  const rClaim = 'the randomized heuristics (H5–H8) perform like their plain versions';
  if (pairs.length > 0) {
    const gaps = pairs.map(({ plain, randomized }) => ({ label: `${randomized.code || randomized.name} vs ${plain.code || plain.name}`, ...pairGap(s, plain, randomized, sizeKB) }));
    checks.push({
      claim: rClaim,
      agrees: gaps.every((g) => g.largest <= SAME_FRACTION),
      detail: `largest gap over the sizes: ${gaps.map((g) => `${g.label} ${formatPercent(g.largest)}`).join(', ')}; "like" means within ${formatPercent(SAME_FRACTION)} at every size`,
    });
  } else checks.push(missing(rClaim));
  return checks;
}

/** Where the differences from the paper are explained, for the verdict (a path in the repository). */
export const FIG11_ANALYSIS = 'docs/fig11-analysis.md';

/** How many of the paper's points the study agrees with (each is listed with its verdict), and where to read why. */
function verdictOf(checks: readonly PaperCheck[]): string {
  const judged = checks.filter((c) => c.agrees !== null);
  const agree = judged.filter((c) => c.agrees);
  const differ = judged.filter((c) => !c.agrees);
  if (judged.length === 0) return 'The study lacks the heuristics needed to compare it with the paper.';
  if (differ.length === 0) return `The outcome matches what the paper reports for Figure 11 on all ${judged.length} points checked.`;
  return (
    `The outcome agrees with what the paper reports for Figure 11 on ${agree.length} of ${judged.length} points checked and differs on ` +
    `${differ.length} (each marked below; a near-tie counts as a difference): ${FIG11_ANALYSIS} explains why.`
  );
}

export function studyFindings(s: StudySummary): StudyFindings {
  const sizeKB = s.sizesKB[s.sizesKB.length - 1];
  if (sizeKB === undefined) throw new Error('the study has no results');
  const ranked = rankAt(s, sizeKB);
  if (ranked.length === 0) throw new Error(`no makespan at ${formatSize(sizeKB)}`);
  const sentences = [
    winnerSentence(ranked, sizeKB),
    workQueueSentence(ranked),
    behindSentence(ranked),
    minMinSentence(ranked),
    randomizedSentence(s, sizeKB),
    spreadSentence(s, sizeKB),
    lowerBoundSentence(s, ranked, sizeKB),
    s.unfinishedRuns > 0 ? `Warning: ${s.unfinishedRuns} run(s) did not complete every task; their makespan is when the simulation stopped.` : undefined,
  ].filter((x): x is string => x !== undefined);
  const paper = paperChecks(s, ranked, sizeKB);
  return { atSizeKB: sizeKB, sentences, paper, paperVerdict: verdictOf(paper) };
}
