// Each move of a host's membership in a real run, driven through RealGridOS over fake machines: what the
// scheduler is told (SchedulerLog), what the run record says (grid events), what the journal says. The
// moves are those of backends/real/gridos/host-membership.ts's table: joined, set aside and back, leaving,
// left, down, back, and the Works recovered when a machine that blinked answers again (finished while it
// was away, or adopted: still running then, its exit watched).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeEndpoint } from './support/fake-endpoint.js';
import { makeHarness, settle, until, type Harness } from './support/grid-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function machine(name: string): FakeEndpoint {
  const m = h!.machines.get(name);
  if (!m) throw new Error(`no machine ${name}`);
  return m;
}

/** Runs Work `work` on `host` (machine `m`) until it is computing there. */
async function computing(work: number, host: string, m: string, attempt = 1): Promise<void> {
  h!.grid.compute(work, host);
  await until(() => machine(m).running(`w${work}.a${attempt}`), `w${work}.a${attempt} running on ${m}`);
}

describe('host membership', { timeout: 5000 }, () => {
  it('joined: a machine that answers at the start has its cluster and hosts offered once', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1', 'h2'] } } });
    await h.start();
    expect(h.scheduler.calls).toEqual(['new_host h1 h2']);
    // The cluster is added before its hosts (a run record's hosts belong to a cluster already there).
    expect(h.gridEvents()).toEqual(['ADD_CLUSTER c1', 'ADD_HOST h1', 'ADD_HOST h2']);
    expect(h.grid.topology().hosts.map((x) => x.id)).toEqual(['h1', 'h2']);
    expect(h.grid.upHostCount()).toBe(2);
  });

  it('joined late: a machine that answers after the start (or is added to the grid file) is offered when it answers', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } } });
    machine('m2').refuseConnect = { message: 'connection refused' };
    await h.start();
    expect(h.scheduler.calls).toEqual(['new_host h1']);
    machine('m2').refuseConnect = undefined;
    await until(() => h!.scheduler.calls.length === 2, 'm2 offered');
    expect(h.scheduler.calls).toEqual(['new_host h1', 'new_host h2']);
    // Added to the real grid file while the run goes on.
    const m3 = new FakeEndpoint('m3', ['h3'], 'c1', h.storages.get('c1')!);
    h.grid.join('c1', m3);
    await until(() => h!.scheduler.calls.length === 3, 'm3 offered');
    expect(h.scheduler.calls[2]).toBe('new_host h3');
    expect(h.log.some((e) => e.kind === 'joining' && e.machine === 'm3')).toBe(true);
    expect(h.gridEvents()).toEqual(['ADD_CLUSTER c1', 'ADD_HOST h1', 'ADD_HOST h2', 'ADD_HOST h3']);
  });

  it('set aside after repeated task failures, then offered again when the time is up', async () => {
    h = makeHarness({ hostFailuresToSetAside: 2, setAsideS: 0.05 });
    await h.start();
    for (const w of [0, 1]) {
      await computing(w, 'h1', 'm1');
      machine('m1').finish(`w${w}.a1`, 1);
      await until(() => h!.scheduler.calls.some((c) => c.startsWith(`work_failed ${w}`)), `Work ${w} failed`);
    }
    // The second failure in a row sets h1 aside: removed from the scheduler's grid...
    expect(h.scheduler.calls).toEqual(['new_host h1', 'work_failed 0 h1 exit', 'work_failed 1 h1 exit', 'host_failed h1']);
    expect(h.gridEvents()).toEqual(['ADD_CLUSTER c1', 'ADD_HOST h1', 'REMOVE_HOST h1']);
    expect(h.grid.topology().hosts).toEqual([]);
    expect(() => h!.grid.compute(0, 'h1')).toThrow(/not available/);
    // ...and offered again 0.05 s later.
    await until(() => h!.scheduler.calls.length === 5, 'h1 back');
    expect(h.scheduler.calls[4]).toBe('new_host h1');
    expect(h.gridEvents().at(-1)).toBe('ADD_HOST h1');
  });

  it('leaving: a machine removed from the grid file while computing finishes its task, then leaves', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } } });
    await h.start();
    await computing(0, 'h1', 'm1');
    h.grid.retire('c1', 'm1');
    expect(h.grid.hostIsLeaving('h1')).toBe(true);
    expect(h.grid.hostRemoved('h1')).toBe(false);
    expect(h.log.find((e) => e.kind === 'leaving')).toEqual({ kind: 'leaving', machine: 'm1', running: [0] });
    expect(() => h!.grid.compute(1, 'h1')).toThrow(/already computing|leaving/);
    machine('m1').finish('w0.a1', 0);
    await until(() => h!.grid.hostRemoved('h1'), 'h1 left');
    // Done first (its outputs are kept), then gone for good.
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'work_done 0 h1', 'host_failed h1']);
    expect(h.grid.hostIsLeaving('h1')).toBe(false);
    expect(h.gridEvents()).toEqual(['ADD_CLUSTER c1', 'ADD_HOST h1', 'ADD_HOST h2', 'REMOVE_HOST h1']);
    await settle();
    expect(machine('m1').closed).toBe(true);
    expect(h.log.some((e) => e.kind === 'left' && e.machine === 'm1')).toBe(true);
  });

  it('left: an idle machine removed from the grid file leaves at once and is not offered again', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } } });
    await h.start();
    h.grid.retire('c1', 'm2');
    expect(h.grid.hostRemoved('h2')).toBe(true);
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'host_failed h2']);
    // A Work that failed on h1 is no longer kept off the only host left.
    await computing(0, 'h1', 'm1');
    machine('m1').finish('w0.a1', 1);
    await until(() => h!.scheduler.calls.length === 3, 'Work 0 failed');
    expect(h.grid.hostsToAvoid(0).size).toBe(0);
  });

  it('leaving, then its machine lost: it has left (not reconnected, not offered again)', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } }, reconnectS: 0.01 });
    await h.start();
    await computing(0, 'h1', 'm1');
    h.grid.retire('c1', 'm1');
    machine('m1').goDown('connection reset');
    expect(h.grid.hostRemoved('h1')).toBe(true);
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'host_failed h1']);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'host_failed h1']);
  });

  it('down: a machine lost while computing fails its host; its attempt ends unfinished in record and journal', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } }, reconnectS: 10 });
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').goDown('connection reset');
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'host_failed h1']);
    expect(h.gridEvents().at(-1)).toBe('REMOVE_HOST h1');
    expect(h.record.filter((r) => r.type === 'end')).toEqual([expect.objectContaining({ ok: false })]);
    await settle();
    expect(h.journal.entries.at(-1)).toMatchObject({ type: 'failed', work: 0, host: 'h1', final: false });
    expect(h.grid.hostRemoved('h1')).toBe(false);
  });

  it('down: the last machine of a cluster lost takes the cluster down (one disk failure, no host failure)', async () => {
    h = makeHarness({ reconnectS: 10 });
    await h.start();
    machine('m1').goDown('connection reset');
    expect(h.scheduler.calls).toEqual(['new_host h1', 'disk_failed c1']);
    expect(h.gridEvents()).toEqual(['ADD_CLUSTER c1', 'ADD_HOST h1', 'REMOVE_HOST h1', 'REMOVE_CLUSTER c1']);
    expect(h.grid.topology()).toEqual({ clusters: [], hosts: [] });
  });

  it('back: a machine that answers again after going down is offered again, its cluster first', async () => {
    h = makeHarness({ reconnectS: 0.02 });
    await h.start();
    machine('m1').goDown('connection reset');
    await until(() => h!.scheduler.calls.length === 3, 'm1 back');
    expect(h.scheduler.calls).toEqual(['new_host h1', 'disk_failed c1', 'new_host h1']);
    expect(h.gridEvents()).toEqual(['ADD_CLUSTER c1', 'ADD_HOST h1', 'REMOVE_HOST h1', 'REMOVE_CLUSTER c1', 'ADD_CLUSTER c1', 'ADD_HOST h1']);
  });

  it('recovered: an attempt that finished while its machine was out of reach counts as computed there', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } }, reconnectS: 0.02 });
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').goDown('connection reset');
    machine('m1').finish('w0.a1', 0); // on the host, unseen by the controller
    await until(() => h!.scheduler.calls.some((c) => c.startsWith('recovered')), 'Work 0 recovered');
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'host_failed h1', 'new_host h1', 'recovered 0 h1']);
    expect(h.log.some((e) => e.kind === 'recovered' && e.work === 0)).toBe(true);
    // Its outputs come back as any computed Work's do.
    h.grid.retrieve(0, 'h1');
    await until(() => h!.grid.worksDone().has(0), 'Work 0 verified');
    expect(h.journal.lines()).toEqual(['started 0', 'failed 0', 'done 0', 'verified 0']);
  });

  it('back with the lost attempt still running: adopted, not killed; recovered when it exits 0 first', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } }, reconnectS: 0.02, samplePeriodS: 0.01 });
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').goDown('connection reset');
    await until(() => h!.log.some((e) => e.kind === 'adopted'), 'lost attempt adopted');
    await until(() => h!.scheduler.calls.length === 3, 'h1 back');
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'host_failed h1', 'new_host h1']);
    // The scheduler planned Work 0 again, here on h2; the adopted attempt w0.a1 runs on meanwhile.
    await computing(0, 'h2', 'm2', 2);
    await new Promise((r) => setTimeout(r, 30)); // a few looks at its directory
    expect(h.storages.get('c1')!.work.get('w0.a1')!.state).toBe('running');
    expect(machine('m1').calls).not.toContain('kill w0.a1');
    machine('m1').finish('w0.a1', 0);
    await until(() => h!.scheduler.calls.length === 4, 'Work 0 recovered');
    expect(h.scheduler.calls[3]).toBe('recovered 0 h1');
    expect(h.log.find((e) => e.kind === 'recovered')).toEqual({ kind: 'recovered', work: 0, host: 'h1', adopted: true });
    // The scheduler cancels its copy (GridOS.cancel), and the recovered outputs come back.
    h.grid.cancel(0, 'h2');
    expect(machine('m2').calls).toContain('kill w0.a2');
    h.grid.retrieve(0, 'h1');
    await until(() => h!.grid.worksDone().has(0), 'Work 0 verified');
    expect(readFileSync(join(h.originDir, 'out/0.txt'), 'utf8')).toBe('w0.a1 out/0.txt\n');
  });

  it('back after it was killed or restarted: the lost attempt, gone with it, is not adopted', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } }, reconnectS: 0.02, samplePeriodS: 0.01 });
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').goDown('connection reset');
    h.storages.get('c1')!.work.get('w0.a1')!.state = 'killed'; // its processes died with the machine
    await until(() => h!.scheduler.calls.length === 3, 'h1 back');
    await new Promise((r) => setTimeout(r, 30)); // the looks at lost attempts are over
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'host_failed h1', 'new_host h1']);
    expect(h.log.some((e) => e.kind === 'adopted')).toBe(false);
    // Work 0 runs again, as planned.
    await computing(0, 'h2', 'm2', 2);
  });

  it('an adopted attempt whose Work is computed first elsewhere is killed then, on its machine', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } }, reconnectS: 0.02, samplePeriodS: 0.01 });
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').goDown('connection reset');
    await until(() => h!.scheduler.calls.length === 3, 'h1 back');
    await computing(0, 'h2', 'm2', 2);
    machine('m2').finish('w0.a2', 0);
    await until(() => machine('m1').calls.includes('kill w0.a1'), 'adopted attempt killed');
    expect(h.storages.get('c1')!.work.get('w0.a1')!.state).toBe('killed');
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'host_failed h1', 'new_host h1', 'work_done 0 h2']);
  });

  it('an adopted attempt whose machine goes down again is looked for again when it answers', async () => {
    h = makeHarness({ reconnectS: 0.02, samplePeriodS: 0.01 });
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').goDown('connection reset');
    await until(() => h!.scheduler.calls.length === 3, 'm1 back');
    machine('m1').goDown('connection reset again');
    machine('m1').finish('w0.a1', 0);
    await until(() => h!.scheduler.calls.some((c) => c.startsWith('recovered')), 'Work 0 recovered');
    expect(h.scheduler.calls).toEqual(['new_host h1', 'disk_failed c1', 'new_host h1', 'disk_failed c1', 'new_host h1', 'recovered 0 h1']);
  });

  it('a lost attempt still running, looked for through another machine of its cluster, is neither adopted nor killed', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } }, reconnectS: 0.02, samplePeriodS: 0.01 });
    await h.start();
    await computing(0, 'h1', 'm1');
    machine('m1').refuseConnect = { message: 'no route to host' };
    machine('m1').goDown('connection reset');
    machine('m2').goDown('connection reset'); // the cluster is down
    await until(() => h!.scheduler.calls.length === 4, 'm2 back');
    await new Promise((r) => setTimeout(r, 30));
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'host_failed h1', 'disk_failed c1', 'new_host h2']);
    expect(h.log.some((e) => e.kind === 'adopted')).toBe(false);
    expect(machine('m2').calls).not.toContain('kill w0.a1');
    expect(h.storages.get('c1')!.work.get('w0.a1')!.state).toBe('running');
  });

  it('leaving and set aside: withdrawn from the scheduler at once, then it leaves (reported again, now removed)', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } }, hostFailuresToSetAside: 1 });
    await h.start();
    await computing(0, 'h1', 'm1');
    h.grid.retire('c1', 'm1');
    machine('m1').finish('w0.a1', 1);
    await until(() => h!.grid.hostRemoved('h1'), 'h1 left');
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'work_failed 0 h1 exit', 'host_failed h1', 'host_failed h1']);
    expect(h.gridEvents()).toEqual(['ADD_CLUSTER c1', 'ADD_HOST h1', 'ADD_HOST h2', 'REMOVE_HOST h1']);
    await new Promise((r) => setTimeout(r, 80)); // past the set-aside time: not offered again
    expect(h.scheduler.calls).toHaveLength(4);
  });

  it('leaving when its cluster fails: withdrawn with the cluster, then it leaves; the others are offered again', async () => {
    h = makeHarness({ clusters: { c1: { m1: ['h1'], m2: ['h2'] } }, reconnectS: 0.02 });
    await h.start();
    await computing(0, 'h1', 'm1');
    h.grid.retire('c1', 'm1');
    let removedWhenDiskFailed: boolean | undefined;
    h.scheduler.onCall = (call) => {
      if (call.startsWith('disk_failed')) removedWhenDiskFailed = h!.grid.hostRemoved('h1');
    };
    h.storages.get('c1')!.refuseFiles = 'Disk quota exceeded';
    h.grid.store(0, 'c1');
    await until(() => h!.scheduler.calls.length === 4, 'c1 offered again');
    // h1 is still leaving (not yet removed) when the scheduler hears of the cluster; it leaves right after.
    expect(removedWhenDiskFailed).toBe(false);
    expect(h.scheduler.calls).toEqual(['new_host h1 h2', 'disk_failed c1', 'host_failed h1', 'new_host h2']);
    expect(h.gridEvents()).toEqual(['ADD_CLUSTER c1', 'ADD_HOST h1', 'ADD_HOST h2', 'REMOVE_HOST h1', 'REMOVE_HOST h2', 'REMOVE_CLUSTER c1', 'ADD_CLUSTER c1', 'ADD_HOST h2']);
    expect(machine('m1').calls).toContain('kill w0.a1');
  });
});
