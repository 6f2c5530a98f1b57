import { describe, expect, it } from 'vitest';
import { boundaryArguments, MAX_BOUNDARY_VALUES } from '../../src/generate/boundary.js';
import { schemaArbitraries } from '../../src/generate/schema-arbitrary.js';

const edges = (schema: object, base: object, kind: 'valid' | 'invalid') =>
  boundaryArguments(schema, base, kind, schemaArbitraries(schema).validate);
/** The values the edges gave property `key`. */
const of = (values: unknown[], key: string) => values.map((v) => (v as Record<string, unknown>)[key]);

describe('boundary values of a tool schema', () => {
  it('move one argument at a time to 0, -1 and 1 on top of the base: divide(a, b) gets b = 0', () => {
    const divide = {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    };
    const valid = edges(divide, { a: 7.5, b: 2 }, 'valid');
    expect(valid).toContainEqual({ a: 7.5, b: 0 });
    expect(valid).toContainEqual({ a: 0, b: 2 });
    expect(valid).toContainEqual({ a: 7.5, b: -1 });
    expect(edges(divide, { a: 7.5, b: 2 }, 'invalid')).toEqual([]); // nothing to step past
  });

  it('reach the bounds, the exclusive bounds from inside, and the lengths; just past each for the invalid kind', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 1, maximum: 10 },
        x: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        s: { type: 'string', minLength: 2, maxLength: 4 },
        list: { type: 'array', items: { type: 'integer' }, maxItems: 2 },
      },
      required: ['n'],
    };
    const base = { n: 5, x: 0.5, s: 'abc', list: [3] };
    const valid = edges(schema, base, 'valid');
    expect(of(valid, 'n')).toEqual(expect.arrayContaining([1, 10]));
    expect(of(valid, 'x')).toEqual(expect.arrayContaining([Number.MIN_VALUE, 1 - Number.EPSILON / 2]));
    expect(of(valid, 's')).toEqual(expect.arrayContaining(['aa', 'aaaa']));
    expect(of(valid, 'list')).toEqual(expect.arrayContaining([[], [3, 3], [0]]));
    const invalid = edges(schema, base, 'invalid');
    expect(of(invalid, 'n')).toEqual(expect.arrayContaining([0, 11]));
    expect(of(invalid, 'x')).toEqual(expect.arrayContaining([0, 1]));
    expect(of(invalid, 's')).toEqual(expect.arrayContaining(['a', 'aaaaa']));
    expect(of(invalid, 'list')).toEqual(expect.arrayContaining([[3, 3, 3]]));
  });

  it('try each enum and const value, null where allowed, the empty string, and nested properties', () => {
    const schema = {
      type: 'object',
      properties: {
        mode: { enum: ['fast', 'slow'] },
        kind: { const: 'k' },
        note: { type: ['string', 'null'] },
        opts: { $ref: '#/$defs/opts' },
      },
      $defs: { opts: { type: 'object', properties: { depth: { type: 'integer', minimum: 0 } } } },
    };
    const valid = edges(schema, { opts: { depth: 3 } }, 'valid');
    expect(valid).toContainEqual({});
    expect(of(valid, 'mode')).toEqual(expect.arrayContaining(['fast', 'slow']));
    expect(of(valid, 'kind')).toContain('k');
    expect(of(valid, 'note')).toEqual(expect.arrayContaining([null, '']));
    expect(of(valid, 'opts')).toEqual(expect.arrayContaining([{ depth: 0 }, {}]));
    expect(of(edges(schema, { opts: { depth: 3 } }, 'invalid'), 'opts')).toContainEqual({ depth: -1 });
  });

  it('keep only what the schema accepts (valid) or rejects (invalid), each once, at most MAX_BOUNDARY_VALUES', () => {
    const schema = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [`p${i}`, { type: 'integer', minimum: 0, maximum: 9, multipleOf: 3 }]),
      ),
    };
    const { validate } = schemaArbitraries(schema);
    for (const kind of ['valid', 'invalid'] as const) {
      const values = edges(schema, {}, kind);
      expect(values.length).toBeGreaterThan(0);
      expect(values.length).toBeLessThanOrEqual(MAX_BOUNDARY_VALUES);
      expect(new Set(values.map((v) => JSON.stringify(v))).size).toBe(values.length);
      for (const v of values) expect(validate(v).length === 0).toBe(kind === 'valid');
    }
    // The cap takes the first edges of every property, not all the edges of the first few.
    expect(new Set(edges(schema, {}, 'valid').flatMap((v) => Object.keys(v as object))).size).toBeGreaterThanOrEqual(
      MAX_BOUNDARY_VALUES - 1,
    );
  });
});
