// Turning an input entry of an experiment (a file or a generator call, after ${...} substitution) into a
// model object, and fingerprinting models by content: the SHA-256 of a canonical JSON form, so that the
// cache key depends on what a grid or an application is, not on its file name, comments or layout.
import { createHash } from 'node:crypto';
import { isAbsolute, join } from 'node:path';
import { loadApplication, loadGrid } from '../formats/index.js';
import type { Application } from '../model/application.js';
import type { GridDescription } from '../model/grid.js';
import { MAX_SEED, Rng } from '../util/rng.js';
import { fig11Application, fig11Grid } from '../generators/fig11.js';
import { generateIns2dApplication, generateMcellApplication, type Ins2dSpec, type McellSpec } from '../generators/application.js';
import { generateGrid, type GridSpec } from '../generators/grid.js';
import type { InputSpec } from './spec.js';
import { wrongKind } from '../formats/file-kind.js';

export type InputKind = 'application' | 'grid';

/** The entry with a relative file path made absolute (relative to the specification's folder). */
export function absolutize(input: InputSpec, baseDir: string): InputSpec {
  if ('file' in input) return { file: isAbsolute(input.file) ? input.file : join(baseDir, input.file) };
  return input;
}

function numberParam(v: unknown, what: string): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new Error(`${what} must be a number, got ${JSON.stringify(v)}`);
  return n;
}

function seedOf(input: { seed?: number | string }): number {
  const s = input.seed === undefined ? 1 : numberParam(input.seed, 'seed');
  // Past MAX_SEED the generator, which reads 32 bits, would silently repeat another seed's application.
  if (!Number.isInteger(s) || s < 0 || s > MAX_SEED) throw new Error(`seed must be a whole number from 0 to ${MAX_SEED}, got ${s}`);
  return s;
}

export function loadApplicationInput(input: InputSpec): Application {
  if ('file' in input) {
    const wrong = wrongKind(input.file, ['application'], 'an application description (.app)');
    if (wrong) throw new Error(`${input.file}: ${wrong.sentence}${wrong.kind === 'grid' ? '; list it under "grids"' : ''}`);
    return loadApplication(input.file);
  }
  switch (input.generator) {
    case 'fig11':
      return fig11Application(numberParam(input.sharedFileSizeKB, 'sharedFileSizeKB'), input.seed === undefined ? undefined : seedOf(input));
    case 'mcell':
      return generateMcellApplication(input.spec as unknown as McellSpec, new Rng(seedOf(input)));
    case 'ins2d':
      return generateIns2dApplication(input.spec as unknown as Ins2dSpec, new Rng(seedOf(input)));
    default:
      throw new Error(`generator "${input.generator}" makes grids, not applications`);
  }
}

export function loadGridInput(input: InputSpec): { grid: GridDescription; warnings: string[] } {
  if ('file' in input) {
    const wrong = wrongKind(input.file, ['grid'], 'a grid description (.grid)');
    if (wrong) throw new Error(`${input.file}: ${wrong.sentence}${wrong.kind === 'application' ? '; list it under "applications"' : ''}`);
    const { grid, warnings } = loadGrid(input.file);
    return { grid, warnings: warnings.map((w) => `${w.pos.file}:${w.pos.line}:${w.pos.column}: ${w.message}`) };
  }
  switch (input.generator) {
    case 'fig11-grid':
      return { grid: fig11Grid(), warnings: [] };
    case 'grid':
      return { grid: generateGrid(input.spec as unknown as GridSpec, new Rng(seedOf(input))), warnings: [] };
    default:
      throw new Error(`generator "${input.generator}" makes applications, not grids`);
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function hashApplication(app: Application): string {
  return sha256(
    JSON.stringify({
      version: app.version,
      files: app.files.map((f) => [f.id, f.name, f.sizeBytes, f.estSizeBytes]),
      works: app.works.map((w) => [w.id, w.inputs, w.outputs, w.runTimeS, w.estRunTimeS]),
    }),
  );
}

/** Object keys sorted and source positions dropped, so that equal grids print equal. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .filter((k) => k !== 'pos')
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function hashGrid(grid: GridDescription): string {
  const byName = <T>(m: ReadonlyMap<string, T>): [string, unknown][] => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, canonical(v)]);
  return sha256(JSON.stringify({ version: grid.version, events: canonical(grid.events), links: byName(grid.linkBehaviors), hosts: byName(grid.hostBehaviors) }));
}

/** A stable text for an input entry, used as a map key (object keys sorted). */
export function inputKey(kind: InputKind, input: InputSpec): string {
  return `${kind}:${JSON.stringify(canonical(input))}`;
}

export function sha256Of(text: string): string {
  return sha256(text);
}
