// Reads a run record and writes its report atomically (nothing is written if the record is bad).
import type { RunRecordEvent } from '../record/events.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { buildChromeTrace } from './chrome-trace.js';
import { renderHtmlReport } from './html-report.js';
import { readRunRecord } from '../record/record-reader.js';
import { RunState } from './run-state.js';

export type ReportFormat = 'html' | 'chrome';

export async function writeReport(recordPath: string, outPath: string, format: ReportFormat): Promise<{ subtasks: number; bytes: number }> {
  const state = new RunState();
  const events: RunRecordEvent[] = [];
  for await (const e of readRunRecord(recordPath)) {
    state.apply(e);
    if (format === 'chrome' && (e.type === 'work-failed' || e.type === 'grid')) events.push(e);
  }
  const text = format === 'html' ? renderHtmlReport(state, { sourceName: recordPath }) : JSON.stringify(buildChromeTrace(state, events));
  await writeFileAtomic(outPath, text);
  return { subtasks: state.bars.length, bytes: Buffer.byteLength(text) };
}
