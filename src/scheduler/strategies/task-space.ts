// Task-space reduction (Berman et al. 1999, §5.6.2, do_plan() step 4): which of the not-started Works a plan considers.
//  - all           every one of them;
//  - random        taskSpaceSize of them drawn uniformly (the run's seeded generator);
//  - shared-files  taskSpaceSize of them chosen greedily to reuse data: a Work's score is the estimated bytes
//                  of its inputs already at hand — stored in, in flight to or queued for some cluster, or read
//                  by a Work chosen before it. The best score goes next (ties: larger sharing potential
//                  Σ size × (readers − 1) over its inputs, then lower id), and its inputs then count as at hand.
// The result is sorted by Work id, as heuristics expect.
import type { FileId, FileSpec, WorkSpec } from '../../model/application.js';
import type { Rng } from '../../util/rng.js';
import type { StrategyChoice, StrategyFamily } from './family.js';

export const TASK_SPACES = [
  { name: 'all', help: 'every not-started Work is considered by each plan (the default)' },
  { name: 'random', help: 'a seeded random subset of taskSpaceSize Works' },
  { name: 'shared-files', help: 'taskSpaceSize Works chosen greedily to reuse input files already sent or chosen' },
] as const satisfies readonly StrategyChoice[];
export type TaskSpace = (typeof TASK_SPACES)[number]['name'];

export const taskSpaceFamily: StrategyFamily = {
  option: 'taskSpace',
  section: '5.6.2',
  help: 'which not-started Works a plan considers',
  choices: TASK_SPACES,
  parameters: [{ name: 'taskSpaceSize', help: 'random, shared-files: how many not-started Works each plan considers' }],
};

export interface TaskSpaceInput {
  readonly mode: TaskSpace;
  readonly size: number;
  /** The not-started Works, sorted by id. */
  readonly works: readonly WorkSpec[];
  readonly files: readonly FileSpec[];
  /** Readers of each file among not-started Works (the §5.6.4 usage). */
  readonly usage: ReadonlyMap<FileId, number>;
  /** Files stored in, in flight to, or queued for some cluster. */
  readonly atHand: ReadonlySet<FileId>;
  readonly rng: Rng;
}

export function selectTaskSpace(input: TaskSpaceInput): readonly WorkSpec[] {
  const size = Math.max(0, Math.floor(input.size));
  if (input.mode === 'all' || input.works.length <= size) return input.works;
  const chosen = input.mode === 'random' ? randomSubset(input.works, size, input.rng) : sharedFiles(input, size);
  return chosen.sort((a, b) => a.id - b.id);
}

/** Partial Fisher–Yates over a copy: `size` distinct Works. */
function randomSubset(works: readonly WorkSpec[], size: number, rng: Rng): WorkSpec[] {
  const pool = [...works];
  for (let k = 0; k < size; k++) {
    const j = k + rng.int(pool.length - k);
    [pool[k], pool[j]] = [pool[j]!, pool[k]!];
  }
  return pool.slice(0, size);
}

function sharedFiles(input: TaskSpaceInput, size: number): WorkSpec[] {
  const { works, files, usage } = input;
  const bytes = (f: FileId) => files[f]?.estSizeBytes ?? 0;
  const n = works.length;
  const score = new Float64Array(n);
  const potential = new Float64Array(n);
  const readers = new Map<FileId, number[]>();
  works.forEach((w, i) => {
    for (const f of new Set(w.inputs)) {
      if (input.atHand.has(f)) score[i]! += bytes(f);
      potential[i]! += bytes(f) * Math.max(0, (usage.get(f) ?? 1) - 1);
      let list = readers.get(f);
      if (list === undefined) readers.set(f, (list = []));
      list.push(i);
    }
  });
  // Lazy max-heap of (score, potential, -index): a Work's score only grows, so stale entries are skipped.
  const heap: [number, number, number][] = works.map((_, i) => [score[i]!, potential[i]!, i]);
  const before = (a: [number, number, number], b: [number, number, number]) => a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] < b[2])));
  heapify(heap, before);
  const taken = new Uint8Array(n);
  const atHand = new Set(input.atHand);
  const chosen: WorkSpec[] = [];
  while (chosen.length < size && heap.length > 0) {
    const [s, , i] = pop(heap, before);
    if (taken[i] === 1 || s !== score[i]) continue;
    taken[i] = 1;
    chosen.push(works[i]!);
    for (const f of new Set(works[i]!.inputs)) {
      if (atHand.has(f)) continue;
      atHand.add(f);
      for (const j of readers.get(f)!) {
        if (taken[j] === 1) continue;
        score[j]! += bytes(f);
        push(heap, [score[j]!, potential[j]!, j], before);
      }
    }
  }
  return chosen;
}

type Before<T> = (a: T, b: T) => boolean;

function heapify<T>(h: T[], before: Before<T>): void {
  for (let k = (h.length >> 1) - 1; k >= 0; k--) down(h, k, before);
}
function push<T>(h: T[], item: T, before: Before<T>): void {
  h.push(item);
  let k = h.length - 1;
  while (k > 0) {
    const p = (k - 1) >> 1;
    if (!before(h[k]!, h[p]!)) break;
    [h[k], h[p]] = [h[p]!, h[k]!];
    k = p;
  }
}
function pop<T>(h: T[], before: Before<T>): T {
  const top = h[0]!;
  const last = h.pop()!;
  if (h.length > 0) {
    h[0] = last;
    down(h, 0, before);
  }
  return top;
}
function down<T>(h: T[], k: number, before: Before<T>): void {
  for (;;) {
    const l = 2 * k + 1;
    const r = l + 1;
    let m = k;
    if (l < h.length && before(h[l]!, h[m]!)) m = l;
    if (r < h.length && before(h[r]!, h[m]!)) m = r;
    if (m === k) return;
    [h[k], h[m]] = [h[m]!, h[k]!];
    k = m;
  }
}
