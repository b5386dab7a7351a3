// Grid generators: clusters of hosts with given availability levels and link bandwidth/latency, each
// either constant or a series drawn from a distribution, plus (optionally) transient resources: hosts and
// whole clusters that fail and come back at random times (REMOVE_HOST/ADD_HOST, REMOVE_CLUSTER/ADD_CLUSTER).
import type { GridDescription, GridEvent, HostBehavior, LinkBehavior, LinkSample } from '../model/grid.js';
import type { Rng } from '../util/rng.js';
import { checkDistribution, roundTo, sample, type Distribution } from './distribution.js';
import { MAX_GENERATED_HOSTS } from './spec-schemas.js';

export const GRID_FORMAT_VERSION = '1';

/** A constant value, or `samples` values drawn from a distribution (a circular behaviour series). */
export type SeriesSpec = number | { readonly distribution: Distribution; readonly samples: number };

export interface HostGroupSpec {
  readonly count: number;
  /** CPU availability in percent (0–100]. */
  readonly availabilityPct: SeriesSpec;
  /** Architecture index (default 0). */
  readonly arch?: number;
}

export interface ClusterSpec {
  /** Default `cluster<i>` (1-based). Hosts are named `<cluster>.h<k>` (1-based). */
  readonly name?: string;
  readonly hosts: readonly HostGroupSpec[];
  readonly bandwidthBps: SeriesSpec;
  readonly latencyMs: SeriesSpec;
}

/**
 * Failures and repairs until `horizonS`: each host (and each cluster, when its times are given) alternates
 * up periods drawn from `...UpS` and down periods drawn from `...DownS`. A host is up when both it and its
 * cluster are; the generator emits only the transitions of that combined state.
 */
export interface TransientSpec {
  readonly horizonS: number;
  readonly hostUpS?: Distribution;
  readonly hostDownS?: Distribution;
  readonly clusterUpS?: Distribution;
  readonly clusterDownS?: Distribution;
  /** Fraction (0–1) of hosts absent at time 0 that join at a time uniform in [0, horizonS) (default 0). */
  readonly lateJoinFraction?: number;
}

export interface GridSpec {
  readonly clusters: readonly ClusterSpec[];
  readonly transient?: TransientSpec;
}

/** Decimals kept in drawn series: availability to 0.01 %, latency to 0.001 ms, bandwidth to whole bytes/s. */
const AVAILABILITY_DECIMALS = 2;
const LATENCY_DECIMALS = 3;

function seriesLength(s: SeriesSpec): number {
  return typeof s === 'number' ? 1 : s.samples;
}

function drawSeries(s: SeriesSpec, length: number, decimals: number, rng: Rng): number[] {
  if (typeof s === 'number') return new Array<number>(length).fill(s);
  const drawn = Array.from({ length: s.samples }, () => roundTo(sample(s.distribution, rng), decimals));
  return Array.from({ length }, (_, i) => drawn[i % drawn.length]!);
}

function checkSeries(s: SeriesSpec, what: string, min: number, max: number): void {
  if (typeof s === 'number') {
    if (!(s >= min && s <= max)) throw new Error(`${what} must be in [${min}, ${max}], got ${s}`);
    return;
  }
  if (!Number.isInteger(s.samples) || s.samples < 1) throw new Error(`${what}: samples must be a whole number >= 1, got ${s.samples}`);
  checkDistribution(s.distribution, what);
}

/** A behaviour name for a number, safe in a file name: 10240 → "10240", 0.5 → "0p5". */
function tokenOf(x: number): string {
  return String(x).replace('.', 'p').replace('-', 'm');
}

interface Timeline {
  /** Times at which the state flips, ascending; the state starts as `initiallyUp`. */
  readonly flips: readonly number[];
  readonly initiallyUp: boolean;
}

/** The most failures and repairs one grid may draw: a grid description of millions of events is a typing mistake. */
export const MAX_TRANSIENT_FLIPS = 1_000_000;

/** `budget.left`: the flips the grid may still draw; past it, an error naming what to change. */
function drawTimeline(up: Distribution | undefined, down: Distribution | undefined, startS: number, horizonS: number, rng: Rng, budget: { left: number }): Timeline {
  const flips: number[] = [];
  const flip = (t: number): void => {
    if (--budget.left < 0) {
      throw new Error(`transient: more than ${MAX_TRANSIENT_FLIPS} failures and repairs before horizonS (${horizonS} s); shorten horizonS or lengthen the up and down times`);
    }
    flips.push(t);
  };
  const initiallyUp = startS <= 0;
  if (startS > 0) flip(startS);
  if (up && down) {
    let t = Math.max(0, startS);
    for (;;) {
      t += Math.max(1, roundTo(sample(up, rng), 0));
      if (t >= horizonS) break;
      flip(t);
      t += Math.max(1, roundTo(sample(down, rng), 0));
      if (t >= horizonS) break;
      flip(t);
    }
  }
  return { flips, initiallyUp };
}

