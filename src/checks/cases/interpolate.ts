/** `{{ path }}` references in case values: a whole-string reference keeps the value's type, others are spliced in as text. */
const REF = /\{\{\s*([A-Za-z_][\w.[\]]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][\w.[\]]*)\s*\}\}$/;

export class MissingReference extends Error {
  constructor(readonly path: string) {
    super(`the server profile has no ${path}`);
  }
}

/** Looks up `a.b[0].c` in scope; undefined when any step is missing. */
export function lookup(scope: Record<string, unknown>, path: string): unknown {
  let value: unknown = scope;
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    // Own properties only: a case cannot reach `constructor` or `__proto__` through the profile.
    if (value === null || value === undefined || typeof value !== 'object' || !Object.hasOwn(value, part))
      return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Replaces every reference in `value` (deeply); throws MissingReference for one the scope lacks. */
export function interpolate(value: unknown, scope: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return resolve(scope, whole[1]);
    return value.replace(REF, (_, path: string) => {
      const v = resolve(scope, path);
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, scope));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, scope)]));
  }
  return value;
}

function resolve(scope: Record<string, unknown>, path: string): unknown {
  const v = lookup(scope, path);
  if (v === undefined) throw new MissingReference(path);
  return v;
}
