// `gridsweep validate FILE... [--app FILE]`: checks grid and application descriptions (and the behaviour
// files a grid names), printing a one-line summary per valid file and every diagnostic otherwise.
import type { Command } from '../command.js';
import { stringOption } from '../args.js';
import { checkCompatibility, detectDescriptionKind, loadApplication, loadGrid } from '../../formats/index.js';
import { readDescription } from '../../formats/load.js';
import { firstContentLine } from '../../formats/source-lines.js';
import { architectureCount, type Application } from '../../model/application.js';
import type { GridDescription } from '../../model/grid.js';
import { formatDiagnostic, InputError, type Diagnostic } from '../../util/diagnostics.js';
import { expectFileKind, sniffFileKind } from '../../formats/file-kind.js';
import { parseParallelWorkload } from '../../formats/parallel-workload.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

/** A parallel workload (.pwl) in one line: its jobs, their largest task count, its classes. */
function parallelSummary(path: string): string {
  const w = parseParallelWorkload(readDescription(path, 'parallel workload'), path);
  const classes = [...new Set(w.jobs.map((j) => j.jobClass ?? 'unclassed'))].sort();
  return `parallel workload, ${plural(w.jobs.length, 'job')}, up to ${plural(Math.max(...w.jobs.map((j) => j.tasks)), 'task')} (one per CPU), ${plural(classes.length, 'class', 'classes')} (${classes.join(', ')})`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function applicationSummary(app: Application): string {
  return `application, ${plural(app.files.length, 'file')}, ${plural(app.works.length, 'work')}, ${plural(architectureCount(app), 'architecture')}`;
}

export function gridSummary(grid: GridDescription): string {
  const clusters = new Set<string>();
  const hosts = new Set<string>();
  const batch = new Set<string>();
  for (const e of grid.events) {
    if (e.kind === 'ADD_CLUSTER') clusters.add(e.cluster);
    if (e.kind === 'ADD_BATCH_CLUSTER') batch.add(e.cluster);
    if (e.kind === 'ADD_HOST') hosts.add(e.host);
  }
  const behaviors = grid.linkBehaviors.size + grid.hostBehaviors.size;
  const batchPart = batch.size > 0 ? `, ${plural(batch.size, 'batch cluster')}` : '';
  return `grid, ${plural(clusters.size, 'cluster')}${batchPart}, ${plural(hosts.size, 'host')}, ${plural(grid.events.length, 'event')}, ${plural(behaviors, 'behaviour file')}`;
}

type Checked = { kind: 'grid'; grid: GridDescription } | { kind: 'application'; app: Application };

/** Loads one description; diagnostics (errors and warnings) go to `report`. */
function check(path: string, report: (d: Diagnostic) => void): Checked | undefined {
  const text = readDescription(path, 'description');
  const kind = detectDescriptionKind(text);
  if (kind === 'grid') {
    const { grid, warnings } = loadGrid(path);
    warnings.forEach(report);
    return { kind, grid };
  }
  if (kind === 'application') return { kind, app: loadApplication(path) };
  const first = firstContentLine(text);
  throw new InputError([
    {
      severity: 'error',
      pos: { file: path, line: first?.line ?? 1, column: 1 },
      message: first === undefined ? 'the file has no description (only blank or comment lines)' : 'not a grid or application description',
      ...(first !== undefined && { found: `'${first.text.trim().slice(0, 40)}'` }),
      expected: "a first line 'GridDescription <version>' (grid) or 'WorkDescription <version> <files> <tasks>' (application)",
      ...(kind === 'behavior' && { hint: 'this looks like a behaviour file; validate the grid description that names it' }),
    },
  ]);
}

const command: Command = {
  name: 'validate',
  summary: COMMAND_SUMMARIES.validate,
  usage: 'gridsweep validate FILE... [--app APPLICATION]',
  details: [
    "Each FILE's kind comes from its first line: 'GridDescription <version>' or",
    "'WorkDescription <version> <file_number> <task_number>' ('#' comment and blank lines are skipped);",
    "'ParallelWorkload <version>' is a parallel workload for `trace --timeshare` (docs/formats.md).",
    'A valid file prints one summary line; problems print as file:line:column with what was found and',
    'expected. Exit status: 0 when every file is valid (warnings allowed), 1 otherwise.',
  ].join('\n'),
  options: {
    app: { type: 'string', description: 'also check every grid against this application (architectures)', valueName: 'APPLICATION' },
  },
  positionals: { min: 1, max: Infinity },
  async run(args) {
    let failed = false;
    const report = (d: Diagnostic) => {
      if (d.severity === 'error') failed = true;
      console.error(formatDiagnostic(d));
    };
    const attempt = <T>(fn: () => T): T | undefined => {
      try {
        return fn();
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        err.diagnostics.forEach(report);
        failed = true;
        return undefined;
      }
    };
    const appPath = stringOption(args, 'app');
    const app = appPath === undefined ? undefined : attempt(() => loadApplication(appPath));
    for (const path of args.positionals) {
      const rightKind = attempt(() => {
        expectFileKind(path, ['application', 'grid', 'behavior', 'parallel-workload'], 'validate', 'a grid or application description');
        return true;
      });
      if (rightKind === undefined) continue;
      if (sniffFileKind(path) === 'parallel-workload' || path.endsWith('.pwl')) {
        const line = attempt(() => parallelSummary(path));
        if (line !== undefined) console.log(`${path}: ${line}`);
        continue;
      }
      const checked = attempt(() => check(path, report));
      if (checked === undefined) continue;
      if (checked.kind === 'application') {
        console.log(`${path}: ${applicationSummary(checked.app)}`);
        continue;
      }
      console.log(`${path}: ${gridSummary(checked.grid)}`);
      if (app !== undefined && appPath !== undefined) {
        checkCompatibility(app, checked.grid, appPath, path).forEach(report);
      }
    }
    return failed ? 1 : 0;
  },
};

export default command;
