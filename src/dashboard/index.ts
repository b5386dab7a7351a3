// The live dashboard: a loopback web page with Gantt charts of one or several runs, fed over WebSocket.
export { startDashboard, type Dashboard, type DashboardOptions, type DashboardStats } from './server.js';
export { LiveRecordSource, teeSinks, isLive, type DashboardSource, type RecordedSource } from './source.js';
export { Playback, SourcePlayer, DEFAULT_PLAYBACK_WALL_S, type PlaybackOptions } from './playback.js';
export { watchInputs, runWatchLoop, type InputWatcher, type WatchLoopOptions, type WatchOutcome } from './watch.js';
export { parseClientCommand, type ServerMessage, type ClientCommand, type WireMatrixProgress } from './protocol.js';
export { serveUntilInterrupted } from './serve.js';
export { ExperimentLanes, MAX_EXPERIMENT_LANES, DEFAULT_DWELL_MS, type ExperimentLanesOptions } from './experiment-lanes.js';
