// Where each host of a real run stands, as one explicit state, and the one function that moves it: the move
// is checked against the table below (a move not in it is a bug and throws), written to the run record
// (ADD_HOST / REMOVE_HOST: a host counts in the scheduler's grid while `offered`), and what the scheduler
// must hear is added to a SchedulerTell, which the caller sends once the moves of one event are made (so
// that hosts lost or offered together reach the scheduler in one call, as a re-plan should see them).
//
//   from                  to                    cause            record       scheduler
//   joining               active                answered         ADD_HOST     sched_new_host
//   down                  active                answered         ADD_HOST     sched_new_host   (back)
//   set-aside             active                set-aside-over   ADD_HOST     sched_new_host
//   set-aside             down                  set-aside-over   -            -   (machine or cluster not up:
//                                                                                   offered when it answers)
//   active                set-aside             set-aside        REMOVE_HOST  sched_host_failed
//   active                down                  machine-lost     REMOVE_HOST  sched_host_failed
//   active                down                  cluster-lost,    REMOVE_HOST  -   (the cluster's
//                                               cluster-failed                     sched_disk_failed says it)
//   active                leaving (offered)     removed          -            -   (hostIsLeaving says it)
//   leaving (offered)     leaving (withdrawn)   set-aside        REMOVE_HOST  sched_host_failed
//   leaving (offered)     leaving (withdrawn)   cluster-failed   REMOVE_HOST  -
//   joining, active,      left                  removed          REMOVE_HOST  sched_host_failed (always: a
//   set-aside, down,                                             if offered   host failed before is reported
//   leaving                                                                   again, now hostRemoved)
//   leaving               left                  machine-lost     REMOVE_HOST  sched_host_failed if offered
//                                                                if offered
//   leaving               left                  cluster-lost     REMOVE_HOST  -
//                                                                if offered
//
// `left` is final. A host whose machine goes down while joining, set aside or down does not move (it is
// not in the scheduler's grid); a set-aside host is offered again only when its time is up.
import type { HostInfo } from '../../../src/interfaces/information.js';
import type { SchedulerEvents } from '../../../src/interfaces/scheduler-events.js';
import type { WorkId } from '../../../src/model/application.js';
import type { HostId } from '../../../src/model/grid.js';
import type { Endpoint } from '../../transport/endpoint.js';

export type HostState =
  /** Registered; its machine has not answered yet (at the start, or added to the real grid file). */
  | { readonly kind: 'joining' }
  /** In the scheduler's grid: it may be given Works. */
  | { readonly kind: 'active'; readonly sinceS: number }
  /** Out of the scheduler's grid after repeated task failures, until `untilS` (run clock). */
  | { readonly kind: 'set-aside'; readonly untilS: number }
  /** Out of the scheduler's grid: its machine or its cluster went down; offered again when it answers. */
  | { readonly kind: 'down'; readonly sinceS: number; readonly cause: MoveCause['why'] }
  /**
   * Removed from the real grid file while computing: finishes that task, takes no new one, then leaves.
   * `offered`: still in the scheduler's grid (false once set aside or its cluster failed under it).
   */
  | { readonly kind: 'leaving'; readonly offered: boolean }
  /** Gone for good (removed from the real grid file): hostRemoved. */
  | { readonly kind: 'left'; readonly atS: number };

export type HostStatus = HostState['kind'];

export type MoveCause =
  /** Its machine answered (at the start, late, or back after going down), or its failed cluster is offered again. */
  | { readonly why: 'answered' }
  /** Repeated task failures on it (the retry policy's verdict). */
  | { readonly why: 'set-aside'; readonly seconds: number }
  | { readonly why: 'set-aside-over' }
  /** Its machine (the connection to it) went down; its cluster has another machine up. */
  | { readonly why: 'machine-lost' }
  /** Its machine went down and it was the cluster's last one: the cluster is down. */
  | { readonly why: 'cluster-lost' }
  /** Its cluster's storage misbehaved (an input refused, outputs not verified): the cluster is failed. */
  | { readonly why: 'cluster-failed' }
  /** Removed from the real grid file (or a pilot whose time is up). */
  | { readonly why: 'removed' };

/** A task attempt running on a host. */
export interface RunningWork {
  readonly work: WorkId;
  readonly workKey: string;
  readonly subtaskId: number;
  /** Sent to the host (a task cancelled before that has nothing to kill there). */
  sent: boolean;
  /** Killed for running past the task time limit: its exit is that, not the task's own failure. */
  timedOut?: boolean;
}

export interface Host {
  readonly info: HostInfo;
  readonly endpoint: Endpoint;
  /** Written only by HostMembership.move. */
  readonly state: HostState;
  running?: RunningWork;
}

type Edge = `${HostStatus}>${HostStatus}:${MoveCause['why']}`;

