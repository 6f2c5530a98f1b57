// fast-check arbitraries from a server-provided JSON Schema: values it accepts and values it rejects.
// Generators are built to be right by construction; the schema's own compiled validator has the last word.
import fc from 'fast-check';
import { compileToolSchema } from '../schema/tool-schemas.js';
import { canonical } from '../json.js';

type Schema = Record<string, unknown>;

/** An arbitrary, or why none could be built for this schema. */
export type Generated = { ok: true; arbitrary: fc.Arbitrary<unknown> } | { ok: false; reason: string };

export interface SchemaArbitraries {
  /** Values the schema accepts (every one checked with the compiled schema). */
  valid: Generated;
  /** Values the schema rejects: a required property missing, a wrong type, a value out of range or not in the enum, an extra property. */
  invalid: Generated;
  /** The compiled schema's errors for a value (none: the value is valid). */
  validate(value: unknown): string[];
}

/** The schema asks for something these generators cannot honour; the message names it. */
class Unsupported extends Error {}
/** Nesting (a recursive $ref) went deeper than MAX_DEPTH: optional parts are left out, required ones make it unsupported. */
class TooDeep extends Unsupported {}
/** A filtered arbitrary kept missing: the generator does not fit the schema. */
class GenerationError extends Error {}

const MAX_DEPTH = 6;
const FILTER_TRIES = 100;

/** Constraining keywords these generators honour. */
const SUPPORTED = new Set([
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  'nullable',
]);
/** Constraining keywords they do not: a schema using one is skipped. Any other keyword is an annotation, ignored. */
const UNSUPPORTED = new Set([
  'patternProperties',
  'propertyNames',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'if',
  'not',
  'contains',
  'minContains',
  'maxContains',
  'prefixItems',
  'additionalItems',
  'minProperties',
  'maxProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$recursiveRef',
]);
const KEYWORDS_OF: Record<string, string[]> = {
  object: ['properties', 'required', 'additionalProperties'],
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'minItems', 'maxItems', 'uniqueItems'],
};
const TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const at = (path: string) => path || '/';
/** JSON Schema equality ignores key order. */
const deepEqual = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** One Unicode code point: mostly printable ASCII (readable counterexamples), sometimes anything but a surrogate. */
const CHAR = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 0, max: 0x10ffff - 0x800 })
      .map((c) => String.fromCodePoint(c < 0xd800 ? c : c + 0x800)),
  },
);
/** Text of any code points, mostly printable ASCII (and cheap to build, unlike fast-check's 'binary' unit). */
export const anyText = (constraints: { minLength?: number; maxLength?: number } = {}) =>
  fc.string({ unit: CHAR, ...constraints });
const ANY_JSON = fc.jsonValue({ maxDepth: 2 });

/** A URI path segment of unreserved characters (fast-check's webSegment takes most of a second to build). */
export const uriSegment = () => fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/);
const urls = () =>
  fc
    .tuple(fc.constantFrom('http', 'https'), fc.domain(), fc.array(uriSegment(), { maxLength: 3 }))
    .map(([scheme, host, path]) => `${scheme}://${host}/${path.join('/')}`);
