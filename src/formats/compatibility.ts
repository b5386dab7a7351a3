// Checks that an application can run on a grid: every host's architecture index must have a run time.
import { architectureCount, type Application } from '../model/application.js';
import type { GridDescription } from '../model/grid.js';
import type { Diagnostic } from '../util/diagnostics.js';

export function checkCompatibility(app: Application, grid: GridDescription, appFile: string, gridFile: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const archs = architectureCount(app);
  let hosts = 0;
  for (const e of grid.events) {
    if (e.kind !== 'ADD_HOST' && e.kind !== 'ADD_BATCH_CLUSTER') continue;
    hosts++;
    if (app.works.length > 0 && e.arch >= archs) {
      out.push({
        severity: 'error',
        pos: e.pos ?? { file: gridFile, line: 1, column: 1 },
        message: `${e.kind === 'ADD_HOST' ? `host '${e.host}'` : `batch cluster '${e.cluster}'`} has architecture ${e.arch} but ${appFile} gives run times for ${archs} architecture(s) (0 to ${archs - 1})`,
        found: `architecture ${e.arch}`,
        expected: `an architecture index from 0 to ${archs - 1}`,
        hint: `change the architecture or give every Work in ${appFile} a run time for architecture ${e.arch}`,
      });
    }
  }
  if (hosts === 0 && app.works.length > 0) {
    out.push({
      severity: 'warning',
      pos: { file: gridFile, line: 1, column: 1 },
      message: `the grid never adds a host, so none of the ${app.works.length} Works of ${appFile} can run`,
    });
  }
  return out;
}
