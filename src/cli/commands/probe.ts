// `gridsweep probe REALGRID -o DIR`: measure the real hosts and links and write a grid description (with
// behaviour files) of the same clusters and hosts, so that the real grid can be simulated.
import type { Command } from '../command.js';
import { flagOption, numberOption, requiredString } from '../args.js';
import { loadRealGrid } from '../../realgrid/real-grid-file.js';
import { BatchProbeError, probeRealGrid, UnreachableHostsError } from '../../../backends/real/probe-grid.js';
import { writeProbedGrid } from '../../../backends/real/probe-description.js';
import { expectFileKind } from '../../formats/file-kind.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';

const command: Command = {
  name: 'probe',
  summary: COMMAND_SUMMARIES.probe,
  usage: 'gridsweep probe REALGRID.json -o DIR [--samples N] [--interval S] [--transfer-bytes B] [--accept-new]',
  details: [
    'Every round (--interval seconds apart, --samples rounds) reads each machine\'s /proc/loadavg and core',
    'count (CPU availability = cores / (load + 1), capped at 100 %), times a tiny command round trip (the',
    "link latency) and sends a test file of --transfer-bytes into each cluster's storage (the bandwidth).",
    'DIR receives real.grid (one ADD_CLUSTER per cluster, one ADD_HOST per host, the real grid file\'s names)',
    'and one behaviour file per link (link_CLUSTER) and per host (host_HOST), each noting the sample period',
    'to pass to `gridsweep simulate --sample-period`. A machine that cannot be reached is an error (exit 1)',
    'and nothing is written.',
    'A Slurm cluster is written as a batch cluster (ADD_BATCH_CLUSTER) from `sinfo` on its login node (or',
    'here), each command within the grid file\'s commandS deadline: the nodes of its partition that can run',
    'jobs and their CPUs (the fewest, if they differ), the policy closest to its scheduler (`scontrol show',
    'config`: sched/backfill is conservative, sched/builtin fcfs), first-fit, its measured link, and cores',
    'always available (behaviour cores_CLUSTER); real.grid\'s header notes the partition\'s time limit. A',
    'batch system that does not answer is an error too.',
  ].join('\n'),
  options: {
    out: { type: 'string', short: 'o', description: 'folder to write the grid description into', valueName: 'DIR' },
    samples: { type: 'string', description: 'rounds of measurement (default 5)', valueName: 'N' },
    interval: { type: 'string', description: 'seconds between rounds, the sample period (default 1)', valueName: 'S' },
    'transfer-bytes': { type: 'string', description: 'size of the test file sent to each cluster (default 1048576)', valueName: 'B' },
    'accept-new': { type: 'boolean', description: 'add SSH hosts missing from known_hosts (never a changed key)' },
  },
  positionals: { min: 1, max: 1 },
  async run(args) {
    const gridPath = args.positionals[0]!;
    const outDir = requiredString(args, 'out');
    const samples = numberOption(args, 'samples', 5, { integer: true, min: 1, max: 100000 });
    const intervalS = numberOption(args, 'interval', 1, { min: 0.01 });
    const transferBytes = numberOption(args, 'transfer-bytes', 1 << 20, { integer: true, min: 1024, max: 1 << 30 });
    expectFileKind(gridPath, ['real-grid'], 'probe', 'a real grid file');
    const grid = loadRealGrid(gridPath);
    let result;
    try {
      result = await probeRealGrid(grid, { samples, intervalS, transferBytes, acceptNew: flagOption(args, 'accept-new'), log: (l) => console.error(l) });
    } catch (err) {
      if (err instanceof UnreachableHostsError || err instanceof BatchProbeError) {
        console.error(`gridsweep probe: ${err.message}`);
        return 1;
      }
      throw err;
    }
    const written = writeProbedGrid(outDir, result, gridPath);
    for (const c of result.clusters) {
      const bw = c.link.map((s) => s.bandwidthBps).sort((a, b) => a - b);
      const lat = c.link.map((s) => s.latencyMs).sort((a, b) => a - b);
      const what = c.batch ? `batch cluster, partition ${c.batch.partition}: ${c.batch.nodes} node(s) of ${c.batch.coresPerNode} CPU(s), policy ${c.batch.policy}` : `${c.hosts.length} host(s)`;
      console.log(`${c.id}: bandwidth median ${bw[bw.length >> 1]} B/s, latency median ${lat[lat.length >> 1]} ms, ${what}`);
      for (const h of c.hosts) console.log(`  ${h.id}: availability ${h.availabilityPct.join(' ')} %`);
    }
    console.log(`grid description: ${written} (sample period ${intervalS} s)`);
    return 0;
  },
};

export default command;
