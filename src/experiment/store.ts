// The result cache: one JSON file per run, named by the SHA-256 of everything the run depends on (the
// results version, the contents of its grid and application, every scheduler option, the seed and the
// sample period). Each file is written atomically as its run finishes, so an interrupted experiment loses
// at most the runs in flight and resumes where it stopped.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write.js';
import { sha256Of } from './inputs.js';
import type { JobResult } from './job.js';
import type { SchedulerOptions } from '../scheduler/options.js';

export interface RunKeyParts {
  /** RESULTS_VERSION (results-version.ts), not the package version: a release that changes no result keeps the cache. */
  readonly resultsVersion: number;
  readonly applicationSha256: string;
  readonly gridSha256: string;
  readonly options: SchedulerOptions;
  readonly seed: number;
  readonly samplePeriodS: number | null;
}

export function runKey(parts: RunKeyParts): string {
  const options = Object.fromEntries(Object.entries(parts.options).sort(([a], [b]) => (a < b ? -1 : 1)));
  return sha256Of(JSON.stringify({ ...parts, options }));
}

export interface StoredResult extends JobResult {
  readonly key: string;
  readonly parts: RunKeyParts;
}

export class ResultStore {
  constructor(readonly dir: string) {}

  pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  has(key: string): boolean {
    return existsSync(this.pathOf(key));
  }

  /** The stored result, or undefined when absent or unreadable (it will then be run again). */
  read(key: string): StoredResult | undefined {
    try {
      const r = JSON.parse(readFileSync(this.pathOf(key), 'utf8')) as StoredResult;
      return r.key === key && r.outcome && r.bound ? r : undefined;
    } catch {
      return undefined;
    }
  }

  write(result: StoredResult): void {
    const path = this.pathOf(result.key);
    mkdirSync(join(this.dir, result.key.slice(0, 2)), { recursive: true });
    writeFileAtomicSync(path, `${JSON.stringify(result)}\n`);
  }
}
