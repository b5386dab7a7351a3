// The documentation generated from code, between marker comments: in README.md the table of commands,
// the heuristics and the batch components; in docs/cli.md the full CLI reference. `npm run docs` writes
// them (scripts/update-readme.ts); test/cli/cli.test.ts fails when a file is not current.
import { listAllocators } from '../batch/allocators/registry.js';
import { listMachineKinds } from '../batch/machines/registry.js';
import { listNodeAllocatorAliases, listNodeAllocatorFamilies } from '../batch/machines/node-allocators/registry.js';
import { listMappers } from '../batch/mapping/mappers/registry.js';
import { listPatterns } from '../batch/mapping/patterns.js';
import { listBatchPolicies } from '../batch/policies/registry.js';
import { listHeuristics } from '../scheduler/heuristics/registry.js';
import { listTimeshareStrategies } from '../batch/timeshare/registry.js';
import { timeshareParameterRows } from './timeshare-flags.js';
import { markdownReference } from './help.js';
import type { Command } from './command.js';
import { loadAllCommands } from './registry.js';

export interface GeneratedSection {
  readonly marker: string;
  readonly body: string;
}

/** A file with generated sections, its path relative to the package root. */
export interface GeneratedDoc {
  readonly path: string;
  readonly sections: readonly GeneratedSection[];
}

/** The README's short table of commands: each command's name, linked to its part of docs/cli.md, and its summary. */
export function commandsTable(commands: readonly Command[]): string {
  // GitHub's anchor for docs/cli.md's heading ### `gridsweep NAME` is #gridsweep-NAME (backticks dropped, space → '-').
  const rows = commands.map((c) => `| [\`${c.name}\`](docs/cli.md#gridsweep-${c.name}) | ${c.summary.replace(/\|/g, '\\|')} |`);
  return ['| command | what it does |', '| --- | --- |', ...rows].join('\n');
}

export function heuristicsTable(): string {
  const rows = listHeuristics().map((h) => `| ${h.code} | \`${h.name}\` | ${h.help} |`);
  return ['| code | name | what it does |', '| --- | --- | --- |', ...rows].join('\n');
}

/**
 * The machines, the batch policies, the allocators of the bag of cores and the processor allocators of
 * meshes (with their parameters and short names), then the task mappers and patterns (`gridsweep map`),
 * from their registries.
 */
export function batchTable(): string {
  const machines = listMachineKinds().map((m) => `| machine | \`${m.syntax}\` | ${m.help} |`);
  const policies = listBatchPolicies().map((p) => `| policy | \`${p.name}\` | ${p.help}${p.contiguous ? '' : ' (not with contiguous allocation)'} |`);
  const allocators = listAllocators().map((a) => `| allocator (bag) | \`${a.name}\` | ${a.help} |`);
  const aliases = Object.entries(listNodeAllocatorAliases());
  const families = listNodeAllocatorFamilies().map((f) => {
    const syntax = [f.name, ...f.parameters.map((p) => p.name.toUpperCase())].join(':');
    const params = f.parameters.map((p) => `${p.name.toUpperCase()}: ${Array.isArray(p.values) ? p.values.join(', ') : p.values} (default ${p.default})`).join('; ');
    const short = aliases.filter(([, spec]) => spec.split(':')[0] === f.name).map(([name, spec]) => `\`${name}\` = \`${spec}\``).join(', ');
    const parts = [f.help, params, short === '' ? '' : `Short names: ${short}`].filter((x) => x !== '');
    return `| allocator (mesh) | \`${syntax}\` | ${parts.join('. ')} |`;
  });
  const mappers = listMappers().map((m) => `| task mapper | \`${m.name}\` | ${m.help} |`);
  const patterns = listPatterns().map((p) => `| pattern | \`${p.name}\` | ${p.help} |`);
  return ['| kind | name | what it does |', '| --- | --- | --- |', ...machines, ...policies, ...allocators, ...families, ...mappers, ...patterns].join('\n');
}

/**
 * The time-sharing strategies (name, help, the parameters only some strategies read), then every
 * parameter as its `gridsweep trace` flag with its help and defaults, from the registry.
 */
export function timeshareTable(): string {
  const strategies = listTimeshareStrategies();
  const counts = new Map<string, number>();
  for (const s of strategies) for (const p of s.parameters) counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  const own = (s: (typeof strategies)[number]): string => s.parameters.filter((p) => counts.get(p.name)! < strategies.length).map((p) => `\`--${p.name}\``).join(', ');
  const rows = strategies.map((s) => `| \`${s.name}\` | ${s.help} | ${own(s) || '—'} |`);
  const params = timeshareParameterRows().map((r) => `| \`--${r.name}\` | ${r.help} | ${r.defaults} | ${r.strategies} |`);
  return [
    '| strategy | what it does | its own parameters |',
    '| --- | --- | --- |',
    ...rows,
    '',
    '| flag | what it sets | default | strategies |',
    '| --- | --- | --- | --- |',
    ...params,
  ].join('\n');
}

/** Every file with generated sections, and what goes between each of its marker pairs. */
export async function generatedDocs(): Promise<GeneratedDoc[]> {
  const commands = await loadAllCommands();
  return [
    {
      path: 'README.md',
      sections: [
        { marker: 'commands', body: commandsTable(commands) },
        { marker: 'heuristics', body: heuristicsTable() },
        { marker: 'batch', body: batchTable() },
        { marker: 'timeshare', body: timeshareTable() },
      ],
    },
    { path: 'docs/cli.md', sections: [{ marker: 'cli-reference', body: markdownReference(commands) }] },
  ];
}

/** Replaces each marked block of `text` (the file `path`) with the generated body; throws if a marker pair is missing. */
export function applySections(text: string, sections: readonly GeneratedSection[], path = 'README.md'): string {
  let out = text;
  for (const { marker, body } of sections) {
    const start = `<!-- generated:${marker} -->`;
    const end = `<!-- /generated:${marker} -->`;
    const i = out.indexOf(start);
    const j = out.indexOf(end);
    if (i < 0 || j < i) throw new Error(`${path} lacks the markers ${start} … ${end}: put them back where the generated text goes, then run \`npm run docs\``);
    out = `${out.slice(0, i + start.length)}\n${body}\n${out.slice(j)}`;
  }
  return out;
}
