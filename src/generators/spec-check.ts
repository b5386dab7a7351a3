// Schema checks of the application and grid generators' specifications, by generator name, wherever a
// specification comes from (a `generate` file, or a "spec" inside an experiment specification).
import type { Diagnostic } from '../util/diagnostics.js';
import type { JsonSource } from '../sweep/json-source.js';
import { schemaChecker } from '../sweep/schema-check.js';
import { GRID_SPEC_SCHEMA, INS2D_SPEC_SCHEMA, MCELL_SPEC_SCHEMA } from './spec-schemas.js';

export type SpecGenerator = 'mcell' | 'ins2d' | 'grid';

const CHECKERS: Readonly<Record<SpecGenerator, ReturnType<typeof schemaChecker>>> = {
  mcell: schemaChecker(MCELL_SPEC_SCHEMA, 'mcell specification'),
  ins2d: schemaChecker(INS2D_SPEC_SCHEMA, 'ins2d specification'),
  grid: schemaChecker(GRID_SPEC_SCHEMA, 'grid specification'),
};

/** The schema errors of `generator`'s specification: the whole of `source`, or its part `value` at pointer `base`. */
export function generatorSpecDiagnostics(generator: SpecGenerator, source: JsonSource, base = '', value: unknown = source.value): Diagnostic[] {
  return CHECKERS[generator](source, base, value);
}
