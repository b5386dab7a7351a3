// Loaded into a gridsweep process with `node --import` by the benchmarks: at exit, appends the process's
// own CPU time (user and system, microseconds, its thread pool included, its children not) to the file
// named by GRIDSWEEP_BENCH_CPU_FILE, so that the controller's cost per task is told apart from the tasks'.
import { appendFileSync } from 'node:fs';

const file = process.env['GRIDSWEEP_BENCH_CPU_FILE'];
if (file !== undefined) {
  process.once('exit', () => {
    const u = process.cpuUsage();
    appendFileSync(file, `${u.user} ${u.system}\n`);
  });
}
