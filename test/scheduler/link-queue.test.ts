// LinkQueue against a plain array doing the same operations: entries leave from either side of the FIFO
// (the head moves on instead of every entry behind it), so long random runs cross the compaction of the
// slots before the head many times.
import { describe, expect, it } from 'vitest';
import { LinkQueue, type LinkItem } from '../../src/scheduler/state.js';
import { Rng } from '../../src/util/rng.js';

const keyOf = (item: LinkItem): string => (item.kind === 'input' ? `i${item.fileId}` : `o${item.workId}`);

/** The FIFO as an array, and the entries that may go as a set of keys. */
class Model {
  items: LinkItem[] = [];
  mayGo = new Set<string>();

  has(item: LinkItem): boolean {
    return this.items.some((i) => keyOf(i) === keyOf(item));
  }
  push(item: LinkItem): boolean {
    if (this.has(item)) return false;
    this.items.push(item);
    this.mayGo.add(keyOf(item));
    return true;
  }
  insertByPlan(item: LinkItem): boolean {
    if (this.has(item)) return false;
    let k = this.items.length;
    while (k > 0 && this.items[k - 1]!.planS > item.planS) k--;
    this.items.splice(k, 0, item);
    this.mayGo.add(keyOf(item));
    return true;
  }
  removeAt(k: number): LinkItem {
    const [item] = this.items.splice(k, 1);
    this.mayGo.delete(keyOf(item!));
    return item!;
  }
  firstMayGo(from: number): number {
    for (let k = from; k < this.items.length; k++) if (this.mayGo.has(keyOf(this.items[k]!))) return k;
    return -1;
  }
}

function randomItem(rng: Rng): LinkItem {
  const planS = rng.int(20);
  return rng.int(2) === 0 ? { kind: 'input', fileId: rng.int(2000), planS } : { kind: 'output', workId: rng.int(2000), planS };
}

describe('LinkQueue', () => {
  it('holds the same entries in the same order as an array under random pushes, inserts and removals on either side', () => {
    for (let seed = 1; seed <= 3; seed++) {
      const rng = new Rng(seed);
      const queue = new LinkQueue();
      const model = new Model();
      for (let step = 0; step < 20_000; step++) {
        // Phases that mostly fill the FIFO, then mostly take its head: it grows long, and its head moves far.
        const filling = Math.floor(step / 2500) % 2 === 0;
        const op = rng.int(100);
        if (op < (filling ? 35 : 10)) {
          const item = randomItem(rng);
          expect(queue.push(item)).toBe(model.push(item));
        } else if (op < (filling ? 70 : 20)) {
          const item = randomItem(rng);
          expect(queue.insertByPlan(item)).toBe(model.insertByPlan(item));
        } else if (op < 80 && model.items.length > 0) {
          // Mostly the head, as a link's FIFO is used; sometimes anywhere.
          const k = rng.int(3) === 0 ? rng.int(model.items.length) : 0;
          expect(queue.removeAt(k)).toBe(model.removeAt(k));
        } else if (op < 84) {
          // Mostly an output that is queued (maybe one queued again after it left).
          const queuedOutputs = model.items.filter((i) => i.kind === 'output');
          const workId = queuedOutputs.length > 0 && rng.int(4) > 0 ? (queuedOutputs[rng.int(queuedOutputs.length)] as { workId: number }).workId : rng.int(2000);
          queue.removeOutput(workId);
          const k = model.items.findIndex((i) => i.kind === 'output' && i.workId === workId);
          if (k >= 0) model.removeAt(k);
        } else if (op < 92 && model.items.length > 0) {
          const k = rng.int(model.items.length);
          queue.cannotGo(k);
          model.mayGo.delete(keyOf(model.items[k]!));
        } else if (op < 96) {
          const workId = rng.int(2000);
          queue.mayGo(workId);
          if (model.items.some((i) => i.kind === 'output' && i.workId === workId)) model.mayGo.add(`o${workId}`);
        } else if (op < 97) {
          queue.sortByPlan();
          model.items = model.items.map((item, k) => ({ item, k })).sort((a, b) => a.item.planS - b.item.planS || a.k - b.k).map((x) => x.item);
        } else if (op < 98) {
          queue.allMayGo();
          for (const item of model.items) model.mayGo.add(keyOf(item));
        }
        const from = model.items.length === 0 ? 0 : rng.int(model.items.length);
        expect(queue.firstMayGo(from)).toBe(model.firstMayGo(from));
        expect(queue.length).toBe(model.items.length);
        if (model.items.length > 0) {
          const k = rng.int(model.items.length);
          expect(queue.at(k)).toBe(model.items[k]);
        }
        if (step % 500 === 0) expect(queue.list()).toEqual(model.items);
      }
      expect(queue.list()).toEqual(model.items);
    }
  });

  it('keeps its order while the head of a long FIFO leaves again and again (the slots before it reused)', () => {
    const queue = new LinkQueue();
    for (let w = 0; w < 5000; w++) queue.push({ kind: 'output', workId: w, planS: w });
    for (let w = 0; w < 4990; w++) expect(queue.removeAt(0)).toEqual({ kind: 'output', workId: w, planS: w });
    expect(queue.list().map((i) => (i.kind === 'output' ? i.workId : -1))).toEqual([4990, 4991, 4992, 4993, 4994, 4995, 4996, 4997, 4998, 4999]);
  });
});

describe('LinkQueue.removeOutput', () => {
  it('finds the output where the FIFO now is, not in a slot the head has left', () => {
    const queue = new LinkQueue();
    for (let w = 0; w < 10; w++) queue.push({ kind: 'output', workId: w, planS: w });
    queue.removeAt(0);
    // Output 0 queued again, at the tail; the slot before the head still holds the one that left.
    queue.push({ kind: 'output', workId: 0, planS: 20 });
    queue.removeOutput(0);
    expect(queue.list().map((i) => (i.kind === 'output' ? i.workId : -1))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
