// `gridsweep dashboard RECORD.jsonl...`: replays recorded runs side by side in the live web dashboard.
import { basename } from 'node:path';
import type { Command } from '../command.js';
import { flagOption, numberOption } from '../args.js';
import { loadRunRecord } from '../../record/record-reader.js';
import { serveUntilInterrupted } from '../../dashboard/serve.js';
import { MAX_SPEED } from '../../dashboard/protocol.js';
import { DASHBOARD_HOST_OPTION, DASHBOARD_TUNNEL_HINT, dashboardAddress, startCommandDashboard } from '../start-dashboard.js';
import { expectFileKind } from '../../formats/file-kind.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

/** Names the runs by file name, made unique when two files share one. */
function sourceNames(paths: readonly string[]): string[] {
  const names = paths.map((p) => basename(p).replace(/\.jsonl$/, ''));
  return names.map((n, i) => (names.indexOf(n) !== i || names.lastIndexOf(n) !== i ? `${n} (${i + 1})` : n));
}

const command: Command = {
  name: 'dashboard',
  summary: COMMAND_SUMMARIES.dashboard,
  usage: 'gridsweep dashboard RECORD.jsonl [RECORD2.jsonl ...] [--port N] [--host ADDR] [--speed X] [--paused]',
  details: [
    'Serves a page on 127.0.0.1 (the printed URL carries a random access token) that plays the runs on',
    'one simulated clock: one Gantt chart per run, same time axis, with progress, makespan so far, a',
    'projected finish, bytes per link, utilization per cluster and host states. The page can pause,',
    'step, restart and change the speed; the mouse wheel and drag zoom and pan the charts.',
    DASHBOARD_TUNNEL_HINT,
  ].join('\n'),
  options: {
    port: { type: 'string', description: 'port to listen on (default: a free one)', valueName: 'N' },
    host: DASHBOARD_HOST_OPTION,
    speed: { type: 'string', description: 'simulated seconds per wall second (default: the longest run in 20 s)', valueName: 'X' },
    paused: { type: 'boolean', description: 'start paused (use Step or Resume on the page)' },
  },
  positionals: { min: 1, max: Infinity },
  async run(args) {
    const address = dashboardAddress(args);
    const speedRaw = numberOption(args, 'speed', 0, { min: 0, max: MAX_SPEED });
    const names = sourceNames(args.positionals);
    const sources = [];
    for (const path of args.positionals) expectFileKind(path, ['run-record'], 'dashboard', 'a run record');
    for (const [i, path] of args.positionals.entries()) sources.push({ name: names[i]!, events: await loadRunRecord(path) });
    const dashboard = await startCommandDashboard({
      sources,
      ...address,
      ...(speedRaw > 0 ? { speed: speedRaw } : {}),
      paused: flagOption(args, 'paused'),
      title: `gridsweep: ${names.join(' vs ')}`,
    });
    await serveUntilInterrupted(dashboard);
    return 0;
  },
};

export default command;