const dates = fc.date({
  min: new Date('1970-01-01T00:00:00Z'),
  max: new Date('2100-01-01T00:00:00Z'),
  noInvalidDate: true,
});
/** Generators for the string formats ajv-formats checks (null: the format accepts any string), built on first use: some take long to build. */
const STRING_FORMATS = new Map<string, (() => fc.Arbitrary<string>) | null>([
  ['date-time', () => dates.map((d) => d.toISOString())],
  ['date', () => dates.map((d) => d.toISOString().slice(0, 10))],
  ['time', () => dates.map((d) => d.toISOString().slice(11))],
  ['email', () => fc.emailAddress()],
  ['uri', urls],
  ['url', urls],
  ['uri-reference', urls],
  ['uuid', () => fc.uuid()],
  ['ipv4', () => fc.ipV4()],
  ['ipv6', () => fc.ipV6()],
  ['hostname', () => fc.domain()],
  ['byte', () => fc.base64String()],
  ['password', null],
  ['binary', null],
]);
const byFormat = new Map<string, fc.Arbitrary<string>>();
/** The generator of a string format; undefined when any string will do. */
function formatted(format: string): fc.Arbitrary<string> | undefined {
  const make = STRING_FORMATS.get(format);
  if (!make) return undefined;
  if (!byFormat.has(format)) byFormat.set(format, make());
  return byFormat.get(format);
}
/** Formats the validator checks but these generators do not produce: a tool using one is skipped. */
const UNGENERATED_FORMATS = new Set([
  'duration',
  'uri-template',
  'regex',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'iso-time',
  'iso-date-time',
]);
/** Numeric formats ajv-formats checks, as bounds. */
const NUMBER_FORMATS = new Map<string, [number, number]>([
  ['int32', [-(2 ** 31), 2 ** 31 - 1]],
  ['int64', [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]],
  ['float', [-Number.MAX_VALUE, Number.MAX_VALUE]],
  ['double', [-Number.MAX_VALUE, Number.MAX_VALUE]],
]);
/** Strings no date, address or encoded value looks like. */
const NOT_A_FORMAT = 'conformance: not a valid value';

/** `arb` restricted to values `accept` takes; gives up (GenerationError) after FILTER_TRIES misses in a row instead of looping forever. */
class Bounded<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly arb: fc.Arbitrary<T>,
    private readonly accept: (value: T) => boolean,
  ) {
    super();
  }

  generate(mrng: fc.Random, bias: number | undefined): fc.Value<T> {
    for (let i = 0; i < FILTER_TRIES; i++) {
      const v = this.arb.generate(mrng, bias);
      if (this.accept(v.value)) return v;
    }
    throw new GenerationError(`no acceptable value in ${FILTER_TRIES} tries`);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arb.canShrinkWithoutContext(value) && this.accept(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.arb.shrink(value, context).filter((v) => this.accept(v.value));
  }
}

/** Builds the arbitraries of one root schema; `$ref`s resolve inside it. */
class Builder {
  constructor(private readonly root: unknown) {}

  /** Follows local `$ref`s; checks that every constraining keyword is one these generators honour. */
  private node(raw: unknown, path: string): Schema | boolean {
    let schema = raw;
    for (let hops = 0; isSchema(schema) && typeof schema.$ref === 'string'; hops++) {
      if (hops > 32) throw new Unsupported(`${at(path)}: $ref chain does not end`);
      const constraints = Object.keys(schema).filter((k) => k !== '$ref' && (SUPPORTED.has(k) || UNSUPPORTED.has(k)));
      if (constraints.length > 0) throw new Unsupported(`${at(path)}: $ref beside ${constraints.join(', ')}`);
      schema = this.pointer(schema.$ref, path);
    }
    if (typeof schema === 'boolean') return schema;
    if (!isSchema(schema)) throw new Unsupported(`${at(path)}: not a schema`);
    const unsupported = Object.keys(schema).filter((k) => UNSUPPORTED.has(k));
    if (unsupported.length > 0) throw new Unsupported(`${at(path)}: ${unsupported.join(', ')} not supported`);
    if (schema !== this.root && typeof schema.$id === 'string')
      throw new Unsupported(`${at(path)}: nested $id not supported`);
    return schema;
  }

  private pointer(ref: string, path: string): unknown {
    if (ref !== '#' && !ref.startsWith('#/'))
      throw new Unsupported(`${at(path)}: $ref ${JSON.stringify(ref)} is not a local JSON pointer`);
    let target: unknown = this.root;
    for (const token of ref === '#' ? [] : ref.slice(2).split('/')) {
      const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
      target = isSchema(target) || Array.isArray(target) ? (target as Record<string, unknown>)[key] : undefined;
      if (target === undefined) throw new Unsupported(`${at(path)}: $ref ${JSON.stringify(ref)} points nowhere`);
    }
    return target;
  }

