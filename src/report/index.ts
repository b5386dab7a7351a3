// Reading run records and turning them into reports (HTML with an SVG Gantt chart, Chrome traces).
export { readRunRecord, loadRunRecord, parseRunRecordText, formatRunRecord, RecordLineChecker } from '../record/record-reader.js';
export { RunState, resourceKey, type Bar, type ResourceRow, type RunSummary, type ClusterSummary, type HostSummary, type HostState } from './run-state.js';
export { renderGanttSvg, GANTT_CSS, DEFAULT_GANTT_LAYOUT, type GanttLayout } from './gantt-svg.js';
export { renderHtmlReport } from './html-report.js';
export { buildChromeTrace, type ChromeTrace, type TraceEvent } from './chrome-trace.js';
export { writeReport, type ReportFormat } from './write-report.js';
