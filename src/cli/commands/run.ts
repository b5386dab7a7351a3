// `gridsweep run SWEEP --grid REAL`: runs a sweep for real, on this machine and/or SSH hosts, with the same
// scheduler the simulator uses. Progress goes to the terminal (a bar on a TTY, one line per event otherwise).
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { printWarnings, schedulerOptionWarnings } from '../inapplicable-options.js';
import { flagOption, numberOption, requiredString, stringOption } from '../args.js';
import { loadRealGrid } from '../../realgrid/real-grid-file.js';
import { loadSweepFile } from '../../sweep/sweep-file.js';
import type { RecordSink } from '../../record/events.js';
import { liveRecordFile } from '../../record/record-file.js';
import { median } from '../../experiment/results.js';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../../scheduler/options.js';
import { Scheduler } from '../../scheduler/scheduler.js';
import { listHeuristics } from '../../scheduler/heuristics/registry.js';
import { loadHeuristicPlugins, strategyChoicesHelp, schedulerFlags, schedulerOptionsFromArgs } from '../scheduler-flags.js';
import { expandForGrid, originDirOf, runReal, type RealRunResult, type RunLogEvent } from '../../../backends/real/runner.js';
import { journalHoldsRun, moveAside, outputsDirOf, runFilesOf, shownPath } from '../../../backends/real/run-files.js';
import { lockJournal, type JournalLock } from '../../../backends/real/journal-lock.js';
import { checkReplayPlan, loadReplayPlan } from '../../scheduler/replay/replay-plan.js';
import { OriginWriteError, originFailureAdvice, writingAtOrigin } from '../../../backends/real/origin-failure.js';
import { formatComparison } from '../../../backends/real/timeline-compare.js';
import { runLogLine } from '../../../backends/real/run-log-lines.js';
import { LiveRecordSource, teeSinks, type Dashboard } from '../../dashboard/index.js';
import { DASHBOARD_HOST_OPTION, DASHBOARD_TUNNEL_HINT, dashboardAddress, startCommandDashboard } from '../start-dashboard.js';
import { SWEEP_FORMAT_HELP } from './describe.js';
import { expectFileKind } from '../../formats/file-kind.js';
import { MAX_SEED } from '../../util/rng.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

/** How `gridsweep run` names a task in its lines. */
const taskName = (work: number): string => `task ${work}`;

/** Where a run's files are, and whether it continues an earlier run of the same journal. */
interface RunPlaces {
  readonly journal: string;
  readonly logsDir: string;
  readonly continuing: boolean;
  /** Task logs are kept (not --no-task-logs). */
  readonly taskLogs: boolean;
}

/** Printed once the run knows what it has to do: where its outputs, journal and task logs go, and what it skips. */
function startLines(e: Extract<RunLogEvent, { kind: 'start' }>, places: RunPlaces): string[] {
  const outputs = e.outputsDir === '' ? e.originDir : join(e.originDir, e.outputsDir);
  const all = e.total + e.skipped;
  return [
    `outputs:   ${shownPath(outputs)}${e.outputsDir === '' ? '' : '/'}`,
    `journal:   ${shownPath(places.journal)}${places.continuing ? '' : ' (a later run continues from it; --fresh starts over)'}`,
    places.taskLogs ? `task logs: ${shownPath(places.logsDir)}/N.out and N.err (the last 64 KiB of each task's stdout and stderr; no file for an empty one)` : 'task logs: none (--no-task-logs)',
    ...(places.continuing ? [`${e.skipped} of ${all} tasks already done (journal ${shownPath(places.journal)}); running ${e.total} (--fresh starts over)`] : []),
  ];
}

