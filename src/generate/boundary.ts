// Boundary values of a tool's inputSchema: the edges where tools break (0, ±1, the bounds and just past them, the
// shortest and longest strings and arrays, each enum and const value, null), tried before random values.
import { interleave } from './interleave.js';

type Schema = Record<string, unknown>;

/** Valid edges are accepted by the schema; invalid ones lie just past a bound (the rest of the value stays valid). */
export type EdgeKind = 'valid' | 'invalid';

/** Boundary arguments per tool, at most: a tool with many properties gets the first edges of each. */
export const MAX_BOUNDARY_VALUES = 32;
const MAX_DEPTH = 6;
/** Strings and arrays longer than this are not built at their maximum length. */
const MAX_EDGE_LENGTH = 10_000;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The next double after `x` towards +∞ (`up`) or −∞. */
function nextDouble(x: number, up: boolean): number {
  if (x === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigInt64(0, view.getBigInt64(0) + (x > 0 === up ? 1n : -1n));
  return view.getFloat64(0);
}

/**
 * Arguments at the edges of `schema` (a tool's inputSchema), each with one value moved to an edge on top of `base` (a
 * valid value of the schema), kept when `validate` agrees with the kind: valid ones it accepts, invalid ones it rejects.
 */
export function boundaryArguments(
  schema: unknown,
  base: unknown,
  kind: EdgeKind,
  validate: (value: unknown) => string[],
  max = MAX_BOUNDARY_VALUES,
): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const value of new Edges(schema, kind).of(schema, base, 0)) {
    const key = JSON.stringify(value);
    if (!isSchema(value) || seen.has(key) || (validate(value).length === 0) !== (kind === 'valid')) continue;
    seen.add(key);
    out.push(value);
    if (out.length >= max) break;
  }
  return out;
}

class Edges {
  constructor(
    private readonly root: unknown,
    private readonly kind: EdgeKind,
  ) {}

  /** Follows local $refs; undefined when one cannot be followed (its part gets no edges). */
  private resolve(raw: unknown): Schema | undefined {
    let s = raw;
    for (let hops = 0; isSchema(s) && typeof s.$ref === 'string'; hops++) {
      const ref: string = s.$ref;
      if (hops > 32 || (ref !== '#' && !ref.startsWith('#/'))) return undefined;
      let target: unknown = this.root;
      for (const token of ref === '#' ? [] : ref.slice(2).split('/')) {
        const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
        target = isSchema(target) || Array.isArray(target) ? (target as Record<string, unknown>)[key] : undefined;
      }
      s = target;
    }
    return isSchema(s) ? s : undefined;
  }

  /** Edge values of one (sub)schema, the most telling first; `base` is its value in the base arguments, if any. */
  of(raw: unknown, base: unknown, depth: number): unknown[] {
    const s = this.resolve(raw);
    if (!s || depth > MAX_DEPTH) return [];
    const valid = this.kind === 'valid';
    if ('const' in s) return valid ? [s.const] : [];
    if (Array.isArray(s.enum)) return valid ? s.enum : [];
    const union = s.anyOf ?? s.oneOf ?? (Array.isArray(s.allOf) && s.allOf.length === 1 ? s.allOf : undefined);
    if (Array.isArray(union)) return interleave(union.map((b) => this.of(b, base, depth + 1)));
    const types = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : [];
    const has = (t: string) => types.includes(t);
    const lists: unknown[][] = [];
    if (valid && (has('null') || s.nullable === true)) lists.push([null]);
    if (valid && has('boolean')) lists.push([true, false]);
    if (has('integer') || has('number') || 'minimum' in s || 'maximum' in s)
      lists.push(this.numbers(s, has('integer') && !has('number')));
    if (has('string') || 'minLength' in s || 'maxLength' in s) lists.push(this.strings(s));
    if (has('array') || 'items' in s) lists.push(this.arrays(s, base, depth));
    if (has('object') || 'properties' in s) lists.push(this.objects(s, base, depth));
    return interleave(lists);
  }

  private numbers(s: Schema, integer: boolean): number[] {
    const step = (x: number, up: boolean) => (integer ? x + (up ? 1 : -1) : nextDouble(x, up));
    const [min, max, xmin, xmax, multiple] = [
      num(s.minimum),
      num(s.maximum),
      num(s.exclusiveMinimum),
      num(s.exclusiveMaximum),
      num(s.multipleOf),
    ];
    if (this.kind === 'invalid') {
      return [
        min === undefined ? undefined : step(min, false),
        max === undefined ? undefined : step(max, true),
        xmin,
        xmax,
      ].filter((x): x is number => x !== undefined);
    }
    const inside = [
      min,
      max,
      xmin === undefined ? undefined : step(xmin, true),
      xmax === undefined ? undefined : step(xmax, false),
    ];
    const multiples =
      multiple === undefined
        ? []
        : [
            multiple,
            -multiple,
            ...[min ?? xmin].filter((x) => x !== undefined).map((x) => Math.ceil(x! / multiple) * multiple),
          ];
    return [0, -1, 1, ...inside, ...multiples].filter(
      (x): x is number => x !== undefined && (!integer || Number.isSafeInteger(x)),
    );
  }

  private strings(s: Schema): string[] {
    const [min, max] = [num(s.minLength), num(s.maxLength)];
    const of = (n: number | undefined) => (n === undefined || n < 0 || n > MAX_EDGE_LENGTH ? [] : ['a'.repeat(n)]);
    if (this.kind === 'invalid')
      return [...(min !== undefined && min > 0 ? of(min - 1) : []), ...(max !== undefined ? of(max + 1) : [])];
    return ['', ...of(min), ...of(max)];
  }

  private arrays(s: Schema, base: unknown, depth: number): unknown[][] {
    const [min, max] = [num(s.minItems) ?? 0, num(s.maxItems)];
    const valid = this.kind === 'valid';
    // One element (the base's first, or an edge of the items) repeated to the length asked.
    const element =
      Array.isArray(base) && base.length > 0
        ? base[0]
        : new Edges(this.root, 'valid').of(s.items, undefined, depth + 1)[0];
    const filled = (n: number | undefined) =>
      n === undefined || n < 0 || n > MAX_EDGE_LENGTH || (n > 0 && element === undefined)
        ? []
        : [Array.from({ length: n }, () => element)];
    const lengths = valid
      ? [...filled(0), ...filled(min), ...filled(max)]
      : [...(min > 0 ? filled(min - 1) : []), ...(max !== undefined ? filled(max + 1) : [])];
    // Arrays of one element at each edge of the items.
    const items =
      s.items === undefined || Array.isArray(s.items) ? [] : this.of(s.items, element, depth + 1).map((v) => [v]);
    return interleave([lengths, items]);
  }

  /** `{}`, then the base with one property moved to each of its edges (nested objects the same way). */
  private objects(s: Schema, base: unknown, depth: number): unknown[] {
    const properties = isSchema(s.properties) ? s.properties : {};
    const whole = isSchema(base) ? base : {};
    const moved = Object.entries(properties).map(([key, sub]) =>
      this.of(sub, whole[key], depth + 1).map((v) => ({ ...whole, [key]: v })),
    );
    return [...(this.kind === 'valid' ? [{}] : []), ...interleave(moved)];
  }
}
