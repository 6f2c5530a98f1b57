// Resource templates (server/resources#resource-templates): each template's variables are filled — from completion
// values when the server offers completions, else from a listed resource the template matches, else a placeholder —
// and one expansion is read. The result is a valid ReadResourceResult, or the revision's not-found error.
import { isObject } from '../../json.js';
import { SCHEMA_REVISIONS, STATELESS_REVISION, validate, shapeBroken } from '../../schema/validators.js';
import { RequestTimeout } from '../../session/session.js';
import {
  type CheckContext,
  type CheckDef,
  type Outcome,
  describeReply,
  errorOf,
  fail,
  pass,
  resultOf,
  skip,
  warn,
  worst,
} from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import { slowMessage } from '../kit/timeouts.js';

/** Templates read, at most. */
const MAX_TEMPLATES = 10;
const PLACEHOLDER = 'mcp-conformance';

/** One `{…}` expression of an RFC 6570 template: its operator and variable names (modifiers dropped). */
interface Expression {
  op: string;
  vars: string[];
}

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

export function expressionsOf(template: string): Expression[] {
  return [...template.matchAll(EXPRESSION)].map((m) => ({
    op: m[1],
    vars: m[2]
      .split(',')
      .map((v) => v.replace(/[:*].*$/, '').trim())
      .filter(Boolean),
  }));
}