/** One line per event, or a progress bar (with the important events above it) on a terminal. */
function makeProgress(tty: boolean, places: RunPlaces): { log: (e: RunLogEvent) => void; stop: () => void } {
  if (!tty) {
    // The lines of one turn of the event loop leave in one write, not a system call each (at hundreds of
    // tasks a second, writing them one by one cost the run a tenth of its time).
    let unwritten = '';
    const flush = (): void => {
      if (unwritten !== '') process.stdout.write(unwritten);
      unwritten = '';
    };
    return {
      log: (e) => {
        if (unwritten === '') setImmediate(flush);
        if (e.kind === 'start') unwritten += startLines(e, places).map((l) => `${l}\n`).join('');
        unwritten += `${e.kind === 'start' ? `start   ${e.total} task(s) to run, ${e.skipped} already verified, ${e.hosts} host(s) up` : runLogLine(e, taskName)}\n`;
      },
      stop: flush,
    };
  }
  const multi = new cliProgress.MultiBar({ format: 'tasks {bar} {value}/{total} | {last}', hideCursor: true }, cliProgress.Presets.shades_classic);
  let bar: cliProgress.SingleBar | undefined;
  return {
    log: (e) => {
      if (e.kind === 'start') {
        for (const line of startLines(e, places)) console.log(line);
        bar = multi.create(e.total, 0, { last: `${e.hosts} host(s) up, ${e.skipped} already verified` });
        return;
      }
      const text = runLogLine(e, taskName);
      if (!bar) console.log(text);
      else if (e.kind === 'done') bar.update(e.done, { last: text });
      else {
        bar.update({ last: text });
        if (e.kind !== 'stored') multi.log(`${text}\n`);
      }
    },
    stop: () => multi.stop(),
  };
}

function waitSummary(waitsS: readonly number[]): string {
  return waitsS.length === 0 ? '-' : `median ${median(waitsS).toFixed(1)} s, max ${Math.max(...waitsS).toFixed(1)} s`;
}

/** The run record, written as the run goes; a write this machine's disk refuses (full…) throws an OriginWriteError: the run stops with it. */
function recordFile(path: string): { sink: RecordSink; close: () => void } {
  return liveRecordFile(path, (write) => writingAtOrigin('the run record', path, write));
}

/**
 * Why a run stopped when the origin refused a write (disk full...): which file, why, and what to do.
 * `again` is the command that carries on (with --journal FILE, it needs --resume).
 */
function originFailureLines(err: OriginWriteError, again: string): string[] {
  return [
    `gridsweep run: stopped: ${err.message}`,
    "this is the origin's failure, not the grid's: no host or cluster was set aside and no task was run again because of it",
    `to finish: ${originFailureAdvice(err, again)}`,
  ];
}

/** The tasks given up, grouped by why: `failed tasks (N, WHY): IDS`. */
function failedTaskLines(whyFailed: ReadonlyMap<number, string>): string[] {
  const byReason = new Map<string, number[]>();
  for (const [work, why] of whyFailed) {
    const works = byReason.get(why);
    if (works === undefined) byReason.set(why, [work]);
    else works.push(work);
  }
  return [...byReason].map(([why, works]) => `failed tasks (${works.length}, ${why}): ${works.sort((a, b) => a - b).join(' ')}`);
}

/** The last lines of a task's standard error, indented, for the summary. */
function tailLines(text: string, lines: number): string[] {
  return text.trimEnd().split('\n').slice(-lines).map((l) => `    ${l}`);
}

/** Where the outputs and logs went, and the stderr tail of the first failed tasks. */
function placesSummary(result: RealRunResult, places: RunPlaces): string[] {
  const outputs = join(result.expanded.originDir, outputsDirOf(result.expanded.tasks.flatMap((t) => t.outputs.map((o) => o.path))));
  const shown = 5;
  const failed = [...result.worksFailed].sort((a, b) => a - b);
  const tails = failed.slice(0, shown).flatMap((w) => {
    const tail = result.stderrTails.get(w);
    const where = places.taskLogs ? `; all of it in ${shownPath(join(places.logsDir, `${w}.err`))}` : '';
    return tail === undefined ? [] : [`task ${w} stderr (last lines${where}):`, ...tailLines(tail, 5)];
  });
  return [
    ...tails,
    ...(failed.length > shown ? [`(${failed.length - shown} more failed tasks${places.taskLogs ? `: their stderr is in ${shownPath(places.logsDir)}/` : ''})`] : []),
    `outputs in ${shownPath(outputs)}/; ${places.taskLogs ? `task logs in ${shownPath(places.logsDir)}/; ` : ''}journal ${shownPath(places.journal)}`,
    ...(result.taskLogs?.problem !== undefined ? [`warning: ${result.taskLogs.problem}`] : []),
  ];
}

/** A real run re-plans every 60 s by default (a simulation: every 300 s, the paper's setting). */
const REAL_RUN_DEFAULTS: SchedulerOptions = { ...DEFAULT_SCHEDULER_OPTIONS, planIntervalS: 60 };