  /** The JSON types a schema allows, when it says (`type`, OpenAPI `nullable`, or every branch of a union). */
  private declaredTypes(s: Schema, path: string): string[] | undefined {
    const union = (s.anyOf ?? s.oneOf) as unknown;
    if (Array.isArray(union)) {
      const branches = union.map((b, i) => {
        const n = this.node(b, `${path}/${i}`);
        return typeof n === 'boolean' ? undefined : this.declaredTypes(n, path);
      });
      return branches.every((b) => b !== undefined) ? [...new Set(branches.flat())] : undefined;
    }
    if (s.type === undefined) return undefined;
    const types = Array.isArray(s.type) ? [...(s.type as unknown[])] : [s.type];
    if (!types.every((t): t is string => typeof t === 'string' && TYPES.includes(t)))
      throw new Unsupported(`${at(path)}: type ${JSON.stringify(s.type)}`);
    if (s.nullable === true && !types.includes('null')) types.push('null');
    return types;
  }

  /** `type`, or the types the keywords present are about (a subset of what the schema accepts). */
  private generatedTypes(s: Schema, path: string): string[] | undefined {
    const declared = this.declaredTypes(s, path);
    if (declared) return declared;
    const implied = Object.keys(KEYWORDS_OF).filter((t) => KEYWORDS_OF[t].some((k) => k in s));
    return implied.length > 0 ? implied : undefined;
  }

