// Building and feeding the SimGrid twin (bench/simgrid-twin/master-worker.cpp): compiled with g++ against
// Debian's libsimgrid-dev, failing loudly when they are missing; its input written from an application and
// a grid description of the shape it takes (identical one-input one-output tasks, constant links).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Application } from '../../src/model/application.js';
import { DEFAULT_SAMPLE_PERIOD_S, type GridDescription } from '../../src/model/grid.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const SIMGRID_HEADER = '/usr/include/simgrid/s4u.hpp';

/** Compiles the twin into `dir`; returns the executable's path. */
export function buildSimgridTwin(dir: string): string {
  if (!existsSync(SIMGRID_HEADER)) {
    throw new Error(`${SIMGRID_HEADER} is missing: the SimGrid twin needs Debian's libsimgrid-dev and g++ (apt-get install libsimgrid-dev g++; scripts/install-test-deps.sh installs them)`);
  }
  const twin = join(dir, 'master-worker');
  execFileSync('g++', ['-O2', '-std=c++17', join(PACKAGE_ROOT, 'bench/simgrid-twin/master-worker.cpp'), '-lsimgrid', '-o', twin]);
  return twin;
}

/** The twin's input: the sweep's sizes and, per host in order, its cluster and availability samples from its offset on. */
export function twinInput(app: Application, grid: GridDescription): string {
  const work = app.works[0]!;
  for (const w of app.works) {
    if (w.inputs.length !== 1 || w.outputs.length !== 1 || w.runTimeS[0] !== work.runTimeS[0]) throw new Error('the twin takes identical tasks with one input and one output');
  }
  const size = (id: number) => app.files[id]!.sizeBytes;
  const clusters: string[] = [];
  let link: { latencyMs: number; bandwidthBps: number } | undefined;
  const hosts: string[] = [];
  for (const e of grid.events) {
    if (e.kind === 'ADD_CLUSTER') {
      clusters.push(e.cluster);
      const samples = grid.linkBehaviors.get(e.behavior)!.samples;
      if (samples.length !== 1 || (link && (link.latencyMs !== samples[0]!.latencyMs || link.bandwidthBps !== samples[0]!.bandwidthBps))) throw new Error('the twin takes one constant link behaviour');
      link = samples[0]!;
    } else if (e.kind === 'ADD_HOST') {
      const pct = grid.hostBehaviors.get(e.behavior)!.availabilityPct;
      const rotated = pct.map((_, k) => pct[(e.offset + k) % pct.length]! / 100);
      hosts.push(`host ${clusters.indexOf(e.cluster)} ${rotated.join(' ')}`);
    } else throw new Error(`the twin takes no ${e.kind}`);
  }
  return [
    `tasks ${app.works.length}`,
    `input_bytes ${size(work.inputs[0]!)}`,
    `output_bytes ${size(work.outputs[0]!)}`,
    `work_flops ${work.runTimeS[0]}`,
    `latency_s ${link!.latencyMs / 1000}`,
    `bandwidth_Bps ${link!.bandwidthBps}`,
    `period_s ${DEFAULT_SAMPLE_PERIOD_S}`,
    ...hosts,
    '',
  ].join('\n');
}
