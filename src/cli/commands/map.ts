// `gridsweep map LOG --pattern P`: task mapping as post-processing of an allocation log (Bunde and Leung
// 2015, §III-B) — each job's ranks mapped onto its nodes by one or every mapper and scored by hops.
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { flagOption, numberOption, requiredString, stringOption } from '../args.js';
import { readAllocationLog } from '../../batch/machines/allocation-log.js';
import { formatMappedLog, mappingCsv } from '../../batch/mapping/format-mapping.js';
import { mapAllocationLog } from '../../batch/mapping/map-log.js';
import { findMapper, listMappers } from '../../batch/mapping/mappers/registry.js';
import { findPattern, listPatterns } from '../../batch/mapping/patterns.js';
import { writeFileAtomicSync } from '../../util/atomic-write.js';
import { expectFileKind } from '../../formats/file-kind.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

function choices(entries: readonly { readonly name: string; readonly help: string }[]): string[] {
  const width = Math.max(...entries.map((e) => e.name.length));
  return entries.map((e) => `    ${e.name.padEnd(width)}  ${e.help}`);
}

const command: Command = {
  name: 'map',
  summary: COMMAND_SUMMARIES.map,
  usage: 'gridsweep map LOG --pattern P [--mapper M|all] [--message-bytes B] [--json] [--out FILE.csv]',
  details: [
    'Task mapping as post-processing (Bunde and Leung 2015, §III-B): LOG lists the nodes each job held on a',
    'mesh or torus; a job of n nodes with C cores each runs R = n·C ranks, one a core, and a mapper says which',
    'node each rank runs on. Each job is scored by its hop-weighted volume, Σ bytes × hops over the',
    "pattern's communicating pairs (0 hops on one node), and its mean hops per message; the table sums and",
    'averages these over the jobs (per message, per job, and weighted by job nodes). Best and worst are the',
    'jobs with the lowest and highest mean hops (ties: the earlier job).',
    '',
    'Choices (each value with what it does):',
    '  --pattern',
    ...choices(listPatterns()),
    '  --mapper',
    ...choices(listMappers()),
    '',
    'For example, `gridsweep map alloc.log --pattern stencil3d --out per-job.csv` on a log written by',
    '`gridsweep trace W.swf --machine mesh:8x8x4 --allocation-log alloc.log`.',
  ].join('\n'),
  options: {
    pattern: { type: 'string', description: `how the ranks communicate: ${listPatterns().map((p) => p.name).join(', ')}`, valueName: 'P' },
    mapper: { type: 'string', description: `the task mapper, or all of them (default all): ${listMappers().map((m) => m.name).join(', ')}`, valueName: 'M' },
    'message-bytes': { type: 'string', description: 'bytes in one message between two communicating ranks (default 1)', valueName: 'B' },
    json: { type: 'boolean', description: 'print one JSON object (the per-mapper figures) instead of the table' },
    out: { type: 'string', short: 'o', description: 'write one CSV row per mapper and job (written to a temporary name, then renamed)', valueName: 'FILE.csv' },
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const patternName = requiredString(args, 'pattern');
    const pattern = findPattern(patternName);
    if (pattern === undefined) throw new UsageError(`unknown --pattern '${patternName}'; expected one of ${listPatterns().map((p) => p.name).join(', ')}`);
    const mapperName = stringOption(args, 'mapper') ?? 'all';
    let mappers = listMappers();
    if (mapperName !== 'all') {
      const found = findMapper(mapperName);
      if (found === undefined) throw new UsageError(`unknown --mapper '${mapperName}'; expected all or one of ${listMappers().map((m) => m.name).join(', ')}`);
      mappers = [found];
    }
    const messageBytes = numberOption(args, 'message-bytes', 1, { min: 0 });
    const logPath = args.positionals[0]!;
    expectFileKind(logPath, ['allocation-log'], 'map', 'an allocation log');
    const log = readAllocationLog(logPath);
    const mapped = mapAllocationLog(logPath, log, pattern, mappers, messageBytes);
    const out = stringOption(args, 'out');
    if (out !== undefined) writeFileAtomicSync(out, mappingCsv(mapped));
    if (flagOption(args, 'json')) {
      const h = log.header;
      console.log(JSON.stringify({ log: logPath, machine: h.topology.name, coresPerNode: h.coresPerNode, allocator: h.allocator, policy: h.policy, pattern: mapped.pattern, messageBytes, mappers: mapped.results.map((r) => r.summary) }, null, 2));
    } else console.log(formatMappedLog(mapped, log.header, logPath));
    if (out !== undefined) console.error(`wrote ${out}`);
    return 0;
  },
};

export default command;