  valid(raw: unknown, path: string, depth: number): fc.Arbitrary<unknown> {
    const s = this.node(raw, path);
    if (s === true) return ANY_JSON;
    if (s === false) throw new Unsupported(`${at(path)}: the schema false accepts nothing`);
    if (depth > MAX_DEPTH) throw new TooDeep(`${at(path)}: nested deeper than ${MAX_DEPTH} levels`);
    if ('const' in s) return fc.constant(s.const);
    if (Array.isArray(s.enum)) {
      if (s.enum.length === 0) throw new Unsupported(`${at(path)}: empty enum`);
      return fc.constantFrom(...(s.enum as unknown[]));
    }
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const branches = s[key];
      if (!Array.isArray(branches)) continue;
      const beside = Object.keys(s).filter((k) => k !== key && k !== 'type' && SUPPORTED.has(k));
      if (beside.length > 0) throw new Unsupported(`${at(path)}: ${key} beside ${beside.join(', ')}`);
      if (key === 'allOf' && branches.length !== 1)
        throw new Unsupported(`${at(path)}: allOf with ${branches.length} schemas`);
      // oneOf's "exactly one" is left to the final validation.
      return fc.oneof(...branches.map((b, i) => this.valid(b, `${path}/${key}/${i}`, depth + 1)));
    }
    const types = this.generatedTypes(s, path);
    return types ? fc.oneof(...types.map((t) => this.ofType(t, s, path, depth))) : ANY_JSON;
  }

  private ofType(type: string, s: Schema, path: string, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
      case 'number':
        return this.number(type, s, path);
      case 'string':
        return this.string(s, path);
      case 'array':
        return this.array(s, path, depth);
      default:
        return this.object(s, path, depth);
    }
  }

  /** Inclusive or exclusive bounds from minimum/maximum/exclusive* and a numeric format. */
  private bounds(s: Schema, path: string) {
    if (typeof s.exclusiveMinimum === 'boolean' || typeof s.exclusiveMaximum === 'boolean')
      throw new Unsupported(`${at(path)}: boolean exclusiveMinimum/Maximum (draft-04)`);
    const format = typeof s.format === 'string' ? NUMBER_FORMATS.get(s.format) : undefined;
    const lows = [
      [num(s.minimum), false],
      [num(s.exclusiveMinimum), true],
      [format?.[0], false],
    ].filter((b): b is [number, boolean] => b[0] !== undefined);
    const highs = [
      [num(s.maximum), false],
      [num(s.exclusiveMaximum), true],
      [format?.[1], false],
    ].filter((b): b is [number, boolean] => b[0] !== undefined);
    const low = lows.sort((a, b) => b[0] - a[0] || Number(b[1]) - Number(a[1]))[0];
    const high = highs.sort((a, b) => a[0] - b[0] || Number(b[1]) - Number(a[1]))[0];
    return { low, high };
  }

  private number(type: 'integer' | 'number', s: Schema, path: string): fc.Arbitrary<number> {
    const { low, high } = this.bounds(s, path);
    const step = num(s.multipleOf);
    if (type === 'integer' || step !== undefined) {
      const unit = type === 'integer' ? (step ?? 1) : step!;
      if (type === 'integer' && !Number.isInteger(unit))
        throw new Unsupported(`${at(path)}: integer with multipleOf ${unit}`);
      const lo = low && Math.ceil(low[0] / unit + (low[1] && Number.isInteger(low[0] / unit) ? 1 : 0));
      const hi = high && Math.floor(high[0] / unit - (high[1] && Number.isInteger(high[0] / unit) ? 1 : 0));
      // An open side is two million steps from the other one (or from zero).
      const min = Math.max(lo ?? (hi ?? 1e6) - 2e6, Math.ceil(Number.MIN_SAFE_INTEGER / unit));
      const max = Math.min(hi ?? (lo ?? -1e6) + 2e6, Math.floor(Number.MAX_SAFE_INTEGER / unit));
      if (min > max) throw new Unsupported(`${at(path)}: no ${type} satisfies its bounds`);
      return fc.integer({ min, max }).map((k) => k * unit);
    }
    return fc.double({
      min: low?.[0],
      minExcluded: low?.[1],
      max: high?.[0],
      maxExcluded: high?.[1],
      noNaN: true,
      noDefaultInfinity: true,
    });
  }

  private string(s: Schema, path: string): fc.Arbitrary<string> {
    const format = typeof s.format === 'string' ? s.format : undefined;
    if (format && UNGENERATED_FORMATS.has(format)) throw new Unsupported(`${at(path)}: format ${format}`);
    const generator = format && formatted(format);
    if (generator) return generator;
    if (typeof s.pattern === 'string') return this.matching(s.pattern, path);
    const minLength = num(s.minLength) ?? 0;
    return anyText({ minLength, maxLength: num(s.maxLength) ?? minLength + 24 });
  }

  private matching(pattern: string, path: string): fc.Arbitrary<string> {
    try {
      return fc.stringMatching(new RegExp(pattern, 'u'));
    } catch (e) {
      throw new Unsupported(`${at(path)}: pattern ${JSON.stringify(pattern)}: ${(e as Error).message}`);
    }
  }

  private items(s: Schema, path: string, depth: number): fc.Arbitrary<unknown> | undefined {
    if (Array.isArray(s.items)) throw new Unsupported(`${at(path)}: tuple items`);
    if (s.items === undefined) return ANY_JSON;
    try {
      return this.valid(s.items, `${path}/items`, depth + 1);
    } catch (e) {
      if (e instanceof TooDeep && (num(s.minItems) ?? 0) === 0) return undefined;
      throw e;
    }
  }

  private array(s: Schema, path: string, depth: number): fc.Arbitrary<unknown[]> {
    const item = this.items(s, path, depth);
    if (!item) return fc.constant([]);
    const minLength = num(s.minItems) ?? 0;
    const maxLength = num(s.maxItems) ?? minLength + 4;
    return s.uniqueItems === true
      ? fc.uniqueArray(item, { minLength, maxLength, selector: canonical })
      : fc.array(item, { minLength, maxLength });
  }

  private object(s: Schema, path: string, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const properties = isSchema(s.properties) ? s.properties : {};
    const required = Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === 'string') : [];
    const shape: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, sub] of Object.entries(properties)) {
      if (sub === false && !required.includes(key)) continue;
      try {
        shape[key] = this.valid(sub, `${path}/${key}`, depth + 1);
      } catch (e) {
        if (!(e instanceof TooDeep) || required.includes(key)) throw e;
      }
    }
    for (const key of required.filter((k) => !(k in properties))) {
      if (s.additionalProperties === false) throw new Unsupported(`${at(path)}: "${key}" is required but not allowed`);
      shape[key] = this.valid(s.additionalProperties ?? true, `${path}/${key}`, depth + 1);
    }
    return fc.record(shape, { requiredKeys: required });
  }

  /** Ways to break the schema, each an arbitrary of rejected values. `top`: the value stays an object (tool arguments must be one). */
  invalid(raw: unknown, path: string, depth: number, top = false): fc.Arbitrary<unknown>[] {
    const s = this.node(raw, path);
    if (typeof s === 'boolean' || depth > MAX_DEPTH) return [];
    const out: fc.Arbitrary<unknown>[] = [];
    const types = this.declaredTypes(s, path);
    const wrong = types && !top ? notOfType(types) : undefined;
    if (wrong) out.push(wrong);
    if ('const' in s) out.push(ANY_JSON.filter((v) => !deepEqual(v, s.const)));
    else if (Array.isArray(s.enum))
      out.push(
        fc
          .oneof(anyText(), fc.integer(), fc.boolean(), fc.constant(null))
          .filter((v) => !(s.enum as unknown[]).some((e) => deepEqual(e, v))),
      );
    // Inside a union a value that breaks one branch may satisfy another: only whole-union types are mutated.
    if (['anyOf', 'oneOf', 'allOf', 'const', 'enum'].some((k) => k in s)) return out;
    const generated = this.generatedTypes(s, path) ?? [];
    if (generated.includes('integer') || generated.includes('number'))
      out.push(...this.outOfRange(s, path, generated.includes('number') ? 'number' : 'integer'));
    if (generated.includes('string')) out.push(...this.badString(s));
    try {
      if (generated.includes('array')) out.push(...this.badArray(s, path, depth));
      if (generated.includes('object')) out.push(...this.badObject(s, path, depth));
    } catch (e) {
      // Near the depth limit a valid container to break cannot be built: break the levels above instead.
      if (!(e instanceof TooDeep)) throw e;
    }
    return out;
  }

  private outOfRange(s: Schema, path: string, type: 'integer' | 'number'): fc.Arbitrary<number>[] {
    const { low, high } = this.bounds(s, path);
    const out: fc.Arbitrary<number>[] = [];
    const finite = { noNaN: true, noDefaultInfinity: true };
    // A bound that sits at the edge of what JSON numbers carry cannot be crossed.
    if (low && low[0] > Number.MIN_SAFE_INTEGER) {
      out.push(
        type === 'integer' && !low[1]
          ? fc.integer({ min: Math.max(Number.MIN_SAFE_INTEGER, Math.ceil(low[0]) - 1000), max: Math.ceil(low[0]) - 1 })
          : fc.double({ ...finite, max: low[0], maxExcluded: !low[1] }),
      );
    }
    if (high && high[0] < Number.MAX_SAFE_INTEGER) {
      out.push(
        type === 'integer' && !high[1]
          ? fc.integer({
              min: Math.floor(high[0]) + 1,
              max: Math.min(Number.MAX_SAFE_INTEGER, Math.floor(high[0]) + 1000),
            })
          : fc.double({ ...finite, min: high[0], minExcluded: !high[1] }),
      );
    }
    return out;
  }

  private badString(s: Schema): fc.Arbitrary<string>[] {
    const out: fc.Arbitrary<string>[] = [];
    const minLength = num(s.minLength);
    const maxLength = num(s.maxLength);
    // ASCII only: one character is one code point, the unit of minLength/maxLength.
    if (minLength !== undefined && minLength > 0) out.push(fc.string({ maxLength: minLength - 1 }));
    if (maxLength !== undefined) out.push(fc.string({ minLength: maxLength + 1, maxLength: maxLength + 8 }));
    if (typeof s.pattern === 'string') {
      const re = new RegExp(s.pattern, 'u');
      const misses = ['', ' ', '-', '0', 'a', 'Z', '\u0000', NOT_A_FORMAT].filter((c) => !re.test(c));
      if (misses.length > 0) out.push(fc.constantFrom(...misses));
    }
    if (typeof s.format === 'string' && formatted(s.format)) out.push(fc.constant(NOT_A_FORMAT));
    return out;
  }

  private badArray(s: Schema, path: string, depth: number): fc.Arbitrary<unknown[]>[] {
    const item = this.items(s, path, depth);
    if (!item) return [];
    const out: fc.Arbitrary<unknown[]>[] = [];
    const minItems = num(s.minItems) ?? 0;
    const maxItems = num(s.maxItems);
    if (minItems > 0) out.push(fc.array(item, { maxLength: minItems - 1 }));
    if (maxItems !== undefined) out.push(fc.array(item, { minLength: maxItems + 1, maxLength: maxItems + 3 }));
    if (s.uniqueItems === true)
      out.push(fc.array(item, { minLength: 1, maxLength: Math.max(1, (maxItems ?? 4) - 1) }).map((a) => [...a, a[0]]));
    const bad = s.items === undefined ? [] : this.invalid(s.items, `${path}/items`, depth + 1);
    if (bad.length > 0) {
      const rest = fc.array(item, {
        minLength: Math.max(0, minItems - 1),
        maxLength: Math.max(0, (maxItems ?? minItems + 3) - 1),
      });
      out.push(
        fc
          .tuple(rest, fc.oneof(...bad), fc.nat())
          .map(([a, v, n]) => [...a.slice(0, n % (a.length + 1)), v, ...a.slice(n % (a.length + 1))]),
      );
    }
    return out;
  }

  private badObject(s: Schema, path: string, depth: number): fc.Arbitrary<Record<string, unknown>>[] {
    const whole = this.object(s, path, depth);
    const properties = isSchema(s.properties) ? s.properties : {};
    const out: fc.Arbitrary<Record<string, unknown>>[] = [];
    for (const key of Array.isArray(s.required) ? s.required : []) {
      if (typeof key === 'string') out.push(whole.map(({ [key]: _missing, ...rest }) => rest));
    }
    if (s.additionalProperties === false) {
      const extra = anyText({ minLength: 1, maxLength: 12 }).filter((k) => !Object.hasOwn(properties, k));
      out.push(fc.tuple(whole, extra, ANY_JSON).map(([o, k, v]) => ({ ...o, [k]: v })));
    }
    for (const [key, sub] of Object.entries(properties)) {
      const bad = this.invalid(sub, `${path}/${key}`, depth + 1);
      if (bad.length > 0) out.push(fc.tuple(whole, fc.oneof(...bad)).map(([o, v]) => ({ ...o, [key]: v })));
    }
    return out;
  }
}

