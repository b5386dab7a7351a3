// `gridsweep generate KIND [SPEC.json] -o OUT [--seed N]`: write generated applications and grids.
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { numberOption, stringOption } from '../args.js';
import { saveApplication, writeGrid } from '../../formats/index.js';
import { generateIns2dApplication, generateMcellApplication, type Ins2dSpec, type McellSpec } from '../../generators/application.js';
import { generateGrid, type GridSpec } from '../../generators/grid.js';
import { writeFig11Files } from '../../generators/fig11-files.js';
import { writeGeneratedWorkload } from '../../batch/swf/write-generated.js';
import type { WorkloadSpec } from '../../batch/workload-generator.js';
import { InputError, unreadableFile } from '../../util/diagnostics.js';
import { parseJsonSource, type JsonSource } from '../../sweep/json-source.js';
import { schemaFieldLines } from '../../sweep/schema-doc.js';
import { GRID_SPEC_SCHEMA, INS2D_SPEC_SCHEMA, MCELL_SPEC_SCHEMA, distributionForms } from '../../generators/spec-schemas.js';
import { generatorSpecDiagnostics, type SpecGenerator } from '../../generators/spec-check.js';
import { WORKLOAD_SPEC_SCHEMA, workloadSpecDiagnostics } from '../../batch/workload-schema.js';
import { Rng, MAX_SEED } from '../../util/rng.js';
import { PARALLEL_SPEC_SCHEMA, parallelSpecDiagnostics } from '../../batch/parallel-workload-schema.js';
import { generateStructuredWorkload, type StructuredWorkloadSpec } from '../../batch/timeshare/workload-generator.js';
import { writeParallelWorkload } from '../../formats/parallel-workload.js';
import { writeFileAtomicSync } from '../../util/atomic-write.js';
import { expectFileKind, type FileKind } from '../../formats/file-kind.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

const KINDS = ['fig11', 'mcell', 'ins2d', 'grid', 'swf', 'parallel'] as const;

/** The specification file, parsed with positions; an InputError naming the place of any JSON mistake. */
function readSpec(path: string): JsonSource {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadableFile(path, 'the generator specification', err);
  }
  return parseJsonSource(text, path);
}

/**
 * Generator parameter errors that the schema cannot see (several fields at once) are plain Errors; report
 * them against the field their message starts with, else the top of the file. A file system error (the
 * SWF generator writes its output as it goes) is the output path's, not the specification's.
 */
function generated<T>(source: JsonSource, make: () => T): T {
  try {
    return make();
  } catch (err) {
    if (err instanceof InputError || typeof (err as NodeJS.ErrnoException).syscall === 'string') throw err;
    const message = (err as Error).message;
    const field = /^([A-Za-z]+)/.exec(message)?.[1];
    const value = source.value as Record<string, unknown>;
    const pos = field !== undefined && Object.prototype.hasOwnProperty.call(value, field) ? source.positionOf(`/${field}`) : source.positionOf('');
    throw new InputError([{ severity: 'error', pos, message, hint: 'correct this generator parameter' }]);
  }
}

/**
 * The fields of one specification, from its schema, as "  - " items followed by a blank line: a list in a
 * terminal, and a list in the README (a list may interrupt a paragraph; the blank line ends it).
 */
function fieldHelp(schema: object): string[] {
  return [...schemaFieldLines(schema).map((l) => `  - ${l}`), ''];
}

