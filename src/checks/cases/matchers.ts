import { isDeepStrictEqual } from 'node:util';
import { validate, shapeBroken } from '../../schema/validators.js';
import { isObject } from '../../json.js';

/**
 * The matcher vocabulary of cases. A matcher is a JSON value: objects match as subsets (keys not named
 * are not checked), arrays element by element, scalars by strict equality. Keys that start with `$` are
 * operators on the value itself; every operator and every plain key of one object must hold:
 *   $anyOf: [m…]  one of the matchers      $not: m          the matcher fails
 *   $regex: "re"  a string matching re      $type: T         JSON type (string, number, integer, boolean, object, array, null)
 *   $absent: true the key is not present    $valid: Name     validates against schema definition Name of the negotiated revision
 *   $exact: v     deep-equal to v           $items: m        an array whose every element matches
 *   $some: m      an array with an element that matches      $count: {min, max}  array length within bounds
 */
export const OPERATORS = [
  '$anyOf',
  '$not',
  '$regex',
  '$type',
  '$absent',
  '$valid',
  '$exact',
  '$items',
  '$some',
  '$count',
] as const;

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

const split = (m: Record<string, unknown>) => {
  const ops: Record<string, unknown> = {};
  const keys: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) (k.startsWith('$') ? ops : keys)[k] = v;
  return { ops, keys, hasKeys: Object.keys(keys).length > 0 };
};

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v)?.slice(0, 120));

/** Returns undefined when `value` matches, else where and why it does not. */
export function match(matcher: unknown, value: unknown, revision: string, path = '$'): string | undefined {
  if (Array.isArray(matcher)) {
    if (!Array.isArray(value) || value.length !== matcher.length)
      return `${path}: ${show(value)} is not an array of ${matcher.length}`;
    for (let i = 0; i < matcher.length; i++) {
      const miss = match(matcher[i], value[i], revision, `${path}[${i}]`);
      if (miss) return miss;
    }
    return undefined;
  }
  if (isObject(matcher)) {
    const { ops, keys, hasKeys } = split(matcher);
    const miss = matchOperators(ops, value, revision, path);
    if (miss || !hasKeys) return miss;
    if (!isObject(value)) return `${path}: ${show(value)} is not an object`;
    for (const [key, sub] of Object.entries(keys)) {
      const absentWanted = isObject(sub) && sub.$absent === true;
      if (absentWanted) {
        if (key in value) return `${path}.${key}: present (${show(value[key])}), should be absent`;
        continue;
      }
      if (!(key in value)) return `${path}.${key}: missing`;
      const miss = match(sub, value[key], revision, `${path}.${key}`);
      if (miss) return miss;
    }
    return undefined;
  }
  return matcher === value ? undefined : `${path}: ${show(value)} is not ${show(matcher)}`;
}

function matchOperators(m: Record<string, unknown>, v: unknown, revision: string, path: string): string | undefined {
  for (const [op, arg] of Object.entries(m)) {
    let miss: string | undefined;
    switch (op) {
      case '$anyOf': {
        const misses = (arg as unknown[]).map((alt) => match(alt, v, revision, path));
        if (misses.every(Boolean)) miss = `${path}: ${show(v)} matches none of ${show(arg)}`;
        break;
      }
      case '$not':
        if (!match(arg, v, revision, path)) miss = `${path}: ${show(v)} should not match ${show(arg)}`;
        break;
      case '$regex':
        if (typeof v !== 'string' || !new RegExp(arg as string).test(v))
          miss = `${path}: ${show(v)} does not match /${arg}/`;
        break;
      case '$type': {
        const ok = arg === 'integer' ? Number.isInteger(v) : jsonType(v) === arg;
        if (!ok) miss = `${path}: ${show(v)} is not of type ${arg}`;
        break;
      }
      case '$absent':
        if (v !== undefined) miss = `${path}: present, should be absent`;
        break;
      case '$valid': {
        const r = validate(revision, arg as string, v);
        // A format finding alone is no miss: the schema rules (schema/results…) warn on it.
        if (shapeBroken(r)) miss = `${path}: not a valid ${arg} (${revision}): ${r.errors.slice(0, 3).join('; ')}`;
        break;
      }
      case '$exact':
        if (!isDeepStrictEqual(v, arg)) miss = `${path}: ${show(v)} is not exactly ${show(arg)}`;
        break;
      case '$items':
        if (!Array.isArray(v)) miss = `${path}: ${show(v)} is not an array`;
        else for (let i = 0; i < v.length && !miss; i++) miss = match(arg, v[i], revision, `${path}[${i}]`);
        break;
      case '$some':
        if (!Array.isArray(v) || !v.some((item) => !match(arg, item, revision, path)))
          miss = `${path}: no element matches ${show(arg)}`;
        break;
      case '$count': {
        const { min = 0, max = Infinity } = arg as { min?: number; max?: number };
        if (!Array.isArray(v) || v.length < min || v.length > max)
          miss = `${path}: ${Array.isArray(v) ? `${v.length} items` : show(v)}, expected between ${min} and ${max === Infinity ? 'any number of' : max} items`;
        break;
      }
    }
    if (miss) return miss;
  }
  return undefined;
}

/** One mistake in a matcher as written: where (relative to the matcher) and what. */
export interface MatcherProblem {
  path: (string | number)[];
  message: string;
}

/** Problems in a matcher as written (unknown operators, bad arguments), for the loader. */
export function matcherProblems(m: unknown, path: (string | number)[] = []): MatcherProblem[] {
  if (Array.isArray(m)) return m.flatMap((x, i) => matcherProblems(x, [...path, i]));
  if (!isObject(m)) return [];
  const { ops, keys } = split(m);
  const out = Object.entries(keys).flatMap(([k, v]) => matcherProblems(v, [...path, k]));
  for (const [op, arg] of Object.entries(ops)) {
    const at = [...path, op];
    const problem = (message: string) => out.push({ path: at, message });
    if (!(OPERATORS as readonly string[]).includes(op)) problem(`unknown operator (known: ${OPERATORS.join(', ')})`);
    else if (op === '$anyOf' && !Array.isArray(arg)) problem('takes a list of matchers');
    else if (op === '$type' && !TYPES.includes(arg as string)) problem(`takes one of ${TYPES.join(', ')}`);
    else if (op === '$absent' && arg !== true) problem('takes true');
    else if ((op === '$regex' || op === '$valid') && typeof arg !== 'string') problem('takes a string');
    else if (op === '$regex') {
      try {
        new RegExp(arg as string);
      } catch (err) {
        problem((err as Error).message);
      }
    } else if (op === '$count' && (!isObject(arg) || Object.keys(arg).some((k) => k !== 'min' && k !== 'max')))
      problem('takes {min, max}');
    if (op === '$anyOf' && Array.isArray(arg)) out.push(...arg.flatMap((x, i) => matcherProblems(x, [...at, i])));
    if (op === '$not' || op === '$items' || op === '$some') out.push(...matcherProblems(arg, at));
  }
  return out;
}
