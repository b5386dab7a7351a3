// Heuristics from the user's own files (PReMAS's lesson: plug a component in without forking). A value of
// --heuristic (or an experiment's "heuristics" entry) that looks like a path — ./x.js, ../x.mjs, /abs/x.js
// — names an ES module whose default export (or `heuristic` export) implements Heuristic (heuristic.ts;
// docs/plugins.md). It is loaded once per thread and registered under its absolute path, which is what
// run records, experiment results and worker threads carry (a copy shipped to a host of the real grid is
// registered under its original's path: loadPlugin's `as`).
//
// A plug-in is run guarded, so that a mistake is an error naming it, never a corrupt run:
// - an exception in plan() → PluginError naming the file;
// - a plan() that takes longer than PLUGIN_PLAN_LIMIT_S → PluginError once it returns (a loop that never
//   returns cannot be cut in the same thread: `gridsweep check-heuristic` runs plug-ins in a worker thread
//   it terminates at the limit);
// - commit() of a Work that is not offered, already placed, or on a host that does not take work (down,
//   leaving, or no such host) → PluginError.
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { WorkSpec } from '../../model/application.js';
import type { GanttChart } from '../gantt.js';
import type { Heuristic, PlanContext } from './heuristic.js';

export const PLUGIN_PLAN_LIMIT_S = 60;

export class PluginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginError';
  }
}

/** Whether a heuristic name is a plug-in's path rather than a registered name. */
export function isPluginRef(name: string): boolean {
  return name.startsWith('./') || name.startsWith('../') || isAbsolute(name) || /\.(m?js)$/.test(name);
}

const loaded = new Map<string, Heuristic>();

/** The plug-in already loaded in this thread under `ref` (an absolute path), if any. */
export function loadedPlugin(ref: string): Heuristic | undefined {
  return loaded.get(ref);
}

/**
 * Loads (once) the plug-in at `ref`, relative to `baseDir`; returns its absolute path, the name to pass
 * as the heuristic from then on. Throws PluginError naming the file and what is wrong with it. `as`
 * registers it under another absolute path instead: the original of a copy, whose path the run carries.
 */
export async function loadPlugin(ref: string, baseDir = process.cwd(), as?: string): Promise<string> {
  const path = resolve(baseDir, ref);
  const name = as ?? path;
  if (loaded.has(name)) return name;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (err) {
    throw new PluginError(`heuristic plug-in ${name} could not be loaded${as === undefined ? '' : ` from its copy ${path}`}: ${(err as Error).message}`);
  }
  const h = (mod.default ?? mod.heuristic) as Partial<Heuristic> | undefined;
  const missing: string[] = [];
  if (typeof h !== 'object' || h === null) missing.push('a default export (or an export named "heuristic") that is an object');
  else {
    if (typeof h.name !== 'string' || h.name === '') missing.push('a "name" string');
    if (typeof h.plan !== 'function') missing.push('a "plan(ctx)" function');
  }
  if (missing.length > 0) throw new PluginError(`heuristic plug-in ${name} lacks ${missing.join(' and ')} (see docs/plugins.md)`);
  loaded.set(name, guarded(h as Heuristic, name));
  return name;
}

function guarded(h: Heuristic, path: string): Heuristic {
  const label = `heuristic plug-in ${path} ("${h.name}")`;
  return {
    name: path,
    code: typeof h.code === 'string' && h.code !== '' ? h.code : 'PLUGIN',
    help: typeof h.help === 'string' ? h.help : '',
    plan(ctx: PlanContext): void {
      const started = performance.now();
      try {
        h.plan({ ...ctx, chart: checkedChart(ctx.chart, ctx.works, label) });
      } catch (err) {
        if (err instanceof PluginError) throw err;
        throw new PluginError(`${label} threw in plan(): ${err instanceof Error ? err.message : String(err)}`);
      }
      const tookS = (performance.now() - started) / 1000;
      if (tookS > PLUGIN_PLAN_LIMIT_S) throw new PluginError(`${label} took ${tookS.toFixed(1)} s in one plan() (the limit is ${PLUGIN_PLAN_LIMIT_S} s)`);
    },
  };
}

/** The chart as a plug-in sees it: the same, except that commit() refuses what would corrupt the run. */
function checkedChart(chart: GanttChart, works: readonly WorkSpec[], label: string): GanttChart {
  const offered = new Set(works);
  const placed = new Set<WorkSpec>();
  const commit = (work: WorkSpec, host: number): ReturnType<GanttChart['commit']> => {
    if (!offered.has(work)) throw new PluginError(`${label} placed a Work that this plan did not offer (${describe(work)}): place only the Works of ctx.works`);
    if (placed.has(work)) throw new PluginError(`${label} placed Work ${work.id} twice in one plan`);
    if (!Number.isInteger(host) || host < 0 || host >= chart.hosts.length) throw new PluginError(`${label} placed Work ${work.id} on host index ${String(host)}, which does not exist (0 to ${chart.hosts.length - 1})`);
    if (!chart.takesWork(host)) throw new PluginError(`${label} placed Work ${work.id} on host ${chart.hosts[host]!.id}, which takes no work now (down or leaving): check chart.takesWork(host)`);
    placed.add(work);
    return chart.commit(work, host);
  };
  return new Proxy(chart, {
    get(target, prop, receiver) {
      if (prop === 'commit') return commit;
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

function describe(work: unknown): string {
  const id = (work as { id?: unknown } | null)?.id;
  return id === undefined ? String(work) : `id ${String(id)}`;
}
