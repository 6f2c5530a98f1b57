import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Generated,
  notOfType,
  promptArgumentsSchema,
  schemaArbitraries,
} from '../../src/generate/schema-arbitrary.js';
import { createServer, schemaProblem } from '../../examples/reference-server/mcp.mjs';

const values = (g: Generated, numRuns = 300, seed = 1): unknown[] => {
  if (!g.ok) throw new Error(g.reason);
  return fc.sample(g.arbitrary, { seed, numRuns });
};

const point = {
  type: 'object',
  properties: { x: { type: 'number' }, y: { type: 'number' } },
  required: ['x', 'y'],
  additionalProperties: false,
};
const searchDocs = (createServer().tools as { name: string; inputSchema: object }[]).find(
  (t) => t.name === 'search-docs',
)!.inputSchema;

/** One schema per group of keywords the generators honour, and what breaking each must produce (validator messages). */
const SCHEMAS: [name: string, schema: object, breaks: string[]][] = [
  [
    'type and required',
    {
      type: 'object',
      properties: {
        s: { type: 'string' },
        n: { type: 'number' },
        i: { type: 'integer' },
        b: { type: 'boolean' },
        z: { type: 'null' },
      },
      required: ['s', 'i'],
    },
    [
      'must have property "s"',
      'must have property "i"',
      '/s must be string',
      '/n must be number',
      '/i must be integer',
      '/b must be boolean',
      '/z must be null',
    ],
  ],
  [
    'enum and const',
    { type: 'object', properties: { e: { enum: ['a', 'b', 3] }, c: { const: 'fixed' } }, required: ['e', 'c'] },
    ['/e must be one of "a", "b", 3', '/c must be "fixed"'],
  ],
  [
    'numeric bounds',
    {
      type: 'object',
      properties: {
        lo: { type: 'integer', minimum: 5, maximum: 9 },
        ex: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        step: { type: 'integer', multipleOf: 7, minimum: -50, maximum: 50 },
      },
      required: ['lo', 'ex', 'step'],
    },
    [
      '/lo must be >= 5',
      '/lo must be <= 9',
      '/ex must be > 0',
      '/ex must be < 1',
      '/step must be >= -50',
      '/step must be <= 50',
    ],
  ],
  [
    'string lengths and pattern',
    {
      type: 'object',
      properties: {
        len: { type: 'string', minLength: 2, maxLength: 4 },
        code: { type: 'string', pattern: '^[A-Z]{3}-\\d{2}$' },
      },
      required: ['len', 'code'],
    },
    [
      '/len must NOT have fewer than 2 characters',
      '/len must NOT have more than 4 characters',
      '/code must match pattern',
    ],
  ],
  [
    'formats',
    {
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time' },
        day: { type: 'string', format: 'date' },
        mail: { type: 'string', format: 'email' },
        link: { type: 'string', format: 'uri' },
        id: { type: 'string', format: 'uuid' },
      },
      required: ['when', 'day', 'mail', 'link', 'id'],
    },
    [
      '/when must match format "date-time"',
      '/day must match format "date"',
      '/mail must match format "email"',
      '/link must match format "uri"',
      '/id must match format "uuid"',
    ],
  ],
  [
    'arrays',
    {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', maxLength: 3 }, minItems: 1, maxItems: 3, uniqueItems: true },
      },
      required: ['tags'],
    },
    [
      '/tags must NOT have fewer than 1 items',
      '/tags must NOT have more than 3 items',
      'must NOT have duplicate items',
      'must NOT have more than 3 characters',
    ],
  ],
  [
    'no extra properties',
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    ['must NOT have additional properties'],
  ],
  [
    'anyOf, oneOf and nullable types',
    {
      type: 'object',
      properties: {
        u: { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
        o: { oneOf: [{ type: 'boolean' }, { type: 'null' }] },
        maybe: { type: ['string', 'null'] },
        openapi: { type: 'integer', nullable: true },
      },
      required: ['u', 'o', 'maybe', 'openapi'],
    },
    [
      '/u must match a schema in anyOf',
      '/o must match exactly one schema in oneOf',
      '/maybe must be string,null',
      '/openapi must be integer',
    ],
  ],
  [
    'local $ref to $defs and definitions',
    {
      type: 'object',
      properties: { p: { $ref: '#/$defs/point' }, q: { $ref: '#/definitions/point' } },
      required: ['p'],
      $defs: { point },
      definitions: { point },
    },
    ['/p must have property "x"', '/q/y must be number', '/q must NOT have additional properties'],
  ],
  [
    'a recursive $ref',
    {
      $ref: '#/$defs/node',
      $defs: {
        node: {
          type: 'object',
          properties: { name: { type: 'string' }, child: { $ref: '#/$defs/node' } },
          required: ['name'],
        },
      },
    },
    ['must have property "name"', '/child must be object'],
  ],
  [
    'draft-07',
    {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { n: { type: 'integer', exclusiveMinimum: 0 } },
      required: ['n'],
    },
    ['/n must be > 0'],
  ],
  [
    "the reference server's search-docs tool",
    searchDocs,
    [
      'must have property "query"',
      '/tags must NOT have duplicate items',
      '/lines must have property "from"',
      '/since must match format "date"',
      '/version must be 1',
    ],
  ],
];

