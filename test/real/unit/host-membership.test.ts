// The host membership table (backends/real/gridos/host-membership.ts), move by move: each legal move's
// grid event and what the scheduler hears, and every move outside the table thrown as a bug.
import { describe, expect, it } from 'vitest';
import { HostMembership, IllegalHostMove, SchedulerTell, type HostStatus, type MoveCause } from '../../../backends/real/gridos/host-membership.js';
import { FakeEndpoint, FakeStorage } from './support/fake-endpoint.js';
import { SchedulerLog } from './support/grid-harness.js';

const STATUSES: readonly HostStatus[] = ['joining', 'active', 'set-aside', 'down', 'leaving', 'left'];
const CAUSES: readonly MoveCause[] = [
  { why: 'answered' },
  { why: 'set-aside', seconds: 30 },
  { why: 'set-aside-over' },
  { why: 'machine-lost' },
  { why: 'cluster-lost' },
  { why: 'cluster-failed' },
  { why: 'removed' },
];

/** A membership of one host h1 and what it records, the host brought to `path`'s last state by `path`'s moves. */
function hostAfter(path: readonly [HostStatus, MoveCause][]) {
  const events: string[] = [];
  const m = new HostMembership({ nowS: () => 7, hostAdded: (i) => events.push(`ADD_HOST ${i.id}`), hostRemoved: (id) => events.push(`REMOVE_HOST ${id}`) });
  const e = new FakeEndpoint('m1', ['h1'], 'c1', new FakeStorage());
  const h = m.add({ id: 'h1', clusterId: 'c1', arch: 0 }, e);
  for (const [to, cause] of path) m.move(h, to, cause, new SchedulerTell());
  events.length = 0;
  return { m, h, events };
}

/** How to reach each state (leaving: offered; 'leaving-withdrawn': set aside while leaving). */
const REACH: Record<string, readonly [HostStatus, MoveCause][]> = {
  joining: [],
  active: [['active', { why: 'answered' }]],
  'set-aside': [['active', { why: 'answered' }], ['set-aside', { why: 'set-aside', seconds: 30 }]],
  down: [['active', { why: 'answered' }], ['down', { why: 'machine-lost' }]],
  leaving: [['active', { why: 'answered' }], ['leaving', { why: 'removed' }]],
  'leaving-withdrawn': [['active', { why: 'answered' }], ['leaving', { why: 'removed' }], ['leaving', { why: 'cluster-failed' }]],
  left: [['left', { why: 'removed' }]],
};

/** Each legal move: from, to, cause → [grid events, scheduler calls]; hand-written from the table in the file's header. */
const LEGAL: readonly [string, HostStatus, MoveCause['why'], string[], string[]][] = [
  ['joining', 'active', 'answered', ['ADD_HOST h1'], ['new_host h1']],
  ['down', 'active', 'answered', ['ADD_HOST h1'], ['new_host h1']],
  ['set-aside', 'active', 'set-aside-over', ['ADD_HOST h1'], ['new_host h1']],
  ['set-aside', 'down', 'set-aside-over', [], []],
  ['active', 'set-aside', 'set-aside', ['REMOVE_HOST h1'], ['host_failed h1']],
  ['active', 'down', 'machine-lost', ['REMOVE_HOST h1'], ['host_failed h1']],
  ['active', 'down', 'cluster-lost', ['REMOVE_HOST h1'], []],
  ['active', 'down', 'cluster-failed', ['REMOVE_HOST h1'], []],
  ['active', 'leaving', 'removed', [], []],
  ['leaving', 'leaving', 'set-aside', ['REMOVE_HOST h1'], ['host_failed h1']],
  ['leaving', 'leaving', 'cluster-failed', ['REMOVE_HOST h1'], []],
  ['joining', 'left', 'removed', [], ['host_failed h1']],
  ['active', 'left', 'removed', ['REMOVE_HOST h1'], ['host_failed h1']],
  ['set-aside', 'left', 'removed', [], ['host_failed h1']],
  ['down', 'left', 'removed', [], ['host_failed h1']],
  ['leaving', 'left', 'removed', ['REMOVE_HOST h1'], ['host_failed h1']],
  ['leaving-withdrawn', 'left', 'removed', [], ['host_failed h1']],
  ['leaving', 'left', 'machine-lost', ['REMOVE_HOST h1'], ['host_failed h1']],
  ['leaving-withdrawn', 'left', 'machine-lost', [], []],
  ['leaving', 'left', 'cluster-lost', ['REMOVE_HOST h1'], []],
];

function causeOf(why: MoveCause['why']): MoveCause {
  return CAUSES.find((c) => c.why === why)!;
}

describe('host membership table', () => {
  it.each(LEGAL)('%s → %s (%s)', (from, to, why, gridEvents, told) => {
    const { m, h, events } = hostAfter(REACH[from]!);
    const tell = new SchedulerTell();
    m.move(h, to, causeOf(why), tell);
    expect(h.state.kind).toBe(to);
    expect(events).toEqual(gridEvents);
    const scheduler = new SchedulerLog();
    tell.send(scheduler);
    expect(scheduler.calls).toEqual(told);
  });

  it('every other move is a bug: it throws and changes nothing', () => {
    const legal = new Set(LEGAL.map(([from, to, why]) => `${from === 'leaving-withdrawn' ? 'leaving' : from}>${to}:${why}`));
    let illegal = 0;
    for (const from of STATUSES)
      for (const to of STATUSES)
        for (const cause of CAUSES) {
          if (legal.has(`${from}>${to}:${cause.why}`)) continue;
          const { m, h, events } = hostAfter(REACH[from]!);
          const before = h.state;
          const tell = new SchedulerTell();
          expect(() => m.move(h, to, cause, tell), `${from} → ${to} (${cause.why})`).toThrow(IllegalHostMove);
          expect(h.state).toBe(before);
          expect(events).toEqual([]);
          expect(tell.newHosts.length + tell.failedHosts.length).toBe(0);
          illegal++;
        }
    // 6 × 6 × 7 = 252 (from, to, cause) triples, 18 of them legal.
    expect(illegal).toBe(252 - 18);
  });

  it('a host of another membership (or replaced by a machine of the same host names) cannot be moved', () => {
    const a = hostAfter([]);
    const b = hostAfter([]);
    expect(() => a.m.move(b.h, 'active', { why: 'answered' }, new SchedulerTell())).toThrow(/not a member/);
  });

  it('hosts moved by one event reach the scheduler in one call', () => {
    const m = new HostMembership({ nowS: () => 0, hostAdded: () => undefined, hostRemoved: () => undefined });
    const e = new FakeEndpoint('m1', ['h1', 'h2'], 'c1', new FakeStorage());
    const hs = ['h1', 'h2'].map((id) => m.add({ id, clusterId: 'c1', arch: 0 }, e));
    const tell = new SchedulerTell();
    for (const h of hs) m.move(h, 'active', { why: 'answered' }, tell);
    const scheduler = new SchedulerLog();
    tell.send(scheduler);
    tell.send(scheduler); // sent once only
    expect(scheduler.calls).toEqual(['new_host h1 h2']);
  });
});