const command: Command = {
  name: 'generate',
  summary: COMMAND_SUMMARIES.generate,
  usage: 'gridsweep generate fig11 [--root DIR] | gridsweep generate mcell|ins2d|grid|swf|parallel SPEC.json -o OUT [--seed N]',
  details: [
    'fig11: writes griddescs/fig11/fig11.grid (+ behaviour files) and apps/fig11/fig11-SIZEkb.app under DIR',
    '(default: the current folder), exactly as shipped.',
    '',
    `mcell: ${MCELL_SPEC_SCHEMA.description}. SPEC.json holds:`,
    ...fieldHelp(MCELL_SPEC_SCHEMA),
    `ins2d: ${INS2D_SPEC_SCHEMA.description}. SPEC.json holds the mcell fields from unsharedInputsPerTask on, and:`,
    ...fieldHelp({ ...INS2D_SPEC_SCHEMA, properties: { tasks: INS2D_SPEC_SCHEMA.properties.tasks } }),
    `grid: ${GRID_SPEC_SCHEMA.description}. OUT is the grid file; behaviour files are written beside it. SPEC.json holds:`,
    ...fieldHelp(GRID_SPEC_SCHEMA),
    `swf: ${WORKLOAD_SPEC_SCHEMA.description}. OUT is an SWF workload. SPEC.json holds:`,
    ...fieldHelp(WORKLOAD_SPEC_SCHEMA),
    `parallel: ${PARALLEL_SPEC_SCHEMA.description}. OUT is a parallel workload (.pwl, for \`gridsweep trace OUT --timeshare S\`). SPEC.json holds:`,
    ...fieldHelp(PARALLEL_SPEC_SCHEMA),
    `A distribution is ${distributionForms()}.`,
    'Every SPEC.json is checked before anything is generated; a mistake is reported at file:line:column.',
  ].join('\n'),
  options: {
    out: { type: 'string', short: 'o', description: 'the file to write', valueName: 'OUT' },
    seed: { type: 'string', description: 'generator seed (default 1)', valueName: 'N' },
    root: { type: 'string', description: 'fig11: the folder to write under', valueName: 'DIR' },
  },
  positionals: { min: 1, max: 2 },
  async run(args) {
    const kind = args.positionals[0]!;
    if (!(KINDS as readonly string[]).includes(kind)) throw new UsageError(`unknown kind '${kind}'; expected one of ${KINDS.join(', ')}`);
    if (kind === 'fig11') {
      if (args.positionals.length > 1) throw new UsageError('fig11 takes no specification file');
      const written = writeFig11Files(stringOption(args, 'root') ?? '.');
      for (const f of written) console.error(`wrote ${f}`);
      return 0;
    }
    const specPath = args.positionals[1];
    if (specPath === undefined) throw new UsageError(`${kind} needs a specification file`);
    const out = stringOption(args, 'out');
    if (out === undefined) throw new UsageError('-o OUT is required');
    const seed = numberOption(args, 'seed', 1, { min: 0, max: MAX_SEED, integer: true });
    const rng = new Rng(seed);
    const wanted = kind === 'swf' ? 'a batch workload' : kind === 'parallel' ? 'a parallel workload' : kind === 'grid' ? 'a grid' : `an ${kind}`;
    expectFileKind(specPath, [`${kind}-spec` as FileKind], `generate ${kind}`, `${wanted} generator specification`);
    const source = readSpec(specPath);
    const problems = kind === 'swf' ? workloadSpecDiagnostics(source) : kind === 'parallel' ? parallelSpecDiagnostics(source) : generatorSpecDiagnostics(kind as SpecGenerator, source);
    if (problems.length > 0) throw new InputError(problems);
    const spec = source.value;
    if (kind === 'parallel') {
      const s = spec as Omit<StructuredWorkloadSpec, 'seed'>;
      const jobs = generated(source, () => generateStructuredWorkload({ ...s, seed }));
      const mix = Object.entries(s.mix ?? {}).map(([c, w]) => `${c} ${w}`).join(', ');
      writeFileAtomicSync(out, writeParallelWorkload(jobs, [`parallel workload generated by gridsweep generate parallel (seed ${seed}; ${s.jobs} jobs for ${s.nodes} nodes at offered load ${s.load ?? 0.7}; mix ${mix})`]));
      console.error(`wrote ${out}: ${jobs.length} jobs`);
    } else if (kind === 'swf') {
      const jobs = generated(source, () => writeGeneratedWorkload(spec as WorkloadSpec, seed, out));
      console.error(`wrote ${out}: ${jobs} jobs`);
    } else if (kind === 'grid') {
      const grid = generated(source, () => generateGrid(spec as GridSpec, rng));
      writeGrid(dirname(out), basename(out), grid);
      console.error(`wrote ${out}: ${grid.events.length} events, ${grid.linkBehaviors.size + grid.hostBehaviors.size} behaviour files`);
    } else {
      const app = generated(source, () => (kind === 'mcell' ? generateMcellApplication(spec as McellSpec, rng) : generateIns2dApplication(spec as Ins2dSpec, rng)));
      saveApplication(out, app);
      console.error(`wrote ${out}: ${app.works.length} tasks, ${app.files.length} files`);
    }
    return 0;
  },
};

export default command;
