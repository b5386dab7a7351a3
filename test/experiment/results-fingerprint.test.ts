// A fixed handful of simulations, fingerprinted. The experiment cache is keyed by RESULTS_VERSION, not by
// what the code computes; so when these results change, RESULTS_VERSION must change too, or the cache
// goes on serving results computed before the change. results-fingerprint.json holds the fingerprint and
// the results version it was recorded for.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate, type SimulationResult } from '../../backends/sim/simulate.js';
import { RESULTS_VERSION } from '../../src/experiment/results-version.js';
import { loadApplication, loadGrid } from '../../src/formats/index.js';
import { DEFAULT_SCHEDULER_OPTIONS } from '../../src/scheduler/options.js';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const VERSION_FILE = 'src/experiment/results-version.ts';
const STORED_FILE = 'test/experiment/results-fingerprint.json';
const UPDATE_VAR = 'GRIDSWEEP_UPDATE_RESULTS_FINGERPRINT';
const UPDATE_COMMAND = `${UPDATE_VAR}=1 npx vitest run test/experiment/results-fingerprint.test.ts`;

const INPUTS: Record<string, { app: string; grid: string }> = {
  // Hosts and clusters failing and joining.
  'appendix-b': { app: 'apps/appendix-b.app', grid: 'griddescs/appendix-a/appendix-a.grid' },
  // A large shared file, where the heuristics differ most.
  'fig11-9600kb': { app: 'apps/fig11/fig11-9600kb.app', grid: 'griddescs/fig11/fig11.grid' },
};
const HEURISTICS = ['workqueue', 'minmin', 'maxmin', 'sufferage', 'xsufferage', 'extended-sufferage', 'randomized-minmin'];

interface Fingerprint {
  readonly resultsVersion: number;
  readonly fingerprint: string;
  /** For the reader of a diff and of the failure message; the fingerprint covers more. */
  readonly makespansS: Record<string, number>;
}

// Microseconds: a last-bit difference in a Math function between Node versions is not a change of meaning.
const rounded = (x: number): string => x.toFixed(6);

function figures(r: SimulationResult): object {
  return {
    makespanS: rounded(r.makespanS),
    finished: r.finished,
    worksDone: r.worksDone,
    failures: r.failures,
    reexecutions: r.reexecutions,
    planCalls: r.planCalls,
    hostBusyS: r.hosts.map((h) => [h.id, rounded(h.busyS)]),
    links: r.links.map((l) => [l.id, l.bytesIn, l.bytesOut, l.transfers]),
  };
}

function fingerprintNow(): Fingerprint {
  const runs: object[] = [];
  const makespansS: Record<string, number> = {};
  for (const [name, files] of Object.entries(INPUTS)) {
    const app = loadApplication(join(PACKAGE_ROOT, files.app));
    const { grid } = loadGrid(join(PACKAGE_ROOT, files.grid));
    for (const heuristic of HEURISTICS) {
      const r = simulate({ app, grid, scheduler: { ...DEFAULT_SCHEDULER_OPTIONS, heuristic }, seed: 1 });
      runs.push({ input: name, heuristic, ...figures(r) });
      makespansS[`${name}/${heuristic}`] = Number(r.makespanS.toFixed(3));
    }
  }
  return { resultsVersion: RESULTS_VERSION, fingerprint: createHash('sha256').update(JSON.stringify(runs)).digest('hex'), makespansS };
}

function readStored(): Fingerprint | undefined {
  const path = join(PACKAGE_ROOT, STORED_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Fingerprint) : undefined;
}

/** Rewrites the stored fingerprint, but never under a results version that already had another one. */
function record(now: Fingerprint, stored: Fingerprint | undefined): void {
  if (stored && now.resultsVersion < stored.resultsVersion)
    throw new Error(`RESULTS_VERSION in ${VERSION_FILE} went down (${stored.resultsVersion} → ${now.resultsVersion}): it only goes up, or old cached results would be served again.`);
  if (stored && now.resultsVersion === stored.resultsVersion && now.fingerprint !== stored.fingerprint)
    throw new Error(`The results changed but RESULTS_VERSION did not: set it to ${stored.resultsVersion + 1} in ${VERSION_FILE} first, then run this again.`);
  writeFileSync(join(PACKAGE_ROOT, STORED_FILE), `${JSON.stringify(now, null, 2)}\n`);
}

function changedMakespans(stored: Fingerprint, now: Fingerprint): string {
  const lines = Object.keys(now.makespansS)
    .filter((k) => stored.makespansS[k] !== now.makespansS[k])
    .map((k) => `  ${k}: ${stored.makespansS[k]} s → ${now.makespansS[k]} s`);
  return lines.length > 0 ? `Makespans that changed:\n${lines.join('\n')}` : 'No makespan changed; host busy times, transfers or plan calls did.';
}

describe('the results version and the simulated results', () => {
  const now = fingerprintNow();
  if (process.env[UPDATE_VAR] === '1') record(now, readStored());
  const stored = readStored();

  it('the stored fingerprint was recorded for the current results version', () => {
    if (stored?.resultsVersion !== RESULTS_VERSION)
      expect.fail(
        `RESULTS_VERSION in ${VERSION_FILE} is ${RESULTS_VERSION}, but ${STORED_FILE} holds ${stored ? `the fingerprint of version ${stored.resultsVersion}` : 'no fingerprint'}.\n` +
          `Record the fingerprint of version ${RESULTS_VERSION}: ${UPDATE_COMMAND}\nand commit ${STORED_FILE} with the change.`,
      );
  });

  it('the results are those recorded for this results version', () => {
    if (stored?.resultsVersion !== RESULTS_VERSION) return; // the case above fails and says what to do
    if (now.fingerprint !== stored.fingerprint)
      expect.fail(
        `The simulated results changed, but RESULTS_VERSION did not: cached experiment results would be served as if nothing had changed.\n` +
          `${changedMakespans(stored, now)}\n` +
          `If the change is intended: set RESULTS_VERSION to ${RESULTS_VERSION + 1} in ${VERSION_FILE}, then run ${UPDATE_COMMAND}\n` +
          `and commit both files. If it is not, the change has a side effect on the schedules to look into.`,
      );
  });
});
