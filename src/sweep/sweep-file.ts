// Sweep files: a JSON description of a parameter sweep (a command template and a parameter space) from
// which gridsweep builds the Application. The format is documented in docs of `gridsweep describe --help`
// and in apps/examples/README.md.
import { readFileSync } from 'node:fs';
import { unreadableFile } from '../util/diagnostics.js';
import { parseJsonSource, type JsonSource } from './json-source.js';
import { checkAgainstSchema, compileSchema } from './schema-check.js';

export type ParamValue = string | number | boolean;
export interface IntegerRange {
  readonly from: number;
  readonly to: number;
  readonly step?: number;
}
export type ParamSpace = readonly ParamValue[] | IntegerRange;

export interface SweepFile {
  readonly sweep: 1;
  /** argv template: each element is one argument; `{name}` is replaced by a parameter, input or output. */
  readonly command: readonly string[];
  readonly parameters: Readonly<Record<string, ParamSpace>>;
  /** Groups of parameters that vary together (element i of each) instead of as a cartesian product. */
  readonly zip?: readonly (readonly string[])[];
  /** Named input path templates, relative to the origin directory. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** Named output path templates, relative to the origin directory (and to each task's working directory). */
  readonly outputs?: Readonly<Record<string, string>>;
  readonly estimates: {
    /** The user's estimate of one task's run time: one value for every architecture, or one per architecture. */
    readonly runTimeS: number | readonly number[];
    /** The user's estimate of the size of each output file. */
    readonly outputSizeBytes: number;
  };
}

const NAME = '^[A-Za-z_][A-Za-z0-9_]*$';

export const SWEEP_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['sweep', 'command', 'parameters', 'estimates'],
  properties: {
    sweep: { const: 1, description: 'the format version, 1' },
    command: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', description: 'a string (one argument)' },
      description: 'the command as an array of arguments, e.g. ["sh", "sim.sh", "--seed", "{seed}"]',
    },
    parameters: {
      type: 'object',
      description: 'an object mapping parameter names to a list of values or {"from": 1, "to": 10, "step": 1}',
      propertyNames: { pattern: NAME },
      additionalProperties: {
        description: 'a non-empty list of values or an integer range {"from": 1, "to": 10, "step": 1}',
        oneOf: [
          {
            type: 'array',
            minItems: 1,
            items: { type: ['string', 'number', 'boolean'], description: 'a string, number or boolean' },
            description: 'a non-empty list of strings, numbers or booleans',
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['from', 'to'],
            properties: {
              from: { type: 'integer', description: 'a whole number' },
              to: { type: 'integer', description: 'a whole number' },
              step: { type: 'integer', not: { const: 0 }, description: 'a whole number other than 0' },
            },
            description: 'an integer range {"from": 1, "to": 10, "step": 1}',
          },
        ],
      },
    },
    zip: {
      type: 'array',
      items: {
        type: 'array',
        minItems: 2,
        uniqueItems: true,
        items: { type: 'string', pattern: NAME, description: 'a parameter name' },
        description: 'a list of at least two parameter names that vary together',
      },
      description: 'a list of groups of parameter names, e.g. [["alpha", "beta"]]',
    },
    inputs: {
      type: 'object',
      propertyNames: { pattern: NAME },
      additionalProperties: { type: 'string', minLength: 1, description: 'a path template relative to the origin directory' },
      description: 'an object mapping names to input path templates',
    },
    outputs: {
      type: 'object',
      propertyNames: { pattern: NAME },
      additionalProperties: { type: 'string', minLength: 1, description: 'a path template relative to the origin directory' },
      description: 'an object mapping names to output path templates',
    },
    estimates: {
      type: 'object',
      additionalProperties: false,
      required: ['runTimeS', 'outputSizeBytes'],
      description: 'the user\'s estimates {"runTimeS": 10, "outputSizeBytes": 1000}',
      properties: {
        runTimeS: {
          description: 'a positive number of seconds, or a list of them (one per architecture)',
          oneOf: [
            { type: 'number', exclusiveMinimum: 0, description: 'a positive number of seconds' },
            {
              type: 'array',
              minItems: 1,
              items: { type: 'number', exclusiveMinimum: 0, description: 'a positive number of seconds' },
              description: 'a list of positive numbers of seconds, one per architecture',
            },
          ],
        },
        outputSizeBytes: { type: 'integer', minimum: 0, description: 'a whole number of bytes, 0 or more' },
      },
    },
  },
} as const;

const validateSweep = compileSchema(SWEEP_SCHEMA);

export interface LoadedSweep {
  readonly sweep: SweepFile;
  readonly source: JsonSource;
}

/** Parses and schema-checks a sweep file's text. Semantic checks (names, paths) happen at expansion. */
export function parseSweep(text: string, file: string): LoadedSweep {
  const source = parseJsonSource(text, file);
  checkAgainstSchema(source, validateSweep, 'sweep file');
  return { sweep: source.value as SweepFile, source };
}

export function loadSweepFile(path: string): LoadedSweep {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadableFile(path, 'the sweep file', err, { hint: 'check the path' });
  }
  return parseSweep(text, path);
}
