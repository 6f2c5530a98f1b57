/** A JSON object: not null, not an array. Everything the server sends is checked with this before it is read. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON written with object keys sorted: two values are equal in content (key order aside) when these are. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** Strings longer than this are cut when a message is kept as evidence. */
export const EVIDENCE_STRING_CAP = 4096;

/** A copy of the first `cap` characters: a V8 slice would keep the whole (maybe huge) string alive. */
export const prefixCopy = (text: string, cap: number): string => Buffer.from(text.slice(0, cap)).toString();

/**
 * A copy of a JSON value to keep as evidence (a check's expected or actual): strings past the cap are cut to a prefix
 * that says how many bytes they had, so a result or a memo does not hold a server's multi-megabyte payload.
 */
export function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === 'string')
    return value.length > EVIDENCE_STRING_CAP
      ? `${prefixCopy(value, EVIDENCE_STRING_CAP)}… (${Buffer.byteLength(value)} bytes)`
      : value;
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => bounded(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bounded(v, depth + 1)]));
}