/** A timeline read forward: its state at times that only grow. */
class TimelineCursor {
  up: boolean;
  private next = 0;

  constructor(private readonly tl: Timeline) {
    this.up = tl.initiallyUp;
  }

  /** The state at `timeS` (each flip at or before it counted once). */
  advanceTo(timeS: number): boolean {
    const flips = this.tl.flips;
    while (this.next < flips.length && flips[this.next]! <= timeS) {
      this.up = !this.up;
      this.next++;
    }
    return this.up;
  }
}

export function generateGrid(spec: GridSpec, rng: Rng): GridDescription {
  if (spec.clusters.length === 0) throw new Error('a grid needs at least one cluster');
  const hostCount = spec.clusters.reduce((n, c) => n + c.hosts.reduce((m, g) => m + g.count, 0), 0);
  if (hostCount > MAX_GENERATED_HOSTS) throw new Error(`clusters: ${hostCount} hosts in all, more than the ${MAX_GENERATED_HOSTS} a generated grid may have`);
  const behaviorRng = rng.fork();
  const transientRng = rng.fork();
  const linkBehaviors = new Map<string, LinkBehavior>();
  const hostBehaviors = new Map<string, HostBehavior>();
  const clusters: { name: string; behavior: string; hosts: { name: string; behavior: string; arch: number }[] }[] = [];
  const names = new Set<string>();

  spec.clusters.forEach((c, ci) => {
    const name = c.name ?? `cluster${ci + 1}`;
    if (names.has(name)) throw new Error(`cluster name '${name}' is used twice`);
    names.add(name);
    checkSeries(c.bandwidthBps, `${name}: bandwidthBps`, Number.MIN_VALUE, Infinity);
    checkSeries(c.latencyMs, `${name}: latencyMs`, 0, Infinity);
    const length = Math.max(seriesLength(c.bandwidthBps), seriesLength(c.latencyMs));
    const constantLink = typeof c.bandwidthBps === 'number' && typeof c.latencyMs === 'number';
    const linkName = constantLink ? `link_${tokenOf(c.bandwidthBps as number)}Bps_${tokenOf(c.latencyMs as number)}ms` : `${name}_link`;
    if (!linkBehaviors.has(linkName)) {
      const bw = drawSeries(c.bandwidthBps, length, 0, behaviorRng);
      const lat = drawSeries(c.latencyMs, length, LATENCY_DECIMALS, behaviorRng);
      const samples: LinkSample[] = bw.map((b, i) => ({ latencyMs: Math.max(0, lat[i]!), bandwidthBps: Math.max(1, b) }));
      linkBehaviors.set(linkName, { kind: 'link', name: linkName, samples });
    }
    const hosts: { name: string; behavior: string; arch: number }[] = [];
    for (const group of c.hosts) {
      if (!Number.isInteger(group.count) || group.count < 0) throw new Error(`${name}: host count must be a whole number >= 0, got ${group.count}`);
      checkSeries(group.availabilityPct, `${name}: availabilityPct`, 0, 100);
      const arch = group.arch ?? 0;
      if (!Number.isInteger(arch) || arch < 0) throw new Error(`${name}: arch must be a whole number >= 0, got ${arch}`);
      for (let k = 0; k < group.count; k++) {
        const hostName = `${name}.h${hosts.length + 1}`;
        let behavior: string;
        if (typeof group.availabilityPct === 'number') {
          behavior = `avail_${tokenOf(group.availabilityPct)}`;
          if (!hostBehaviors.has(behavior)) hostBehaviors.set(behavior, { kind: 'host', name: behavior, availabilityPct: [group.availabilityPct] });
        } else {
          behavior = `${hostName}_avail`;
          const values = drawSeries(group.availabilityPct, group.availabilityPct.samples, AVAILABILITY_DECIMALS, behaviorRng);
          hostBehaviors.set(behavior, { kind: 'host', name: behavior, availabilityPct: values.map((v) => Math.min(100, Math.max(0, v))) });
        }
        hosts.push({ name: hostName, behavior, arch });
      }
    }
    clusters.push({ name, behavior: linkName, hosts });
  });

  const events: GridEvent[] = spec.transient ? transientEvents(clusters, spec.transient, transientRng) : staticEvents(clusters);
  return { version: GRID_FORMAT_VERSION, events, linkBehaviors, hostBehaviors };
}

