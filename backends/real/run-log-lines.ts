// One line of text per event a real run reports (RunLogEvent), as `gridsweep run` prints them and an
// experiment on a real grid echoes them: the wording lives here once, and each caller names its tasks
// (`task 7`, `cell H4/fig11/3`).
import type { RunLogEvent } from './runner.js';

/** The line for `e`; `task(work)` is how the caller names a task in it. */
export function runLogLine(e: Exclude<RunLogEvent, { kind: 'start' }>, task: (work: number) => string): string {
  switch (e.kind) {
    case 'done':
      return `done    ${task(e.work)} on ${e.host} (${e.done}/${e.total})`;
    case 'failed':
      return `${e.final ? 'GAVE UP' : 'failed '} ${task(e.work)} on ${e.host}: ${e.reason}`;
    case 'stored':
      return `stored  input ${e.file} in ${e.cluster} (${e.sizeBytes} bytes, ${e.seconds.toFixed(2)} s)`;
    case 'down':
      return `down    ${e.machine}: ${e.reason}`;
    case 'up':
      return `up      ${e.machine}`;
    case 'unusable':
      return `UNUSABLE ${e.machine}: ${e.reason}`;
    case 'input-lost':
      return `lost    ${e.paths.join(', ')} from the storage of ${e.cluster} (removed since stored?): sent again; ${task(e.work)} runs again`;
    case 'cores':
      return `note    ${e.machine} has ${e.cores} cores and runs one task at a time: "slots": ${e.slots} in the real grid file would run ${e.slots} at once there`;
    case 'joining':
      return `joining ${e.machine} (cluster ${e.cluster}), added to the real grid file`;
    case 'leaving':
      return `leaving ${e.machine}, removed from the real grid file${e.running.length > 0 ? `; finishing ${e.running.map(task).join(', ')} first` : ''}`;
    case 'left':
      return `left    ${e.machine}`;
    case 'collected':
      return `collected ${task(e.work)} on ${e.host}: it finished while gridsweep was not running`;
    case 'recovered':
      return e.adopted
        ? `recovered ${task(e.work)} on ${e.host}: adopted when the connection came back, it has finished; not run again`
        : `recovered ${task(e.work)} on ${e.host}: it finished while the connection was down, not run again`;
    case 'adopted':
      return `adopted ${task(e.work)} on ${e.host}: still running when the connection came back; its exit is watched, it is not killed`;
    case 'pilot':
      return `pilot   ${e.cluster} job ${e.job}: ${e.message}`;
    case 'grid-edit':
      return e.applied ? `grid    ${e.message}` : `GRID EDIT IGNORED: ${e.message}`;
  }
}
