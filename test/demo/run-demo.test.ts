// The demo pipeline (spec → experiment tool → results → findings → report) with an injected runner whose
// makespans are a known function of the heuristic: the report must follow whatever the runs say.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunOneFn } from '../../src/experiment/job.js';
import { DemoFailedError, runDemo } from '../../src/demo/run-demo.js';
import { FIG11_SEED } from '../../src/generators/fig11.js';
import { hashApplication } from '../../src/experiment/inputs.js';
import { loadApplication } from '../../src/formats/index.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const dir = mkdtempSync(join(tmpdir(), 'gridsweep-rundemo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The work queue best, then the registry order; makespan grows with the shared file size. */
const rank: Record<string, number> = { workqueue: 0, maxmin: 1 };
const fakeRunner: RunOneFn = ({ app }, { options, seed }) => {
  const sharedKB = app.files[0]!.sizeBytes / 1024;
  const makespanS = 3500 + sharedKB * (0.2 + 0.05 * (rank[options.heuristic] ?? 2)) + (seed - FIG11_SEED);
  return { makespanS, finished: true, worksDone: app.works.length, worksTotal: app.works.length, bytesMoved: 0, utilization: 1, planCalls: 1, planCpuMs: 0, failures: 0, reexecutions: 0 };
};

describe('runDemo', () => {
  it('reports what the runs say, and its first seed is exactly the bundled application', async () => {
    const outDir = join(dir, 'fake');
    const out = await runDemo({ outDir, jobs: 1, study: { sizesKB: [100, 9600], seedCount: 2 }, runner: { inline: fakeRunner } });
    expect(out.experiment.total).toBe(out.summary.heuristics.length * 4);
    expect(out.findings.sentences[0]).toContain('workqueue (H0) has the shortest median makespan');
    expect(out.findings.sentences).toContain('The work queue (H0), which ignores file sharing, is itself the best here.');
    const html = readFileSync(out.reportPath, 'utf8');
    expect(html).toContain('workqueue (H0) has the shortest median makespan');
    expect(html).toMatch(/<span class="differ">differs<\/span>/);
    // The header's application hash for seed FIG11_SEED at 9600 KB is the shipped file's.
    const shipped = hashApplication(loadApplication(join(PACKAGE_ROOT, 'apps/fig11/fig11-9600kb.app')));
    const input = out.results.header.inputs.find((i) => i.kind === 'application' && i.sweep === 9600 && i.seed === FIG11_SEED);
    expect(input?.sha256).toBe(shipped);
    // Another seed draws another application.
    expect(out.results.header.inputs.find((i) => i.kind === 'application' && i.sweep === 9600 && i.seed === FIG11_SEED + 1)?.sha256).not.toBe(shipped);
  });

  it('all runs failing is a DemoFailedError and no report', async () => {
    const outDir = join(dir, 'failing');
    const failing: RunOneFn = () => {
      throw new Error('boom');
    };
    await expect(runDemo({ outDir, jobs: 1, study: { sizesKB: [100], seedCount: 1 }, runner: { inline: failing } })).rejects.toThrow(DemoFailedError);
    expect(existsSync(join(outDir, 'report.html'))).toBe(false);
  });

  it('an output folder that cannot be created is reported by the command, with exit 2', async () => {
    const { default: demo } = await import('../../src/cli/commands/demo.js');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    await expect(demo.run({ values: { out: join(file, 'out') }, positionals: [] })).rejects.toThrow(/cannot create the output folder .*a-file/);
  });
});
