// The one list of heuristics: the CLI help, the docs table and the experiment tool all read it.
// Adding a heuristic is one file in this folder and one line below.
import { resolve } from 'node:path';
import { extendedSufferage } from './extended-sufferage.js';
import type { Heuristic } from './heuristic.js';
import { maxMin } from './maxmin.js';
import { minMin } from './minmin.js';
import { randomizedExtendedSufferage } from './randomized-extended-sufferage.js';
import { randomizedMaxMin } from './randomized-maxmin.js';
import { randomizedMinMin } from './randomized-minmin.js';
import { randomizedSufferage } from './randomized-sufferage.js';
import { sufferage } from './sufferage.js';
import { sufferage2 } from './sufferage2.js';
import { workqueue } from './workqueue.js';
import { xSufferage } from './xsufferage.js';
import { isPluginRef, loadedPlugin } from './plugin.js';

export type { Heuristic, PlanContext } from './heuristic.js';

export interface HeuristicInfo {
  readonly name: string;
  /** 'H0' … 'H9' (Berman et al. 1999, §5.6.3) or 'XS'. */
  readonly code: string;
  /** One line. */
  readonly help: string;
}

const HEURISTICS: readonly Heuristic[] = [
  workqueue,
  minMin,
  maxMin,
  sufferage,
  extendedSufferage,
  randomizedMinMin,
  randomizedMaxMin,
  randomizedSufferage,
  randomizedExtendedSufferage,
  sufferage2,
  xSufferage,
];

export function listHeuristics(): readonly HeuristicInfo[] {
  return HEURISTICS.map(({ name, code, help }) => ({ name, code, help }));
}

/**
 * The heuristic registered as `name` (or by its code, e.g. 'H3', 'XS'), or the plug-in loaded from the
 * path `name` (plugin.ts: loadPlugin() first); throws listing the valid names.
 */
export function getHeuristic(name: string): Heuristic {
  if (isPluginRef(name)) {
    const plugin = loadedPlugin(resolve(name));
    if (plugin !== undefined) return plugin;
    throw new Error(`heuristic plug-in ${name} is not loaded (bug: loadPlugin() must run first)`);
  }
  const found = HEURISTICS.find((h) => h.name === name || h.code === name.toUpperCase());
  if (found !== undefined) return found;
  const valid = HEURISTICS.map((h) => `${h.name} (${h.code})`).join(', ');
  throw new Error(`unknown heuristic "${name}"; expected one of: ${valid}, or the path of a plug-in (./my-heuristic.js)`);
}
