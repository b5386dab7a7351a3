// `gridsweep simulate --app A --grid G [...]`: run the scheduler on the simulated grid and report.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import type { Command, CommandArgs } from '../command.js';
import { UsageError } from '../command.js';
import { flagOption, numberOption, requiredString, stringOption } from '../args.js';
import { behaviorPath, checkCompatibility, loadApplication, loadGrid } from '../../formats/index.js';
import { listHeuristics } from '../../scheduler/heuristics/registry.js';
import { schedulerFlags, schedulerOptionsFromArgs } from '../scheduler-flags.js';
import type { Application } from '../../model/application.js';
import type { GridDescription } from '../../model/grid.js';
import { DEFAULT_SAMPLE_PERIOD_S } from '../../model/grid.js';
import type { RecordSink, RunHeader, RunRecordEvent } from '../../record/events.js';
import { formatDiagnostic, InputError } from '../../util/diagnostics.js';
import { simulate, type SimulationResult } from '../../../backends/sim/simulate.js';

function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function inputHashes(appPath: string, gridPath: string, grid: GridDescription): RunHeader['inputs'] {
  const inputs: Record<string, { path: string; sha256: string }> = {
    application: { path: appPath, sha256: sha256File(appPath) },
    grid: { path: gridPath, sha256: sha256File(gridPath) },
  };
  for (const name of [...grid.linkBehaviors.keys(), ...grid.hostBehaviors.keys()]) {
    const path = behaviorPath(gridPath, name);
    inputs[`behavior:${name}`] = { path, sha256: sha256File(path) };
  }
  return inputs;
}

/** Writes the run record as JSON Lines under a temporary name; `commit` renames it into place. */
class JsonlRecordFile {
  private readonly tmp: string;
  private readonly fd: number;
  private buffer: string[] = [];
  private bufferedChars = 0;

  constructor(readonly path: string) {
    this.tmp = `${path}.${process.pid}.tmp`;
    this.fd = openSync(this.tmp, 'w');
  }

  readonly sink: RecordSink = (event: RunRecordEvent) => {
    const line = JSON.stringify(event);
    this.buffer.push(line);
    this.bufferedChars += line.length + 1;
    if (this.bufferedChars > 1 << 20) this.flush();
  };

  private flush(): void {
    if (this.buffer.length === 0) return;
    writeSync(this.fd, `${this.buffer.join('\n')}\n`);
    this.buffer = [];
    this.bufferedChars = 0;
  }

  commit(): void {
    this.flush();
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
  }

  discard(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    try {
      unlinkSync(this.tmp);
    } catch {
      // never created
    }
  }
}