/** RFC 6570 expansion (levels 1–3) of `template` with string values. */
export function expand(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_, op: string, list: string) => {
    const vars = list
      .split(',')
      .map((v) => v.replace(/[:*].*$/, '').trim())
      .filter((v) => values[v] !== undefined);
    if (vars.length === 0) return '';
    const enc = (s: string) => (op === '+' || op === '#' ? encodeURI(s) : encodeURIComponent(s));
    const named = (sep: string) => vars.map((v) => `${v}=${enc(values[v])}`).join(sep);
    const plain = (sep: string) => vars.map((v) => enc(values[v])).join(sep);
    switch (op) {
      case '.':
        return `.${plain('.')}`;
      case '/':
        return `/${plain('/')}`;
      case ';':
        return `;${named(';')}`;
      case '?':
        return `?${named('&')}`;
      case '&':
        return `&${named('&')}`;
      case '#':
        return `#${plain(',')}`;
      default:
        return plain(',');
    }
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Values of a template's simple one-variable expressions taken from a listed URI it matches. */
function valuesFrom(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const parts = template.split(EXPRESSION);
  // split with two groups yields [text, op, vars, text, op, vars, …, text]
  let pattern = '';
  for (let i = 0; i < parts.length; i += 3) {
    pattern += escape(parts[i]);
    if (i + 2 >= parts.length) break;
    const [op, list] = [parts[i + 1], parts[i + 2]];
    const vars = list.split(',').map((v) => v.replace(/[:*].*$/, '').trim());
    if (op === '' && vars.length === 1) {
      names.push(vars[0]);
      pattern += '([^/?#&]+)';
    } else {
      pattern += '.*';
    }
  }
  const m = new RegExp(`^${pattern}$`, 's').exec(uri);
  if (!m) return undefined;
  try {
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
  } catch {
    return undefined;
  }
}

/** The first completion value the server offers for `name`, when it offers one. */
async function completed(
  ctx: CheckContext,
  template: string,
  name: string,
  context: Record<string, string>,
): Promise<string | undefined> {
  const reply = await ctx
    .request('completion/complete', {
      ref: { type: 'ref/resource', uri: template },
      argument: { name, value: '' },
      ...(Object.keys(context).length > 0 && { context: { arguments: context } }),
    })
    .catch(() => undefined);
  const values = (reply && (resultOf(reply)?.completion as { values?: unknown } | undefined)?.values) ?? [];
  return Array.isArray(values) && typeof values[0] === 'string' ? values[0] : undefined;
}

/** Values for every variable of `template`, and where they came from. */
async function fill(ctx: CheckContext, template: string): Promise<{ values: Record<string, string>; from: string }> {
  const vars = [...new Set(expressionsOf(template).flatMap((e) => e.vars))];
  const values: Record<string, string> = {};
  const sources = new Set<string>();
  if (ctx.profile.capabilities.completions !== undefined && ctx.profile.revision >= '2025-03-26') {
    for (const v of vars) {
      const value = await completed(ctx, template, v, values);
      if (value !== undefined) {
        values[v] = value;
        sources.add('completion');
      }
    }
  }
  const listed = ctx.profile.resources
    .map((r) => valuesFrom(template, String(r.uri)))
    .find((found) => found !== undefined);
  for (const v of vars) {
    if (values[v] !== undefined) continue;
    if (listed?.[v] !== undefined) {
      values[v] = listed[v];
      sources.add('a listed resource');
    } else {
      values[v] = PLACEHOLDER;
      sources.add('a placeholder');
    }
  }
  return { values, from: [...sources].join(' and ') || 'no variables' };
}

/** One template: fill, expand, read, judge. */
async function readOne(ctx: CheckContext, template: string): Promise<Outcome> {
  const { values, from } = await fill(ctx, template);
  const uri = expand(template, values);
  const { revision } = ctx.profile;
  const stateless = revision === STATELESS_REVISION;
  const reply = await ctx.request('resources/read', { uri }).catch((err: unknown) => {
    if (err instanceof RequestTimeout) return undefined;
    throw err;
  });
  const what = `${uri} (${template}, values from ${from})`;
  if (!reply)
    return warn(slowMessage([`resource ${what} (resources/read) within ${(ctx.timeoutMs / 1000).toFixed(1)} s`]));
  const result = resultOf(reply);
  if (result) {
    const shape = validate(revision, 'ReadResourceResult', result);
    if (shapeBroken(shape))
      return fail(`reading ${what} returned an invalid ReadResourceResult: ${shape.errors[0]}`, {
        expected: 'ReadResourceResult',
        actual: { result: describeReply(reply), errors: shape.errors },
      });
    return pass(`${what}: read`);
  }
  const err = errorOf(reply);
  const code = err?.code;
  // 2026-07-28 retired -32002 and made -32602 the not-found code (a MUST); earlier revisions name -32002 and the
  // TypeScript SDK's -32602 is accepted (requirements §4.3), as resources/read/unknown-uri does.
  if (stateless && code === -32002)
    return fail(`reading ${what} → -32002, a code 2026-07-28 retired; not found is -32602`, {
      expected: { error: { code: -32602 } },
      actual: describeReply(reply),
    });
  if (code === -32602 || (!stateless && code === -32002)) {
    // SEP-2164: the not-found error names the URI in data.uri (2026-07-28, SHOULD).
    if (stateless && !(isObject(err?.data) && typeof err.data.uri === 'string'))
      return warn(`reading ${what} → -32602 without data.uri naming the resource`, {
        expected: { error: { code: -32602, data: { uri } } },
        actual: describeReply(reply),
      });
    return pass(`${what}: not found (${String(code)})`);
  }
  return warn(
    `reading ${what} → error ${JSON.stringify(code)}, neither a result nor the not-found error ${stateless ? '-32602' : '-32002'}`,
    {
      expected: stateless ? { error: { code: -32602 } } : 'a ReadResourceResult or error -32002',
      actual: describeReply(reply),
    },
  );
}

export const RESOURCE_TEMPLATE_CHECKS: CheckDef[] = [
  {
    id: 'resources/templates/read',
    title:
      'A resource template filled in (from completions or listed resources) reads as a valid result or the not-found error',
    revisions: SCHEMA_REVISIONS,
    requirement: requirement(
      'res.read.shape',
      'MUST',
      'server/resources#resource-templates',
      "A URI made from a resource template reads as a valid ReadResourceResult, or gets the revision's not-found error (-32002; from 2026-07-28 on -32602 with data.uri)",
    ),
    covers: ['res.templates.shape', 'res.read.not-found.07'],
    requires: { capabilities: ['resources'] },
    async run(ctx) {
      const templates = ctx.profile.resourceTemplates
        .map((t) => t.uriTemplate)
        .filter((t): t is string => typeof t === 'string');
      if (templates.length === 0) return skip('the server lists no resource templates');
      const outcomes = await Promise.all(templates.slice(0, MAX_TEMPLATES).map((t) => readOne(ctx, t)));
      const judged = worst(outcomes);
      const more =
        templates.length > MAX_TEMPLATES ? ` (the first ${MAX_TEMPLATES} of ${templates.length} templates)` : '';
      return { ...judged, message: judged.message + more };
    },
  },
];