const command: Command = {
  name: 'run',
  summary: COMMAND_SUMMARIES.run,
  usage:
    'gridsweep run SWEEP.json --grid REALGRID.json [--heuristic H] [--journal FILE] [--resume | --fresh] [--accept-new] [--record FILE] [--replay SIMRECORD | --compare SIMRECORD] [--no-watch] [--dashboard [--port N] [--host ADDR]]',
  details: [
    'The real grid file (JSON) names the origin directory and, per cluster, its storage directory and its',
    'hosts: {"type": "local", "slots": N} or a list of SSH hosts {name, address, port, user, identityFile or',
    '"agent": true, arch, knownHosts, slots, jump}. See apps/examples/sweep-sim/grid-ssh.json. What an SSH',
    'host leaves out comes from ~/.ssh/config, then /etc/ssh/ssh_config, for its address, as for ssh (HostName,',
    'Port, User, IdentityFile, IdentitiesOnly, IdentityAgent, UserKnownHostsFile, GlobalKnownHostsFile,',
    'StrictHostKeyChecking, ProxyJump),',
    'then ssh\'s defaults (the agent, ~/.ssh/id_ed25519, id_ecdsa or id_rsa). SSH host keys are checked against',
    'known_hosts (hashed or plain) and, read only, the system-wide /etc/ssh/ssh_known_hosts and',
    "ssh_known_hosts2; --accept-new adds unknown hosts as OpenSSH's StrictHostKeyChecking=accept-new does (so",
    'does that setting, or =no, in the configuration, for its hosts), and a changed key is always refused.',
    'Where things go: outputs where the sweep file says, under the origin (the run prints the directory at',
    'its start and end); the journal in ORIGIN/.gridsweep/SWEEP/journal.jsonl (SWEEP: the sweep file\'s name',
    'without .json) unless --journal names one; the last 64 KiB of each task\'s standard output and error',
    'in ORIGIN/.gridsweep/SWEEP/logs/N.out and N.err (N: the task number; the last attempt\'s; a stream that',
    'wrote nothing leaves no file; on SSH hosts with "transport": "exec", the last 4000 bytes of stderr only;',
    '--no-task-logs keeps none, saving a file per task that prints).',
    'The summary shows the last lines of stderr of the tasks given up. A second run of the same sweep',
    'continues the first from the default journal, as --resume does: it says how many tasks are already',
    'done and runs the others. --fresh starts over: it renames the journal and the logs aside (NAME.TIME),',
    'leaves the outputs where they are (each is replaced when its task is done again). With --journal FILE,',
    'a journal that already holds a run needs --resume or --fresh. --replay and --compare run every task:',
    'they move the default journal aside as --fresh does. One run at a time per journal: while a run goes,',
    'JOURNAL.lock names its process, and a second run of that journal is refused (one whose process is',
    'gone, killed or rebooted, is taken over).',
    'The journal (JSON Lines; a verified result is on disk before the task counts as done, a task\'s start',
    'is written before it is launched and fsync\'d soon after; the lines of a moment share one fsync) lets',
    'a resumed run skip every task whose outputs are',
    'at the origin with the recorded size and SHA-256, and collect (fetch and verify) the tasks that exited',
    '0 while no controller ran (the agent lets running tasks finish when its controller goes) instead of',
    'running them again. A task counts as done only when its outputs are verified. Before the first task,',
    'the run checks that each output can take its place at the origin (no file where one of its folders',
    'goes, no folder where it goes). When the origin refuses a write (an output, the journal, the run record',
    'or a task log: disk full, over quota, read-only, I/O error, or something put in an output\'s way),',
    'no host or cluster is blamed and no task is run again: the run stops with exit status 4, naming',
    'the file and the file system to free; the verified outputs stay, and the same command (with --journal',
    'FILE, plus --resume) then does the rest. A task that exits',
    'non-zero is retried (up to 3 failures); a host that fails is retried with back-off and rejoins when it',
    'answers again. Its running tasks are re-planned at once; those that finished on it meanwhile (the agent',
    'outlives its connection) are found when it answers, brought back and not run again ("recovered task N").',
    'Every remote operation has a deadline ("deadlines" in the real grid file: commandS 60, probeS 15, loginS',
    '30, and for a transfer commandS plus four times its size over the link\'s measured bandwidth, or',
    'assumedBandwidthBps 100000 before it is measured); past it the host counts as down. The load probe,',
    'every 5 s on a channel of its own, is the heartbeat that notices a hung host. The run starts 2 s after',
    'the first host is up; the others join when they answer.',
    'On SSH hosts every command goes through gridsweep\'s agent (perl, sent over the connection; nothing to',
    'install) on one channel; a task\'s outputs up to 64 KB in all come back with its exit, hashed on the',
    'host and checked at the origin; "transport": "exec" in the real grid file uses a channel per command.',
    'A Slurm cluster ({"type": "slurm", "submission", "pilots", "pilotCores", "pilotWalltimeS", "memoryMB",',
    '"partition", "account", "qos", "sbatchArgs", "setup", "env", "arch", "login"}) gets its hosts from pilot',
    'jobs submitted with sbatch on this machine, or on its "login" node over SSH: each pilot\'s cores are',
    'hosts from its start until shortly before its walltime ends; the agent runs in it as a job step (srun',
    '--overlap); files go through the cluster\'s shared storage. "submission": "per-work" submits single-core',
    'jobs that each compute one Work. A pilot cancelled, preempted or ended by its walltime takes its hosts',
    'with it and its tasks run again elsewhere. After 4 pilots in a row (or twice "pilots", if more) end with',
    'no task run on them (they die as they start, or are too short for any task), the cluster is given up',
    'as in simulation: no more pilots, and the run goes on with its other hosts or, with none, ends not',
    'finished (exit status 3). The run cancels its pilots when it ends or is interrupted',
    '(SIGINT); --resume collects what a killed run\'s pilots finished without it, then cancels them.',
    'The real grid file is watched during the run: a host added to it joins (and the scheduler re-plans);',
    'a host removed from it finishes its running task and takes no new one (the next plan moves the tasks',
    'queued on it to the other hosts); an edit that does not parse is reported (file:line:column) and',
    'ignored, the run going on with the last good grid (--no-watch turns this off). The origin and a',
    'cluster\'s storage cannot change during a run.',
    '--replay SIMRECORD runs exactly the schedule a simulation recorded (same host for each task, same',
    'order on each host and link); its host and cluster names must be those of the real grid file (simulate',
    'the output of `gridsweep describe` on a grid description with those names, e.g. from `gridsweep probe`).',
    'A replayed host that fails is waited for; one removed from the real grid file, even while down, leaves',
    'for good, and the tasks the record still had for it are given up (the summary lists them; exit status 1):',
    'the journal lets --resume without --replay run them.',
    'With --replay or --compare, the summary and the run record\'s run-end compare the predicted and the',
    'actual timeline: makespan, and the median and max deviation of each task\'s start.',
    '--dashboard serves the live dashboard of the run on 127.0.0.1 (the URL, with its token, is printed',
    'first) until the run ends; `gridsweep dashboard RECORD` replays it afterwards.',
    DASHBOARD_TUNNEL_HINT,
    '',
    SWEEP_FORMAT_HELP,
    '',
    `Heuristics: ${listHeuristics().map((h) => h.name).join(', ')}.`,
    '',
    strategyChoicesHelp(),
  ].join('\n'),
  options: {
    grid: { type: 'string', short: 'g', description: 'the real grid file', valueName: 'REALGRID' },
    journal: { type: 'string', description: 'journal file (default: ORIGIN/.gridsweep/SWEEP/journal.jsonl)', valueName: 'FILE' },
    resume: { type: 'boolean', description: 'continue the run the journal describes, skipping verified tasks' },
    fresh: { type: 'boolean', description: "start over: move the journal and task logs aside (renamed with the time; outputs stay)" },
    'accept-new': { type: 'boolean', description: 'add SSH hosts missing from known_hosts (never a changed key)' },
    record: { type: 'string', description: 'write the run record (JSON Lines) to this file', valueName: 'FILE' },
    seed: { type: 'string', description: 'seed of the randomized heuristics', valueName: 'N', default: '1' },
    'sample-period': { type: 'string', description: 'seconds between load probes of each host (at most 86400)', valueName: 'S', default: '5' },
    'task-timeout': { type: 'string', description: 'kill a task still running S seconds after it started; the attempt counts as failed (a task is given up after 3)', valueName: 'S' },
    'keep-storage': { type: 'boolean', description: "leave this run's files in the clusters' storage" },
    replay: { type: 'string', description: 'follow the schedule of this simulation record exactly', valueName: 'SIMRECORD' },
    compare: { type: 'string', description: 'compare the run with this simulation record (predicted vs actual)', valueName: 'SIMRECORD' },
    'no-watch': { type: 'boolean', description: 'do not apply edits of the real grid file during the run' },
    'no-task-logs': { type: 'boolean', description: "do not keep the tasks' stdout and stderr (saves a file per task that prints)" },
    dashboard: { type: 'boolean', description: 'serve a live dashboard of the run on 127.0.0.1' },
    port: { type: 'string', description: 'dashboard port (default: a random free port)', valueName: 'N' },
    host: DASHBOARD_HOST_OPTION,
    ...schedulerFlags(REAL_RUN_DEFAULTS),
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const sweepPath = args.positionals[0]!;
    const gridPath = requiredString(args, 'grid');
    await loadHeuristicPlugins([stringOption(args, 'heuristic')]);
    const options = schedulerOptionsFromArgs(args, REAL_RUN_DEFAULTS);
    printWarnings('run', schedulerOptionWarnings(args, options));
    for (const flag of ['port', 'host']) if (!flagOption(args, 'dashboard') && stringOption(args, flag) !== undefined) throw new UsageError(`--${flag} goes with --dashboard`);
    const resume = flagOption(args, 'resume');
    const fresh = flagOption(args, 'fresh');
    if (resume && fresh) throw new UsageError('--resume continues the journal\'s run and --fresh starts over: give one of them');
    const explicitJournal = stringOption(args, 'journal');
    const seed = numberOption(args, 'seed', 1, { integer: true, min: 0, max: MAX_SEED });
    const samplePeriodS = numberOption(args, 'sample-period', 5, { min: 0.1, max: 86_400 });
    const taskTimeoutS = numberOption(args, 'task-timeout', Infinity, { min: 0.1 });
    const replayPath = stringOption(args, 'replay');
    const comparePath = stringOption(args, 'compare');
    if (replayPath !== undefined && comparePath !== undefined) throw new UsageError('--replay already compares with its record; give --replay or --compare, not both');
    const predictionPath = replayPath ?? comparePath;
    expectFileKind(sweepPath, ['sweep'], 'run', 'a sweep file');
    expectFileKind(gridPath, ['real-grid'], 'run --grid', 'a real grid file');
    if (predictionPath !== undefined) expectFileKind(predictionPath, ['run-record'], replayPath !== undefined ? 'run --replay' : 'run --compare', 'a run record');
    if (explicitJournal !== undefined) expectFileKind(explicitJournal, ['run-journal'], 'run --journal', "a real run's journal");
    const sweep = loadSweepFile(sweepPath);
    const grid = loadRealGrid(gridPath);
    const plan = predictionPath !== undefined ? loadReplayPlan(predictionPath) : undefined;
    // before anything is written: a schedule that does not fit this grid and sweep is an input error
    if (plan && replayPath !== undefined) checkReplayPlan(plan, grid, expandForGrid(sweepPath, sweep, grid).application);
    // The journal and task logs: by default in the origin, so that a second run continues the first.
    const files = runFilesOf(originDirOf(sweepPath, grid), sweepPath);
    const journalPath = explicitJournal ?? files.journal;
    // The command that carries this run on (a named journal that holds a run needs --resume).
    const again = explicitJournal !== undefined && !resume ? 'run the same command again with --resume' : 'run the same command again';
    let lock: JournalLock;
    try {
      lock = lockJournal(journalPath); // refused (JournalBusyError): main.ts says why, exit 1
    } catch (err) {
      if (!(err instanceof OriginWriteError)) throw err;
      for (const line of originFailureLines(err, again)) console.error(line);
      return EXIT.originWrite;
    }
    let continuing = resume;
    const earlier = journalHoldsRun(journalPath);
    if (fresh || (explicitJournal === undefined && earlier && predictionPath !== undefined)) {
      for (const m of moveAside([journalPath, files.logsDir])) console.log(`moved aside: ${shownPath(m.from)} -> ${shownPath(m.to)}`);
      if (!fresh) console.log(`(--${replayPath !== undefined ? 'replay' : 'compare'} runs every task, so it starts afresh)`);
    } else if (explicitJournal === undefined && earlier) continuing = true;
    const taskLogs = !flagOption(args, 'no-task-logs');
    const places: RunPlaces = { journal: journalPath, logsDir: files.logsDir, continuing, taskLogs };
    const recordPath = stringOption(args, 'record');
    let record: ReturnType<typeof recordFile> | undefined;
    try {
      record = recordPath !== undefined ? recordFile(recordPath) : undefined;
    } catch (err) {
      lock.release();
      if (!(err instanceof OriginWriteError)) throw err;
      for (const line of originFailureLines(err, again)) console.error(line);
      return EXIT.originWrite;
    }
    let live: LiveRecordSource | undefined;
    let dashboard: Dashboard | undefined;
    if (flagOption(args, 'dashboard')) {
      const address = dashboardAddress(args);
      live = new LiveRecordSource('run');
      dashboard = await startCommandDashboard({ sources: [live], title: `gridsweep run ${sweepPath}`, ...address });
      console.log(`dashboard: ${dashboard.url}`);
    }
    const sinks = [record?.sink, live?.sink].filter((x): x is RecordSink => x !== undefined);
    const progress = makeProgress(process.stdout.isTTY === true, places);
    let cleanup: (() => Promise<void>) | undefined;
    const stopOnSignal = (): void => {
      progress.stop();
      console.error(`gridsweep run: interrupted${cleanup ? '; cancelling the Slurm pilots' : ''}; run the same command again to continue (journal ${shownPath(journalPath)})`);
      const limit = new Promise((resolve) => setTimeout(resolve, 30_000).unref());
      void Promise.race([cleanup?.().catch(() => undefined), limit]).then(() => process.exit(EXIT.interrupted));
    };
    process.once('SIGINT', stopOnSignal);
    try {
      const result = await runReal(
        {
          sweepPath,
          sweep,
          gridPath,
          grid,
          scheduler: options,
          seed,
          journalPath,
          resume: continuing,
          ...(taskLogs ? { taskLogsDir: files.logsDir } : {}),
          acceptNew: flagOption(args, 'accept-new'),
          record: teeSinks(...sinks),
          log: progress.log,
          samplePeriodS,
          ...(Number.isFinite(taskTimeoutS) ? { taskTimeoutS } : {}),
          keepStorage: flagOption(args, 'keep-storage'),
          watchGrid: !flagOption(args, 'no-watch'),
          ...(plan ? { prediction: { plan, replay: replayPath !== undefined } } : {}),
          onInterrupt: (fn) => (cleanup = fn),
        },
        (app, deps) => new Scheduler(app, options, deps),
      );
      progress.stop();
      const sends = [...result.inputSends.values()];
      console.log(
        [
          `makespan: ${result.makespanS.toFixed(2)} s`,
          `tasks: ${result.worksDone} done and verified, ${result.worksSkipped} skipped (verified before), ${result.worksFailed.length} failed, of ${result.worksTotal}`,
          ...(result.originFailure ? [`${result.worksTotal - result.worksDone - result.worksSkipped - result.worksFailed.length} task(s) not done: the run stopped because the origin could not be written (below)`] : []),
          `inputs sent: ${sends.reduce((a, b) => a + b, 0)} transfer(s), at most ${Math.max(0, ...sends)} per file and cluster`,
          ...(result.unfinished !== undefined ? [`${result.worksTotal - result.worksDone - result.worksSkipped - result.worksFailed.length} task(s) NOT DONE: ${result.unfinished}`] : []),
          ...result.pilots.map((p) => `pilots on ${p.cluster}: ${p.submitted} submitted, ${p.queueWaitsS.length} started, queue wait ${waitSummary(p.queueWaitsS)}${p.gaveUp !== undefined ? '; given up (no more pilots)' : ''}`),
          ...failedTaskLines(result.whyFailed),
          ...placesSummary(result, places),
          ...(result.prediction ? [formatComparison(result.prediction)] : []),
        ].join('\n'),
      );
      if (result.originFailure) {
        for (const line of originFailureLines(result.originFailure, again)) console.error(line);
        return EXIT.originWrite;
      }
      if (result.worksFailed.length > 0) return EXIT.failure;
      if (result.unfinished !== undefined) {
        console.error(`gridsweep run: not finished (exit status ${EXIT.unfinished}): ${result.unfinished}; fix the cluster, then run the same command again to do the rest (journal ${shownPath(journalPath)})`);
        return EXIT.unfinished;
      }
      return EXIT.ok;
    } catch (err) {
      progress.stop();
      if (err instanceof OriginWriteError) {
        for (const line of originFailureLines(err, again)) console.error(line);
        return EXIT.originWrite;
      }
      if (err instanceof Error && !(err.name === 'InputError')) {
        console.error(`gridsweep run: ${err.message}`);
        return 1;
      }
      throw err;
    } finally {
      lock.release();
      process.removeListener('SIGINT', stopOnSignal);
      record?.close();
      live?.end();
      await dashboard?.close();
    }
  },
};

export default command;