/** A value of a JSON type outside `types` (none when every type is allowed). */
export function notOfType(types: string[]): fc.Arbitrary<unknown> | undefined {
  const others: fc.Arbitrary<unknown>[] = [];
  if (!types.includes('string')) others.push(anyText({ maxLength: 12 }));
  if (!types.includes('boolean')) others.push(fc.boolean());
  if (!types.includes('null')) others.push(fc.constant(null));
  if (!types.includes('array')) others.push(fc.array(ANY_JSON, { maxLength: 3 }));
  if (!types.includes('object')) others.push(fc.dictionary(anyText({ maxLength: 8 }), ANY_JSON, { maxKeys: 3 }));
  // An integer is a number; a number with a fraction is not an integer.
  if (types.includes('integer') && !types.includes('number')) others.push(fc.integer().map((n) => n + 0.5));
  else if (!types.includes('number'))
    others.push(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })));
  return others.length > 0 ? fc.oneof(...others) : undefined;
}

/**
 * Arbitraries for values of `schema` (a tool's inputSchema, or prompt arguments as a schema). A schema that
 * uses something the generators cannot honour, or whose values they cannot produce, gets the reason instead.
 */
export function schemaArbitraries(schema: unknown): SchemaArbitraries {
  // The valid and invalid argument properties ask for the same tools: compile and try each schema once.
  if (typeof schema !== 'object' || schema === null) return build(schema);
  let made = bySchema.get(schema);
  if (!made) bySchema.set(schema, (made = build(schema)));
  return made;
}
const bySchema = new WeakMap<object, SchemaArbitraries>();

