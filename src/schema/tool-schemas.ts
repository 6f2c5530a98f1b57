// Compiles JSON Schemas that a server provides (tool inputSchema / outputSchema) in their own dialect.
import { createRequire } from 'node:module';
import _Ajv from 'ajv';
import _Ajv2019 from 'ajv/dist/2019.js';
import _Ajv2020 from 'ajv/dist/2020.js';
import _addFormats from 'ajv-formats';
import type { AnySchema, AnySchemaObject, ValidateFunction } from 'ajv';
import { precompiledModule } from './precompiled.js';
import { formatErrors } from './validators.js';

// CommonJS default exports, see validators.ts.
const Ajv = _Ajv.default;
const Ajv2019 = _Ajv2019.default;
const Ajv2020 = _Ajv2020.default;
const addFormats = _addFormats.default;
const requireHere = createRequire(import.meta.url);
const draft06 = requireHere('ajv/dist/refs/json-schema-draft-06.json') as AnySchemaObject;
const ajvVersion = (requireHere('ajv/package.json') as { version: string }).version;

export type ToolSchemaCompilation =
  | {
      ok: true;
      dialect: Dialect;
      validate(value: unknown): string[];
      /** Whether the schema accepts the value: validate(value) is empty, without wording the errors (generators filter with it). */
      accepts(value: unknown): boolean;
    }
  | { ok: false; reason: 'unsupported-dialect' | 'invalid-schema'; error: string };

type Dialect = '2020-12' | '2019-09' | 'draft-07' | 'draft-06';
type AnyAjv = InstanceType<typeof Ajv>;

/** `$schema` URIs by dialect, the first being the meta-schema id Ajv knows. Compared without a trailing '#' and scheme-insensitively. */
const DIALECTS: Record<Dialect, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
};
const normalise = (uri: string) =>
  uri
    .trim()
    .replace(/#$/, '')
    .replace(/^https?:\/\//, '');

function dialectOf(uri: string): Dialect | undefined {
  return (Object.keys(DIALECTS) as Dialect[]).find((d) => normalise(DIALECTS[d]) === normalise(uri));
}

// strict:false because server schemas may use any keyword; logger:false keeps unknown-format warnings off the console.
// Ajv never fetches remote $refs here: we only compile synchronously and give it no loadSchema. The schema is checked
// against its meta-schema before it is compiled (see metaValidator), so compile does not check it again.
function createAjv(dialect: Dialect): AnyAjv {
  const options = { strict: false, allErrors: true, logger: false as const, validateSchema: false };
  const ajv: AnyAjv =
    dialect === '2020-12' ? new Ajv2020(options) : dialect === '2019-09' ? new Ajv2019(options) : new Ajv(options);
  if (dialect === 'draft-06') ajv.addMetaSchema(draft06);
  addFormats(ajv);
  return ajv;
}

const shared = new Map<Dialect, AnyAjv>();
const ajvFor = (dialect: Dialect) => {
  let ajv = shared.get(dialect);
  if (!ajv) shared.set(dialect, (ajv = createAjv(dialect)));
  return ajv;
};

const metas = new Map<Dialect, ValidateFunction>();
/**
 * The dialect's meta-schema validator: generated at build time with the options above (compiling the meta-schema
 * costs more than all of a run's tool schemas), or compiled by Ajv when that build output is missing or stale.
 */
function metaValidator(dialect: Dialect): ValidateFunction {
  let fn = metas.get(dialect);
  if (!fn) {
    fn = (precompiledModule(`meta-${dialect}`, [ajvVersion])?.d_root ??
      ajvFor(dialect).getSchema(DIALECTS[dialect])) as ValidateFunction;
    metas.set(dialect, fn);
  }
  return fn;
}

/**
 * Compiles a server-provided JSON Schema: picks the dialect from `$schema` (none means 2020-12),
 * checks the schema against that dialect's meta-schema, then compiles it (unresolvable `$ref`s are errors).
 */
export function compileToolSchema(schema: unknown): ToolSchemaCompilation {
  if (typeof schema !== 'object' || schema === null) return compile(schema);
  let made = compilations.get(schema);
  if (!made) compilations.set(schema, (made = compile(schema)));
  return made;
}
/** By schema object: several checks compile the same tool's schema (its checks, its generated arguments). */
const compilations = new WeakMap<object, ToolSchemaCompilation>();

function compile(schema: unknown): ToolSchemaCompilation {
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    return {
      ok: false,
      reason: 'invalid-schema',
      error: `a JSON Schema is an object or a boolean, not ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}`,
    };
  }
  let root = schema as AnySchema;
  let dialect: Dialect = '2020-12';
  const declared = typeof schema === 'object' ? (schema as Record<string, unknown>).$schema : undefined;
  if (declared !== undefined) {
    const found = typeof declared === 'string' ? dialectOf(declared) : undefined;
    if (!found) {
      return {
        ok: false,
        reason: 'unsupported-dialect',
        error: `unsupported JSON Schema dialect ${JSON.stringify(declared)} (supported: ${Object.keys(DIALECTS).join(', ')})`,
      };
    }
    dialect = found;
    root = { ...(schema as object), $schema: DIALECTS[found] };
  }
  // Ajv registers every $id globally in its instance: a fresh instance keeps two tools that reuse an $id apart.
  const ajv = JSON.stringify(root).includes('"$id"') ? createAjv(dialect) : ajvFor(dialect);
  const meta = metaValidator(dialect);
  if (!meta(root)) {
    return {
      ok: false,
      reason: 'invalid-schema',
      error: `not a valid ${dialect} schema: ${formatErrors(meta.errors, 5).join('; ')}`,
    };
  }
  let fn: ValidateFunction;
  try {
    fn = ajv.compile(root);
  } catch (e) {
    return { ok: false, reason: 'invalid-schema', error: `does not compile as ${dialect}: ${(e as Error).message}` };
  }
  return {
    ok: true,
    dialect,
    validate: (value) => (fn(value) ? [] : formatErrors(fn.errors)),
    accepts: (value) => Boolean(fn(value)),
  };
}