/** The table above, as (from > to : cause). */
const LEGAL: ReadonlySet<Edge> = new Set<Edge>([
  'joining>active:answered',
  'down>active:answered',
  'set-aside>active:set-aside-over',
  'set-aside>down:set-aside-over',
  'active>set-aside:set-aside',
  'active>down:machine-lost',
  'active>down:cluster-lost',
  'active>down:cluster-failed',
  'active>leaving:removed',
  'leaving>leaving:set-aside',
  'leaving>leaving:cluster-failed',
  'joining>left:removed',
  'active>left:removed',
  'set-aside>left:removed',
  'down>left:removed',
  'leaving>left:removed',
  'leaving>left:machine-lost',
  'leaving>left:cluster-lost',
]);

/** In the scheduler's grid (topology lists it; compute may be called on it unless leaving). */
export function offered(s: HostState): boolean {
  return s.kind === 'active' || (s.kind === 'leaving' && s.offered);
}

/** A move that breaks the table: a bug of the controller's, never a condition of the grid. */
export class IllegalHostMove extends Error {
  constructor(host: HostId, from: HostState, to: HostStatus, cause: MoveCause['why']) {
    super(`bug: host ${host} cannot move from ${describe(from)} to ${to} (${cause}); see host-membership.ts for the moves allowed`);
    this.name = 'IllegalHostMove';
  }
}

function describe(s: HostState): string {
  return s.kind === 'leaving' ? `leaving (${s.offered ? 'offered' : 'withdrawn'})` : s.kind;
}

/** What the scheduler must hear after one event's moves; `send` tells it, failures first. */
export class SchedulerTell {
  readonly newHosts: HostInfo[] = [];
  readonly failedHosts: HostId[] = [];

  /** Nothing is told before the scheduler is attached (announceAll then offers every host that is up). */
  send(events: SchedulerEvents | undefined): void {
    if (!events) return;
    if (this.failedHosts.length > 0) events.sched_host_failed(this.failedHosts.splice(0));
    if (this.newHosts.length > 0) events.sched_new_host(this.newHosts.splice(0));
  }
}

export interface MembershipHooks {
  nowS(): number;
  hostAdded(info: HostInfo): void;
  hostRemoved(id: HostId): void;
}

export class HostMembership {
  private readonly hosts = new Map<HostId, Host & { state: HostState }>();

  constructor(private readonly hooks: MembershipHooks) {}

  /** A host of a machine that joins the run (replacing the record of a host of the same name that left). */
  add(info: HostInfo, endpoint: Endpoint): Host {
    const h = { info, endpoint, state: { kind: 'joining' } as HostState };
    this.hosts.set(info.id, h);
    return h;
  }

  get(id: HostId): Host {
    const h = this.hosts.get(id);
    if (!h) throw new Error(`unknown host ${id}`);
    return h;
  }

  find(id: HostId): Host | undefined {
    return this.hosts.get(id);
  }

  all(): IterableIterator<Host> {
    return this.hosts.values();
  }

  /**
   * THE transition: checks `h`'s move to `to` for `cause` against the table, makes it, writes the run
   * record's grid event and adds to `tell` what the scheduler must hear. Throws IllegalHostMove otherwise.
   */
  move(host: Host, to: HostStatus, cause: MoveCause, tell: SchedulerTell): void {
    const h = this.hosts.get(host.info.id);
    if (h !== host) throw new Error(`bug: host ${host.info.id} is not a member of this run`);
    const from = h.state;
    if (!LEGAL.has(`${from.kind}>${to}:${cause.why}`)) throw new IllegalHostMove(h.info.id, from, to, cause.why);
    const t = this.hooks.nowS();
    const wasOffered = offered(from);
    const next = nextState(from, to, cause, t);
    h.state = next;
    const isOffered = offered(next);
    if (!wasOffered && isOffered) this.hooks.hostAdded(h.info);
    if (wasOffered && !isOffered) this.hooks.hostRemoved(h.info.id);
    if (isOffered && !wasOffered) tell.newHosts.push(h.info);
    else if (tellsFailure(to, cause, wasOffered)) tell.failedHosts.push(h.info.id);
  }
}

function nextState(from: HostState, to: HostStatus, cause: MoveCause, t: number): HostState {
  switch (to) {
    case 'joining':
      return { kind: 'joining' };
    case 'active':
      return { kind: 'active', sinceS: t };
    case 'set-aside':
      return { kind: 'set-aside', untilS: t + (cause.why === 'set-aside' ? cause.seconds : 0) };
    case 'down':
      return { kind: 'down', sinceS: t, cause: cause.why };
    case 'leaving':
      // active → leaving stays offered; leaving → leaving withdraws it from the scheduler's grid
      return { kind: 'leaving', offered: from.kind === 'active' };
    case 'left':
      return { kind: 'left', atS: t };
  }
}

function tellsFailure(to: HostStatus, cause: MoveCause, wasOffered: boolean): boolean {
  switch (cause.why) {
    case 'set-aside':
      return true;
    case 'removed':
      return to === 'left';
    case 'machine-lost':
      return wasOffered;
    default:
      return false;
  }
}