type GeneratedCluster = { name: string; behavior: string; hosts: { name: string; behavior: string; arch: number }[] };

function addCluster(c: GeneratedCluster, timeS: number): GridEvent {
  return { timeS, kind: 'ADD_CLUSTER', cluster: c.name, behavior: c.behavior, offset: 0 };
}

function addHost(c: GeneratedCluster, h: GeneratedCluster['hosts'][number], timeS: number): GridEvent {
  return { timeS, kind: 'ADD_HOST', cluster: c.name, host: h.name, behavior: h.behavior, offset: 0, arch: h.arch };
}

function staticEvents(clusters: readonly GeneratedCluster[]): GridEvent[] {
  return clusters.flatMap((c) => [addCluster(c, 0), ...c.hosts.map((h) => addHost(c, h, 0))]);
}

function transientEvents(clusters: readonly GeneratedCluster[], spec: TransientSpec, rng: Rng): GridEvent[] {
  const horizon = spec.horizonS;
  if (!(horizon > 0)) throw new Error(`transient.horizonS must be > 0, got ${horizon}`);
  const late = spec.lateJoinFraction ?? 0;
  if (!(late >= 0 && late <= 1)) throw new Error(`transient.lateJoinFraction must be in [0, 1], got ${late}`);
  for (const [k, d] of Object.entries({ hostUpS: spec.hostUpS, hostDownS: spec.hostDownS, clusterUpS: spec.clusterUpS, clusterDownS: spec.clusterDownS })) {
    if (d) checkDistribution(d, `transient.${k}`);
  }
  if (!!spec.hostUpS !== !!spec.hostDownS) throw new Error('transient: give both hostUpS and hostDownS, or neither');
  if (!!spec.clusterUpS !== !!spec.clusterDownS) throw new Error('transient: give both clusterUpS and clusterDownS, or neither');

  // Events in time order; at equal times, in generation order (clusters in order, a cluster before its hosts).
  const timed: { timeS: number; seq: number; event: GridEvent }[] = [];
  const emit = (event: GridEvent): void => {
    timed.push({ timeS: event.timeS, seq: timed.length, event });
  };
  const budget = { left: MAX_TRANSIENT_FLIPS };
  for (const c of clusters) {
    const clusterTl = drawTimeline(spec.clusterUpS, spec.clusterDownS, 0, horizon, rng, budget);
    const hostTls = c.hosts.map(() => {
      const start = rng.next() < late ? roundTo(rng.uniform(0, horizon), 0) : 0;
      return drawTimeline(spec.hostUpS, spec.hostDownS, start, horizon, rng, budget);
    });
    // The hosts whose own timeline flips at each time, in host order: a time visits only those, and every
    // host only when the cluster itself changes (time in the events written, not in the hosts × flips).
    const flipping = new Map<number, number[]>();
    hostTls.forEach((tl, i) => {
      for (const f of tl.flips) {
        const hosts = flipping.get(f);
        if (hosts === undefined) flipping.set(f, [i]);
        else if (hosts[hosts.length - 1] !== i) hosts.push(i);
      }
    });
    const times = [...new Set([0, ...clusterTl.flips, ...flipping.keys()])].sort((a, b) => a - b);
    const cluster = new TimelineCursor(clusterTl);
    const own = hostTls.map((tl) => new TimelineCursor(tl));
    let clusterUp = false;
    const hostUp = c.hosts.map(() => false);
    const settle = (i: number, t: number): void => {
      const up = clusterUp && own[i]!.up;
      if (up && !hostUp[i]) emit(addHost(c, c.hosts[i]!, t));
      if (!up && hostUp[i]) emit({ timeS: t, kind: 'REMOVE_HOST', host: c.hosts[i]!.name });
      hostUp[i] = up;
    };
    for (const t of times) {
      const changed = flipping.get(t) ?? [];
      for (const i of changed) own[i]!.advanceTo(t);
      const cUp = cluster.advanceTo(t);
      if (cUp && !clusterUp) emit(addCluster(c, t));
      if (!cUp && clusterUp) {
        emit({ timeS: t, kind: 'REMOVE_CLUSTER', cluster: c.name });
        hostUp.fill(false);
      }
      if (cUp !== clusterUp) {
        clusterUp = cUp;
        for (let i = 0; i < hostUp.length; i++) settle(i, t);
      } else for (const i of changed) settle(i, t);
    }
  }
  timed.sort((a, b) => a.timeS - b.timeS || a.seq - b.seq);
  return timed.map((x) => x.event);
}
