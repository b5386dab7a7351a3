// Which branch of a oneOf/anyOf a document meant (src/sweep/schema-check.ts): the type rule, the
// discriminating key, the most declared keys, and ties going to the first branch in schema order.
import { describe, expect, it } from 'vitest';
import { chooseBranch, compileSchema, schemaDiagnostics } from '../../src/sweep/schema-check.js';
import { parseJsonSource } from '../../src/sweep/json-source.js';

const A = { type: 'object', properties: { kind: { const: 'a' }, x: { type: 'number' }, y: { type: 'number' } } };
const B = { type: 'object', properties: { kind: { enum: ['b', 'bb'] }, x: { type: 'number' }, z: { type: 'number' } } };
const LIST = { type: 'array' };
const P = { type: 'object', properties: { p: {}, q: {} } };
const Q = { type: 'object', properties: { q: {}, r: {} } };

describe('chooseBranch', () => {
  it('keeps only branches whose type holds the value; none: no-type', () => {
    expect(chooseBranch([A, LIST], [1])).toEqual({ kind: 'branch', index: 1 });
    expect(chooseBranch([A, LIST], 5)).toEqual({ kind: 'no-type' });
    // An integer fits "number"; a const's own type stands for a branch without "type".
    expect(chooseBranch([{ type: 'string' }, { type: 'number' }], 3)).toEqual({ kind: 'branch', index: 1 });
    expect(chooseBranch([{ const: 'all' }, LIST], 'al')).toEqual({ kind: 'branch', index: 0 });
  });

  it('a discriminating key decides before key counts', () => {
    // {"kind": "bb", "y": 1}: by key count A would win (kind, y = 2 against kind = 1), but "bb" is B's.
    expect(chooseBranch([A, B], { kind: 'bb', y: 1 })).toEqual({ kind: 'branch', index: 1 });
    // No branch pins "kind" to "c": one error on that key, with every allowed value, in branch order.
    expect(chooseBranch([A, B], { kind: 'c' })).toEqual({ kind: 'no-discriminator', key: 'kind', allowed: ['a', 'b', 'bb'] });
  });

  it('otherwise the most declared keys win; a tie goes to the first branch', () => {
    // {"r": 1, "q": 1}: P declares q (1), Q declares q and r (2): Q.
    expect(chooseBranch([P, Q], { r: 1, q: 1 })).toEqual({ kind: 'branch', index: 1 });
    // {"q": 1}: 1 each, a tie: the first, P — and Q when the order is swapped.
    expect(chooseBranch([P, Q], { q: 1 })).toEqual({ kind: 'branch', index: 0 });
    expect(chooseBranch([Q, P], { q: 1 })).toEqual({ kind: 'branch', index: 0 });
    // {"s": 1}: 0 each: the first.
    expect(chooseBranch([Q, P], { s: 1 })).toEqual({ kind: 'branch', index: 0 });
  });
});

describe('schemaDiagnostics', () => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['slots'],
    properties: { slots: { type: 'integer' }, slotsMax: { type: 'integer' }, arch: { type: 'integer' } },
  };
  it('"slot" where "slots" is required is one error, at the key, with the nearest name', () => {
    const source = parseJsonSource('{\n  "slot": 2\n}', 'f.json');
    const d = schemaDiagnostics(source, compileSchema(schema), 'test file');
    // slot→slots is 1 edit, slot→slotsMax 4: "slots". The key "slot" starts at line 2, column 3.
    expect(d).toHaveLength(1);
    expect(d[0]!.pos).toEqual({ file: 'f.json', line: 2, column: 3 });
    expect(d[0]!.message).toBe('(top level): unknown property "slot" (did you mean "slots"?)');
    expect(d[0]!.expected).toBe('one of "slots", "slotsMax", "arch"');
  });

  it('a far-off unknown key and the missing key are two mistakes, two errors', () => {
    const source = parseJsonSource('{ "cores": 2 }', 'f.json');
    const d = schemaDiagnostics(source, compileSchema(schema), 'test file');
    expect(d.map((x) => x.message).sort()).toEqual(['(top level): missing property "slots"', '(top level): unknown property "cores"']);
  });
});
