/** One place where expected and actual differ. `path` is a JSON Pointer (`""` is the whole value). */
export type Difference =
  | { kind: 'missing'; path: string; expected: unknown }
  | { kind: 'extra'; path: string; actual: unknown }
  | { kind: 'changed'; path: string; expected: unknown; actual: unknown };

type Container = Record<string, unknown> | unknown[];

const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;
const pointer = (path: string, key: string) => `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * Structural differences between two JSON values: keys or items present on one side only, and values that
 * differ (leaves, or a container against a non-container). Objects are compared by key, arrays by index.
 * Stops after `max` differences, so a huge mismatch stays readable.
 */
export function jsonDiff(expected: unknown, actual: unknown, max: number): Difference[] {
  const out: Difference[] = [];
  const walk = (e: unknown, a: unknown, path: string): void => {
    if (out.length >= max) return;
    if (!isContainer(e) || !isContainer(a) || Array.isArray(e) !== Array.isArray(a)) {
      if (!Object.is(e, a)) out.push({ kind: 'changed', path, expected: e, actual: a });
      return;
    }
    const keys = new Set([...Object.keys(e), ...Object.keys(a)]);
    for (const key of keys) {
      const inE = Object.hasOwn(e, key);
      const inA = Object.hasOwn(a, key);
      const at = pointer(path, key);
      if (inE && !inA) out.push({ kind: 'missing', path: at, expected: (e as Record<string, unknown>)[key] });
      else if (!inE && inA) out.push({ kind: 'extra', path: at, actual: (a as Record<string, unknown>)[key] });
      else walk((e as Record<string, unknown>)[key], (a as Record<string, unknown>)[key], at);
      if (out.length >= max) return;
    }
  };
  walk(expected, actual, '');
  return out;
}