function build(schema: unknown): SchemaArbitraries {
  const compiled = compileToolSchema(schema);
  if (!compiled.ok) {
    const reason = `its schema does not compile: ${compiled.error}`;
    return { valid: { ok: false, reason }, invalid: { ok: false, reason }, validate: () => [reason] };
  }
  const { validate, accepts } = compiled;
  const builder = new Builder(schema);
  const generated = (
    build: () => fc.Arbitrary<unknown> | undefined,
    accept: (v: unknown) => boolean,
    what: string,
  ): Generated => {
    let arbitrary: fc.Arbitrary<unknown> | undefined;
    try {
      arbitrary = build();
    } catch (e) {
      if (e instanceof Unsupported) return { ok: false, reason: e.message };
      throw e;
    }
    if (!arbitrary) return { ok: false, reason: `no ${what} value can be built: the schema accepts any object` };
    const checked = new Bounded(arbitrary, accept);
    try {
      fc.sample(checked, { seed: 0, numRuns: 20 }); // a generator that does not fit shows up here, not mid-run
    } catch (e) {
      if (e instanceof GenerationError)
        return { ok: false, reason: `the ${what} values generated for it do not validate against it` };
      throw e;
    }
    return { ok: true, arbitrary: checked };
  };
  // Each kind is built (and tried) when first asked for: most checks ask only for valid values.
  let valid: Generated | undefined;
  let invalid: Generated | undefined;
  return {
    get valid() {
      return (valid ??= generated(() => builder.valid(schema, '', 0), accepts, 'valid'));
    },
    get invalid() {
      return (invalid ??= generated(
        () => {
          const ways = builder.invalid(schema, '', 0, true);
          return ways.length > 0 ? fc.oneof(...ways) : undefined;
        },
        (v) => !accepts(v),
        'invalid',
      ));
    },
    validate,
  };
}

