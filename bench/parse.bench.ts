// Parse speed of the description formats on large generated inputs (seeded, in memory):
// an MCell-like application of 100,000 Works and 100,000 files, and a grid of 10,000 hosts in 100 clusters.
// Targets: median parse of the application ≤ 3 s, peak RSS ≤ 400 MB.
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseApplication, parseGridEvents } from '../src/formats/index.js';
import { Rng } from '../src/util/rng.js';
import { median } from './support/median.js';

const WORKS = 100_000;
const FILES = 100_000;
const SHARED_INPUTS = 100; // large files many Works read (MCell geometry chunks)
const OUTPUTS = 50_000;
const PARAM_INPUTS = FILES - SHARED_INPUTS - OUTPUTS;
const CLUSTERS = 100;
const HOSTS = 10_000;
const REPETITIONS = 5;

function applicationText(rng: Rng): string {
  const lines = [`# generated MCell-like application, seed 1`, `WorkDescription 1 ${FILES} ${WORKS}`];
  for (let id = 0; id < FILES; id++) {
    const size = id < SHARED_INPUTS ? 50_000_000 + rng.int(50_000_000) : 1_000 + rng.int(500_000);
    const est = Math.round(size * rng.uniform(0.9, 1.1));
    lines.push(`File: <${id}> <file_${id}> <${size}> <${est}>`);
  }
  for (let w = 0; w < WORKS; w++) {
    const inputs = [w % SHARED_INPUTS, SHARED_INPUTS + (w % PARAM_INPUTS)];
    if (rng.next() < 0.5) inputs.push(SHARED_INPUTS + ((w * 7 + 1) % PARAM_INPUTS));
    const output = SHARED_INPUTS + PARAM_INPUTS + (w % OUTPUTS);
    const run = [0, 1, 2].map(() => 100 + rng.int(900));
    const est = run.map((r) => Math.round(r * rng.uniform(0.8, 1.2)));
    lines.push(`Work: <${w}> < ${inputs.length} : ${inputs.join(' ')}> < 1 : ${output} > < 3 : ${run.join(' ')} > < 3 : ${est.join(' ')} >`);
  }
  return lines.join('\n') + '\n';
}

function gridText(rng: Rng): string {
  const lines = ['# generated grid, seed 2', 'GridDescription 1'];
  const perCluster = HOSTS / CLUSTERS;
  for (let c = 0; c < CLUSTERS; c++) {
    lines.push(`0:ADD_CLUSTER <cluster${c}> <link_${c % 5}> <${rng.int(20)}>`);
    for (let h = 0; h < perCluster; h++) {
      lines.push(`0:ADD_HOST <cluster${c}> <host${c}.${h}> <cpu_${rng.int(8)}> <${rng.int(20)}> <${rng.int(3)}>`);
    }
  }
  let t = 100;
  for (let i = 0; i < 1_000; i++) {
    t += rng.int(50);
    const c = rng.int(CLUSTERS);
    lines.push(`${t}:CHANGE_HOST_BEHAVIOR <host${c}.${rng.int(perCluster)}> <cpu_${rng.int(8)}> <${rng.int(20)}>`);
  }
  return lines.join('\n') + '\n';
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Full garbage collection between runs, so each run's peak is its own (works without --expose-gc too). */
v8.setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function measure(label: string, text: string, parse: (t: string) => unknown): void {
  const bytes = Buffer.byteLength(text);
  const lines = countLines(text);
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < REPETITIONS; i++) {
    collectGarbage();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    parse(text);
    const c = process.cpuUsage(c0);
    times.push((performance.now() - t0) / 1000);
    cpuTimes.push((c.user + c.system) / 1e6);
  }
  console.log(
    `${label}: ${(bytes / 1e6).toFixed(1)} MB, ${lines} lines; parse median ${median(times).toFixed(3)} s ` +
      `(runs: ${times.map((t) => t.toFixed(3)).join(', ')}); median CPU time ${median(cpuTimes).toFixed(3)} s`,
  );
}

const app = applicationText(new Rng(1));
measure(`application (${WORKS} works, ${FILES} files)`, app, (t) => parseApplication(t, 'bench.app'));
const grid = gridText(new Rng(2));
measure(`grid (${HOSTS} hosts, ${CLUSTERS} clusters)`, grid, (t) => parseGridEvents(t, 'bench.grid'));
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (garbage collected between runs)`);