describe('arbitraries from a JSON Schema', () => {
  for (const [name, schema, breaks] of SCHEMAS) {
    it(`${name}: valid values validate, invalid ones do not, and every way to break it shows up`, () => {
      const { valid, invalid, validate } = schemaArbitraries(schema);
      for (const v of values(valid)) expect(validate(v), JSON.stringify(v)).toEqual([]);
      const problems = values(invalid, 1000).map((v) => {
        expect(validate(v), JSON.stringify(v)).not.toEqual([]);
        return validate(v).join('\n');
      });
      for (const b of breaks)
        expect(
          problems.some((p) => p.includes(b)),
          b,
        ).toBe(true);
      // Tool arguments stay an object: a non-object would break the CallToolRequest, not the inputSchema.
      expect(values(invalid).every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))).toBe(true);
    });
  }

  it("agrees with the reference server's own validator, which the reference must pass", () => {
    const { valid, invalid } = schemaArbitraries(searchDocs);
    for (const v of values(valid, 1000, 7)) expect(schemaProblem(searchDocs, v), JSON.stringify(v)).toBeNull();
    for (const v of values(invalid, 1000, 7)) expect(schemaProblem(searchDocs, v), JSON.stringify(v)).not.toBeNull();
  });

  it('is reproducible: the same seed gives the same values', () => {
    const { valid } = schemaArbitraries(searchDocs);
    expect(values(valid, 50, 42)).toEqual(values(valid, 50, 42));
  });

  for (const [why, schema, reason] of [
    ['not', { type: 'object', properties: { a: { not: { type: 'string' } } } }, '/a: not not supported'],
    [
      'patternProperties',
      { type: 'object', patternProperties: { '^x': { type: 'string' } } },
      'patternProperties not supported',
    ],
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's then keyword, never awaited
    ['if/then', { type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }, 'if not supported'],
    [
      'tuple items (draft-07)',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { t: { type: 'array', items: [{ type: 'string' }] } },
      },
      '/t: tuple items',
    ],
    [
      'a remote $ref',
      { type: 'object', properties: { r: { $ref: 'https://example.com/s.json' } } },
      'does not compile',
    ],
    [
      'an anchor $ref',
      { type: 'object', properties: { r: { $ref: '#thing' } }, $defs: { t: { $anchor: 'thing', type: 'string' } } },
      'not a local JSON pointer',
    ],
    [
      '$ref beside constraints (2020-12 applies both)',
      { type: 'object', properties: { r: { $ref: '#/$defs/s', minLength: 2 } }, $defs: { s: { type: 'string' } } },
      '$ref beside minLength',
    ],
    [
      'a pattern fast-check cannot generate',
      { type: 'object', properties: { p: { type: 'string', pattern: '^(?=a)a$' } } },
      '/p: pattern',
    ],
    [
      'a format it does not generate',
      { type: 'object', properties: { d: { type: 'string', format: 'duration' } } },
      'format duration',
    ],
    [
      'allOf of two schemas',
      { type: 'object', properties: { a: { allOf: [{ type: 'string' }, { minLength: 1 }] } } },
      'allOf with 2 schemas',
    ],
    [
      'anyOf beside constraints',
      { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ required: ['a'] }] },
      'anyOf beside properties',
    ],
    [
      'required infinite recursion',
      {
        $ref: '#/$defs/n',
        $defs: { n: { type: 'object', properties: { c: { $ref: '#/$defs/n' } }, required: ['c'] } },
      },
      'nested deeper than',
    ],
  ] as const) {
    it(`skips a schema with ${why}, and says why`, () => {
      const { valid, invalid } = schemaArbitraries(schema);
      expect(valid.ok).toBe(false);
      expect(invalid.ok).toBe(false);
      if (!valid.ok) expect(valid.reason).toContain(reason);
    });
  }

  it('names the case where no argument can be invalid', () => {
    const { valid, invalid } = schemaArbitraries({ type: 'object' });
    expect(valid.ok).toBe(true);
    expect(invalid).toEqual({ ok: false, reason: 'no invalid value can be built: the schema accepts any object' });
  });

  it('builds prompt arguments as a schema: strings, the required ones required', () => {
    const schema = promptArgumentsSchema({
      name: 'p',
      arguments: [{ name: 'who', required: true }, { name: 'style' }],
    });
    expect(schema).toEqual({
      type: 'object',
      properties: { who: { type: 'string' }, style: { type: 'string' } },
      required: ['who'],
    });
    for (const v of values(schemaArbitraries(schema).valid)) expect(typeof (v as { who: unknown }).who).toBe('string');
  });

  it('makes values of the other JSON types', () => {
    expect(fc.sample(notOfType(['string'])!, 200).some((v) => typeof v === 'string')).toBe(false);
    expect(fc.sample(notOfType(['integer'])!, 200).some((v) => Number.isInteger(v))).toBe(false);
    expect(fc.sample(notOfType(['number', 'null'])!, 200).some((v) => typeof v === 'number' || v === null)).toBe(false);
    expect(notOfType(['string', 'number', 'boolean', 'null', 'array', 'object'])).toBeUndefined();
  });
});
