// `npm run bench`: runs every dist/bench/*.bench.js in its own process (so each one's peak memory is its
// own), with node's larger young generation as the gridsweep command has (src/util/young-generation.ts), and
// prints the machine first, so figures are read against what produced them.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { YOUNG_GENERATION_FLAG } from '../src/util/young-generation.js';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

const cpu = cpus();
console.log(`machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}, ${process.platform}`);
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file.replace(/\.bench\.js$/, '')} ===`);
  const r = spawnSync(process.execPath, ['--expose-gc', YOUNG_GENERATION_FLAG, join(here, file)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`(${file} exited with ${r.status ?? r.signal})`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
