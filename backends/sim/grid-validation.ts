// Checks a grid description against the simulator's rules before a run starts, so that a bad grid is an
// InputError naming the event's file:line:column instead of a crash halfway through a simulation.
import { existsSync } from 'node:fs';
import { architectureCount, type Application } from '../../src/model/application.js';
import type { GridDescription, GridEvent, SourcePos } from '../../src/model/grid.js';
import { InputError, type Diagnostic } from '../../src/util/diagnostics.js';
import { EventKind } from './event-queue.js';

/** The tie class of a grid event (see EventKind for the whole order). */
export function gridEventKind(e: GridEvent): EventKind {
  switch (e.kind) {
    case 'REMOVE_HOST':
    case 'REMOVE_CLUSTER':
      return EventKind.Failure;
    case 'ADD_CLUSTER':
    case 'ADD_HOST':
    case 'ADD_BATCH_CLUSTER':
      return EventKind.Addition;
    case 'CHANGE_HOST_BEHAVIOR':
    case 'CHANGE_CLUSTER_BEHAVIOR':
      return EventKind.Behavior;
  }
}

/** Grid events in the order the simulator applies them: time, then tie class, then file order. */
export function orderedGridEvents(grid: GridDescription): GridEvent[] {
  return grid.events
    .map((e, i) => ({ e, i, k: gridEventKind(e) }))
    .sort((a, b) => a.e.timeS - b.e.timeS || a.k - b.k || a.i - b.i)
    .map((x) => x.e);
}

const NO_POS: SourcePos = { file: '(grid description)', line: 1, column: 1 };

export function validateGrid(grid: GridDescription, app: Application): void {
  const errors: Diagnostic[] = [];
  const fail = (e: GridEvent | undefined, message: string, hint?: string) =>
    errors.push({ severity: 'error', pos: e?.pos ?? NO_POS, message, ...(hint ? { hint } : {}) });

  for (const [name, b] of grid.linkBehaviors) {
    if (b.samples.length === 0) fail(undefined, `link behaviour '${name}' has no samples`);
    b.samples.forEach((s, i) => {
      if (!(Number.isFinite(s.bandwidthBps) && s.bandwidthBps >= 0) || !(Number.isFinite(s.latencyMs) && s.latencyMs >= 0))
        fail(undefined, `link behaviour '${name}' sample ${i}: latency and bandwidth must be finite and ≥ 0`);
    });
  }
  for (const [name, b] of grid.hostBehaviors) {
    if (b.availabilityPct.length === 0) fail(undefined, `host behaviour '${name}' has no samples`);
    b.availabilityPct.forEach((v, i) => {
      if (!(v >= 0 && v <= 100)) fail(undefined, `host behaviour '${name}' sample ${i}: availability must be 0–100 %, got ${v}`);
    });
  }

  const archCount = architectureCount(app);
  const clusterUp = new Map<string, boolean>();
  const hostUp = new Map<string, boolean>();
  const hostCluster = new Map<string, string>();
  const batchClusters = new Set<string>();
  const checkOffset = (e: GridEvent & { offset: number }) => {
    if (!(Number.isInteger(e.offset) && e.offset >= 0)) fail(e, `offset must be a whole number ≥ 0, got ${e.offset}`);
  };
  const checkLink = (e: GridEvent & { behavior: string }) => {
    if (!grid.linkBehaviors.has(e.behavior)) fail(e, `no link behaviour named '${e.behavior}' was loaded`);
  };
  const checkHostBehavior = (e: GridEvent & { behavior: string }) => {
    if (!grid.hostBehaviors.has(e.behavior)) fail(e, `no host behaviour named '${e.behavior}' was loaded`);
  };

  for (const e of orderedGridEvents(grid)) {
    if (!(Number.isFinite(e.timeS) && e.timeS >= 0)) fail(e, `event time must be a finite number ≥ 0, got ${e.timeS}`);
    switch (e.kind) {
      case 'ADD_CLUSTER':
        checkLink(e);
        checkOffset(e);
        if (clusterUp.get(e.cluster)) fail(e, `cluster '${e.cluster}' is added while it is already up`, 'remove it first or drop this line');
        clusterUp.set(e.cluster, true);
        break;
      case 'ADD_BATCH_CLUSTER':
        checkLink(e);
        checkOffset(e);
        if (!grid.hostBehaviors.has(e.hostBehavior)) fail(e, `no host behaviour named '${e.hostBehavior}' was loaded`);
        if (e.workload !== undefined && !existsSync(e.workload.path)) fail(e, `batch cluster '${e.cluster}': no workload file ${e.workload.path}`, 'give the SWF file\'s path relative to the grid description');
        if (clusterUp.has(e.cluster)) fail(e, `batch cluster '${e.cluster}' reuses the name of a cluster added before`, 'give the batch cluster a name of its own');
        if (!(Number.isInteger(e.arch) && e.arch >= 0 && (archCount === 0 || e.arch < archCount)))
          fail(e, `batch cluster '${e.cluster}' has architecture ${e.arch}, but the application gives run times for ${archCount}`, `use 0 to ${archCount - 1}`);
        clusterUp.set(e.cluster, true);
        batchClusters.add(e.cluster);
        break;
      case 'ADD_HOST':
        if (batchClusters.has(e.cluster)) fail(e, `host '${e.host}' is added to batch cluster '${e.cluster}', whose hosts are the cores of the sweep's pilot jobs`, 'declare its size in ADD_BATCH_CLUSTER instead');
        checkHostBehavior(e);
        checkOffset(e);
        if (!clusterUp.get(e.cluster))
          fail(e, `host '${e.host}' is added to cluster '${e.cluster}', which is not up at time ${e.timeS}`, 'add the cluster first');
        if (hostUp.get(e.host)) fail(e, `host '${e.host}' is added while it is already up`);
        if (!(Number.isInteger(e.arch) && e.arch >= 0 && (archCount === 0 || e.arch < archCount)))
          fail(e, `host '${e.host}' has architecture ${e.arch}, but the application gives run times for ${archCount}`, `use 0 to ${archCount - 1}`);
        hostUp.set(e.host, true);
        hostCluster.set(e.host, e.cluster);
        break;
      case 'REMOVE_HOST':
        if (!hostUp.has(e.host)) fail(e, `REMOVE_HOST names host '${e.host}', which was never added`);
        hostUp.set(e.host, false);
        break;
      case 'REMOVE_CLUSTER':
        if (!clusterUp.has(e.cluster)) fail(e, `REMOVE_CLUSTER names cluster '${e.cluster}', which was never added`);
        if (batchClusters.has(e.cluster)) fail(e, `REMOVE_CLUSTER of batch cluster '${e.cluster}' is not supported yet`, 'drop this line');
        clusterUp.set(e.cluster, false);
        for (const [h, c] of hostCluster) if (c === e.cluster) hostUp.set(h, false);
        break;
      case 'CHANGE_HOST_BEHAVIOR':
        checkHostBehavior(e);
        checkOffset(e);
        if (!hostUp.has(e.host)) fail(e, `CHANGE_HOST_BEHAVIOR names host '${e.host}', which was never added`);
        break;
      case 'CHANGE_CLUSTER_BEHAVIOR':
        checkLink(e);
        checkOffset(e);
        if (!clusterUp.has(e.cluster)) fail(e, `CHANGE_CLUSTER_BEHAVIOR names cluster '${e.cluster}', which was never added`);
        break;
    }
  }
  if (errors.length > 0) throw new InputError(errors);
}
