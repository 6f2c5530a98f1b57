/** A JSON object: not null, not an array. Everything the server sends is checked with this before it is read. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
