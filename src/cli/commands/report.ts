// `gridsweep report RECORD.jsonl -o OUT`: a self-contained HTML report, or a Chrome/Perfetto trace.
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { requiredString, stringOption } from '../args.js';
import { writeReport, type ReportFormat } from '../../report/write-report.js';
import { expectFileKind } from '../../formats/file-kind.js';

const command: Command = {
  name: 'report',
  summary: 'turn a run record into an HTML report with a Gantt chart, or a Chrome/Perfetto trace',
  usage: 'gridsweep report RECORD.jsonl -o OUT [--format html|chrome]',
  details: [
    'html: one self-contained file (inline SVG and CSS, no scripts, no network): the run parameters,',
    '  a summary, the Gantt chart (one row per link and host, grouped by cluster) and statistics.',
    'chrome: trace-event JSON (open it in https://ui.perfetto.dev or chrome://tracing): one process',
    '  per cluster, one thread per link or host, one complete event per sub-task.',
    'The output is written atomically; nothing is written if the record has errors.',
  ].join('\n'),
  options: {
    out: { type: 'string', short: 'o', description: 'the file to write', valueName: 'OUT' },
    format: { type: 'string', short: 'f', description: 'html or chrome', valueName: 'FORMAT', default: 'html' },
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const format = stringOption(args, 'format') ?? 'html';
    if (format !== 'html' && format !== 'chrome') throw new UsageError(`--format takes html or chrome, got '${format}'`);
    const out = requiredString(args, 'out');
    const record = args.positionals[0]!;
    expectFileKind(record, ['run-record'], 'report', 'a run record');
    const { subtasks, bytes } = await writeReport(record, out, format as ReportFormat);
    console.log(`${out}: ${format === 'html' ? 'HTML report' : 'Chrome trace'} of ${subtasks} sub-tasks (${bytes} bytes)`);
    return 0;
  },
};

export default command;
