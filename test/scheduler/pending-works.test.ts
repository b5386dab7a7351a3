// The bookkeeping that keeps a plan's cost proportional to what it places: the ordered todo set, the
// incremental usage counts (checked against a recount after every move of random runs), and link FIFO
// insertion by planned time; and what a FIFO head waiting for its inputs depends on.
import { describe, expect, it } from 'vitest';
import { LinkQueue, OrderedIdSet, PendingWorks, WaitingHead, type ClusterState, type WorkState, type WorkStatus } from '../../src/scheduler/state.js';
import { Rng } from '../../src/util/rng.js';
import { work } from './support/harness.js';

const STATUSES: readonly WorkStatus[] = ['todo', 'queued', 'running', 'computed', 'retrieving', 'done', 'failed'];

/** What PendingWorks must agree with: a plain scan of every Work. */
function recount(works: ReadonlyMap<number, WorkState>) {
  const usage = new Map<number, number>();
  const todo: number[] = [];
  const computed: number[] = [];
  for (const ws of works.values()) {
    if (ws.status === 'todo') todo.push(ws.spec.id);
    if (ws.status === 'computed') computed.push(ws.spec.id);
    if (ws.status !== 'todo' && ws.status !== 'queued') continue;
    for (const f of new Set(ws.spec.inputs)) usage.set(f, (usage.get(f) ?? 0) + 1);
  }
  return { usage, todo: todo.sort((a, b) => a - b), computed };
}

describe('OrderedIdSet', () => {
  it('lists members in increasing order, the first k of them, across blocks and growth', () => {
    const set = new OrderedIdSet();
    for (const id of [5000, 3, 700, 256, 255, 0, 1_000]) set.add(id);
    set.add(700);
    set.delete(255);
    set.delete(12345);
    expect(set.size).toBe(6);
    expect([...set.first()]).toEqual([0, 3, 256, 700, 1000, 5000]);
    expect([...set.first(3)]).toEqual([0, 3, 256]);
    expect(set.has(256) && !set.has(255)).toBe(true);
  });

  it('refuses an id that is not an index', () => {
    expect(() => new OrderedIdSet().add(-1)).toThrow(/not an index/);
    expect(() => new OrderedIdSet().add(1.5)).toThrow(/not an index/);
  });
});

describe('PendingWorks', () => {
  it('agrees with a recount after every status move of random runs', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rng = new Rng(seed);
      const works = new Map<number, WorkState>();
      const pending = new PendingWorks(works);
      const ids = Array.from({ length: 60 }, (_, k) => (k * 37) % 60); // a permutation: arrival order ≠ id order
      for (const id of ids.slice(0, 40)) {
        const inputs = Array.from({ length: 1 + rng.int(3) }, () => rng.int(10)); // shared files, sometimes twice
        const ws: WorkState = { spec: work(id, inputs, [100 + id], [10]), status: 'todo', host: null, executions: 0, exitFailures: 0 };
        works.set(id, ws);
        pending.track(ws);
      }
      for (let step = 0; step < 400; step++) {
        const ws = works.get(ids[rng.int(40)]!)!;
        const from = ws.status;
        ws.status = STATUSES[rng.int(STATUSES.length)]!;
        pending.moved(ws, from);
        const want = recount(works);
        expect(new Map(pending.usage), `seed ${seed} step ${step}`).toEqual(want.usage);
        expect(pending.usage.size).toBe(want.usage.size);
        expect(pending.todo().map((w) => w.id)).toEqual(want.todo);
        expect(pending.todoCount).toBe(want.todo.length);
        expect(pending.todo(3).map((w) => w.id)).toEqual(want.todo.slice(0, 3));
        expect(pending.computed().map((w) => w.spec.id)).toEqual(want.computed);
      }
      // Built by one scan, it is the same view.
      const scanned = PendingWorks.of(works);
      expect([...scanned.usage]).toEqual([...pending.usage]);
      expect(scanned.todo()).toEqual(pending.todo());
      expect(scanned.computed()).toEqual(pending.computed());
    }
  });
});

describe('LinkQueue.insertByPlan', () => {
  it('goes behind every entry planned at or before it, and never queues a file twice', () => {
    const q = new LinkQueue();
    q.push({ kind: 'output', workId: 1, planS: 5 });
    q.push({ kind: 'input', fileId: 1, planS: 10 });
    q.push({ kind: 'output', workId: 2, planS: 30 });
    const v = q.version;
    expect(q.insertByPlan({ kind: 'input', fileId: 2, planS: 10 })).toBe(true);
    expect(q.insertByPlan({ kind: 'input', fileId: 3, planS: 40 })).toBe(true);
    expect(q.insertByPlan({ kind: 'input', fileId: 1, planS: 0 })).toBe(false);
    expect(q.list().map((i) => (i.kind === 'input' ? `f${i.fileId}` : `w${i.workId}`))).toEqual(['w1', 'f1', 'f2', 'w2', 'f3']);
    expect(q.hasInput(2)).toBe(true);
    expect(q.version).toBeGreaterThan(v);
  });
});

describe('WaitingHead', () => {
  it('stays unchanged until the head changes, its missing input is stored, link entries are dropped or the stored files are replaced', () => {
    const cluster: ClusterState = {
      id: 'c',
      up: true,
      queue: new LinkQueue(),
      busy: null,
      worksVersion: 0,
      nothingToSend: { queue: -1, works: -1 },
      stored: new Set([1]),
    };
    const waiting = new WaitingHead();
    expect(waiting.unchanged(7, cluster, 0)).toBe(false); // never recorded
    // Work 7 reads files 1 (stored) and 2 (missing, on its way).
    waiting.record(7, cluster, 2, 0);
    expect(waiting.unchanged(7, cluster, 0)).toBe(true);
    expect(waiting.unchanged(8, cluster, 0)).toBe(false);
    expect(waiting.unchanged(7, cluster, 1)).toBe(false);
    // What does not concern the head leaves it waiting: the link FIFO moving, another file stored.
    cluster.queue.push({ kind: 'input', fileId: 3, planS: 0 });
    cluster.busy = { item: { kind: 'input', fileId: 3, planS: 0 }, startS: 0, estEndS: 1 };
    cluster.stored.add(4);
    expect(waiting.unchanged(7, cluster, 0)).toBe(true);
    const changes: ((c: ClusterState) => void)[] = [(c) => c.stored.add(2), (c) => (c.stored = new Set(c.stored))];
    for (const change of changes) {
      cluster.stored = new Set([1]);
      waiting.record(7, cluster, 2, 0);
      change(cluster);
      expect(waiting.unchanged(7, cluster, 0)).toBe(false);
    }
  });
});
