// The 2026-07-28 headers a tool declares (`x-mcp-header` in its inputSchema, mirrored as Mcp-Param-{name}): where
// they sit in the arguments, and how a header value reads (the Base64 sentinel `=?base64?…?=` decoded).

/** An `x-mcp-header` parameter: its chain of `properties` keys from the schema root, and its header name part. */
export interface HeaderParam {
  path: string[];
  name: string;
}

const rec = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** Every `x-mcp-header` reachable from the root through `properties` only (the only place it is valid). */
export function headerParams(schema: unknown, path: string[] = []): HeaderParam[] {
  const props = rec(rec(schema)?.properties) ?? {};
  return Object.entries(props).flatMap(([key, sub]) => {
    const name = rec(sub)?.['x-mcp-header'];
    const here = typeof name === 'string' ? [{ path: [...path, key], name }] : [];
    return [...here, ...headerParams(sub, [...path, key])];
  });
}

/** The value at `path` in the arguments (undefined when absent). */
export function valueAt(args: unknown, path: string[]): unknown {
  let v: unknown = args;
  for (const key of path) v = rec(v)?.[key];
  return v;
}

/** A value as its header reads before encoding: strings as they are, integers in decimal, booleans in lower case. */
export const headerValue = (v: unknown): string => (typeof v === 'string' ? v : String(v));

/** A header value with the Base64 sentinel decoded (undefined stays undefined). */
export function decodeHeader(value: string | undefined): string | undefined {
  const m = value === undefined ? null : /^=\?base64\?(.*)\?=$/.exec(value);
  return m ? Buffer.from(m[1] ?? '', 'base64').toString('utf8') : value;
}

/** A value that cannot go as a plain header (non-ASCII or control characters, edge whitespace, the sentinel's shape). */
export const needsBase64 = (v: string): boolean =>
  /[^\x20-\x7e]/.test(v) || v !== v.trim() || /^=\?base64\?.*\?=$/.test(v);

/** RFC 9110 token characters (`tchar`), the only ones an `x-mcp-header` name may have. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE = ['string', 'number', 'integer', 'boolean'];

/**
 * Why a tool's `x-mcp-header` annotations are invalid (2026-07-28 Tools › x-mcp-header: not empty, a token, unique
 * case-insensitively, on a primitive parameter), or undefined when they are valid. A client over Streamable HTTP must
 * exclude such a tool.
 */
export function headerAnnotationFault(
  schema: unknown,
  path: string[] = [],
  seen = new Map<string, string>(),
): string | undefined {
  for (const [key, sub] of Object.entries(rec(rec(schema)?.properties) ?? {})) {
    const at = [...path, key];
    const s = rec(sub);
    if (s && 'x-mcp-header' in s) {
      const name = s['x-mcp-header'];
      const where = `x-mcp-header ${JSON.stringify(name)} of ${at.join('.')}`;
      if (typeof name !== 'string' || name === '') return `${where} is empty or not a string`;
      if (!TOKEN.test(name)) return `${where} is not an HTTP token`;
      const other = seen.get(name.toLowerCase());
      if (other) return `${where} repeats that of ${other} (names are case-insensitive)`;
      seen.set(name.toLowerCase(), at.join('.'));
      // A primitive, or a nullable one (["string", "null"]).
      const types = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null') : [s.type];
      if (s.type !== undefined && (types.length === 0 || types.some((t) => !PRIMITIVE.includes(t as string))))
        return `${where} is on a parameter of type ${JSON.stringify(s.type)}, not a primitive`;
    }
    const deeper = headerAnnotationFault(sub, at, seen);
    if (deeper) return deeper;
  }
  return undefined;
}