/** How often the application's input files crossed a link. */
export function sendSummary(app: Application, fileSends: readonly number[]): { inputFiles: number; maxSends: number; sentMoreThanOnce: number } {
  const inputs = new Set<number>();
  for (const w of app.works) for (const f of w.inputs) inputs.add(f);
  let maxSends = 0;
  let sentMoreThanOnce = 0;
  for (const f of inputs) {
    const n = fileSends[f] ?? 0;
    maxSends = Math.max(maxSends, n);
    if (n > 1) sentMoreThanOnce++;
  }
  return { inputFiles: inputs.size, maxSends, sentMoreThanOnce };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const secs = (x: number) => `${x.toFixed(3)} s`;

export function formatReport(app: Application, heuristic: string, r: SimulationResult): string {
  const lines = [
    `heuristic: ${heuristic}`,
    `makespan: ${secs(r.makespanS)}${r.finished ? '' : ' (NOT FINISHED: the grid could make no more progress)'}`,
    `works done: ${r.worksDone}/${r.worksTotal}`,
    '',
    'hosts:',
  ];
  const hostWidth = Math.max(4, ...r.hosts.map((h) => `${h.id} (${h.cluster})`.length));
  for (const h of r.hosts) lines.push(`  ${`${h.id} (${h.cluster})`.padEnd(hostWidth)}  busy ${secs(h.busyS).padStart(14)}  utilization ${pct(h.utilization).padStart(7)}`);
  lines.push('', 'links:');
  const linkWidth = Math.max(4, ...r.links.map((l) => l.id.length));
  for (const l of r.links)
    lines.push(
      `  ${l.id.padEnd(linkWidth)}  busy ${secs(l.busyS).padStart(14)}  utilization ${pct(l.utilization).padStart(7)}  ` +
        `in ${l.bytesIn} B  out ${l.bytesOut} B  transfers ${l.transfers}`,
    );
  const s = sendSummary(app, r.fileSends);
  lines.push(
    '',
    `input files sent: ${s.inputFiles} files, at most ${s.maxSends} time(s) each, ${s.sentMoreThanOnce} sent more than once`,
    `failures: ${r.failures}  re-executions: ${r.reexecutions}`,
    `do_plan(): ${r.planCalls} call(s), ${r.planCpuMs.toFixed(1)} ms CPU`,
    `simulated events: ${r.events} in ${r.wallMs.simulate.toFixed(1)} ms`,
  );
  return lines.join('\n');
}

const command: Command = {
  name: 'simulate',
  summary: 'run the scheduler on a simulated grid and report makespan, resource use and transfers',
  usage: 'gridsweep simulate --app APP --grid GRID [--heuristic H] [--seed S] [--record run.jsonl] [--json] [--sample-period S]',
  details: `The run record (--record) is JSON Lines, one event per line, written under a temporary name and\nrenamed when the run is over. The same inputs and seed give the same record, byte for byte.`,
  options: {
    app: { type: 'string', description: 'application description (WorkDescription)', valueName: 'APP' },
    grid: { type: 'string', description: 'grid description (GridDescription; behaviour files beside it)', valueName: 'GRID' },
    seed: { type: 'string', description: 'seed of the random generator (default 1)', valueName: 'S' },
    record: { type: 'string', description: 'write the run record (JSON Lines) to this file', valueName: 'FILE' },
    json: { type: 'boolean', description: 'print one JSON object instead of the report' },
    'sample-period': { type: 'string', description: `seconds between behaviour samples (default ${DEFAULT_SAMPLE_PERIOD_S})`, valueName: 'S' },
    ...schedulerFlags(),
  },
  positionals: { min: 0, max: 0 },
  async run(args) {
    const appPath = requiredString(args, 'app');
    const gridPath = requiredString(args, 'grid');
    const options = schedulerOptionsFromArgs(args);
    const seed = numberOption(args, 'seed', 1, { min: 0, max: 2 ** 32 - 1, integer: true });
    const samplePeriodS = numberOption(args, 'sample-period', DEFAULT_SAMPLE_PERIOD_S, { min: Number.MIN_VALUE });
    const asJson = flagOption(args, 'json');

    const parseStart = performance.now();
    const app = loadApplication(appPath);
    const { grid, warnings } = loadGrid(gridPath);
    const problems = checkCompatibility(app, grid, appPath, gridPath);
    const errors = problems.filter((p) => p.severity === 'error');
    if (errors.length > 0) throw new InputError(problems);
    for (const w of [...warnings, ...problems]) console.error(formatDiagnostic(w));
    const inputs = inputHashes(appPath, gridPath, grid);
    const parseMs = performance.now() - parseStart;

    const recordPath = stringOption(args, 'record');
    const file = recordPath !== undefined ? new JsonlRecordFile(recordPath) : undefined;
    let result: SimulationResult;
    try {
      result = simulate({ app, grid, scheduler: options, seed, samplePeriodS, inputs, ...(file ? { record: file.sink } : {}) });
      file?.commit();
    } catch (err) {
      file?.discard();
      throw err;
    }
    if (asJson) {
      console.log(JSON.stringify({ ...result, wallMs: { parse: parseMs, simulate: result.wallMs.simulate, plan: result.wallMs.plan } }));
    } else {
      console.log(formatReport(app, options.heuristic, result));
      console.log(`parsing: ${parseMs.toFixed(1)} ms`);
      if (recordPath !== undefined) console.log(`run record: ${recordPath}`);
    }
    return 0;
  },
};

export default command;
