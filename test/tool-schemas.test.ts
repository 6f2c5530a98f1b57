import { describe, expect, it } from 'vitest';
import { compileToolSchema } from '../src/schema/tool-schemas.js';

const compiled = (schema: unknown) => {
  const c = compileToolSchema(schema);
  if (!c.ok) throw new Error(`expected ${JSON.stringify(schema)} to compile: ${c.error}`);
  return c;
};

describe('compileToolSchema', () => {
  it('compiles a schema without $schema as 2020-12 and validates with it', () => {
    const c = compiled({
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time' },
        tags: { type: 'array', prefixItems: [{ const: 'a' }] },
      },
      required: ['when'],
      additionalProperties: false,
    });
    expect(c.dialect).toBe('2020-12');
    expect(c.validate({ when: '2025-11-25T10:00:00Z' })).toEqual([]);
    expect(c.validate({ when: 'yesterday' })).toEqual(['/when must match format "date-time"']);
    expect(c.validate({})).toEqual(['/ must have property "when"']);
    expect(c.validate({ when: '2025-11-25T10:00:00Z', tags: ['b'] })).toEqual(['/tags/0 must be "a"']);
  });

  it('honours an explicit draft-07 $schema, with or without "#" and in https form', () => {
    for (const $schema of [
      'http://json-schema.org/draft-07/schema#',
      'http://json-schema.org/draft-07/schema',
      'https://json-schema.org/draft-07/schema',
    ]) {
      const c = compiled({
        $schema,
        type: 'object',
        properties: { n: { type: 'integer', exclusiveMinimum: 0 } },
        definitions: {},
      });
      expect(c.dialect).toBe('draft-07');
      expect(c.validate({ n: 1 })).toEqual([]);
      expect(c.validate({ n: 0 })).toEqual(['/n must be > 0']);
    }
  });

  it('supports 2019-09 and draft-06', () => {
    expect(
      compiled({
        $schema: 'https://json-schema.org/draft/2019-09/schema',
        type: 'object',
        dependentRequired: { a: ['b'] },
      }).validate({ a: 1 }),
    ).toEqual(['/ must have property b when property a is present']);
    expect(compiled({ $schema: 'http://json-schema.org/draft-06/schema#', type: 'object' }).dialect).toBe('draft-06');
  });

  it('rejects a schema that breaks its meta-schema, naming the place', () => {
    const c = compileToolSchema({ type: 'object', properties: { a: { type: 'nope' } } });
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect(c.reason).toBe('invalid-schema');
    expect(c.error).toMatch(/^not a valid 2020-12 schema: /);
    expect(c.error).toContain(
      '/properties/a/type must be one of "array", "boolean", "integer", "null", "number", "object", "string"',
    );
  });

  it('reports an unknown dialect instead of guessing', () => {
    const c = compileToolSchema({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' });
    expect(c).toEqual({
      ok: false,
      reason: 'unsupported-dialect',
      error: expect.stringContaining('"http://json-schema.org/draft-04/schema#"'),
    });
    expect(compileToolSchema({ $schema: 42, type: 'object' })).toMatchObject({
      ok: false,
      reason: 'unsupported-dialect',
    });
  });

  it('never fetches a remote $ref: it is an error', () => {
    const c = compileToolSchema({ type: 'object', properties: { a: { $ref: 'https://example.invalid/schema.json' } } });
    expect(c).toMatchObject({
      ok: false,
      reason: 'invalid-schema',
      error: expect.stringContaining("can't resolve reference https://example.invalid/schema.json"),
    });
  });

  it('rejects null and non-objects, accepts boolean schemas', () => {
    expect(compileToolSchema(null)).toMatchObject({ ok: false, reason: 'invalid-schema' });
    expect(compileToolSchema('object')).toMatchObject({ ok: false, reason: 'invalid-schema' });
    expect(compiled(true).validate(5)).toEqual([]);
  });

  it('keeps tools that reuse an $id apart', () => {
    const a = compiled({ $id: 'https://example.com/args', type: 'object', required: ['a'] });
    const b = compiled({ $id: 'https://example.com/args', type: 'object', required: ['b'] });
    expect(a.validate({ a: 1 })).toEqual([]);
    expect(b.validate({ a: 1 })).toEqual(['/ must have property "b"']);
  });
});