/** Words of a name, camelCase and snake_case split: `resourceUri` → resource, Uri. */
const words = (name: string) => name.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
const URI_WORD = /^(?:uri|url|link|href)s?$/i;

/**
 * Whether a prompt argument (which has no schema) stands for a URI: its name, title or description says URI or URL.
 * A server may use its value as one (embed it as a resource's `uri`), so the suite supplies a URI there.
 */
export function standsForUri(arg: Record<string, unknown>): boolean {
  const named = [arg.name, arg.title].some((n) => typeof n === 'string' && words(n).some((w) => URI_WORD.test(w)));
  return named || (typeof arg.description === 'string' && /\b(?:URI|URL)s?\b/i.test(arg.description));
}

/** Prompt arguments as a JSON Schema: every argument a string (a URI where it stands for one), the required ones required. */
export function promptArgumentsSchema(prompt: Record<string, unknown>): {
  type: 'object';
  properties: Record<string, Schema>;
  required: string[];
} {
  const args = (Array.isArray(prompt.arguments) ? prompt.arguments : [])
    .filter(isSchema)
    .filter((a) => typeof a.name === 'string');
  return {
    type: 'object',
    properties: Object.fromEntries(
      args.map((a) => [a.name as string, standsForUri(a) ? { type: 'string', format: 'uri' } : { type: 'string' }]),
    ),
    required: args.filter((a) => a.required === true).map((a) => a.name as string),
  };
}
