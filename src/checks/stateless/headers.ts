// The request metadata headers of the stateless wire beyond stateless/http/header-mismatch (2026-07-28 Streamable
// HTTP): the Mcp-Param-{Name} headers a tool's x-mcp-header parameters ask for, and header names in any case.
import fc from 'fast-check';
import { paramHeadersOf } from '../../discovery/discover.js';
import { schemaArbitraries } from '../../generate/schema-arbitrary.js';
import { callableTools } from '../../generate/tool-policy.js';
import { isObject } from '../../json.js';
import { STATELESS_REVISION } from '../../schema/validators.js';
import type { HttpOutcome } from '../../transport/http-base.js';
import type { Session } from '../../session/session.js';
import { type CheckContext, type CheckDef, fail, pass, skip } from '../kit/check.js';
import { actualOf, httpOf } from '../kit/http.js';
import { requirement } from '../kit/requirement.js';
import { answered, messageOf, refusedAsMismatch } from './http.js';
import { CLIENT_CAPABILITIES, INPUT_CAPABILITY } from './mrtr.js';

const only07 = [STATELESS_REVISION];
const PAGE = 'basic/transports/streamable-http';
const MISMATCH = 'HTTP 400 with a HeaderMismatchError (-32020)';
/** The plain value a probe gives the mirrored parameter, and the one that differs from it. */
const PLAIN = 'mcp-conformance';
const OTHER = 'mcp-conformance-other';
/** A value no plain header can carry: its header is the Base64 sentinel form. */
const UNSAFE = 'mcp-conformance, 世界';
const base64 = (value: string) => `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;

/** Whether a probe was served: a 2xx answer whose JSON-RPC response is a result. */
const served = (o: HttpOutcome) =>
  o.status !== undefined && o.status >= 200 && o.status < 300 && isObject(messageOf(o)?.result);

/** A tool with a free-text string parameter mirrored in `Mcp-Param-{header}`, and valid arguments for it. */
interface ParamTarget {
  tool: string;
  arg: string;
  header: string;
  args: Record<string, unknown>;
}

/** A string schema any text satisfies: no enum, const, pattern or format to refuse the suite's values. */
const freeText = (schema: unknown) =>
  isObject(schema) && schema.type === 'string' && !['enum', 'const', 'pattern', 'format'].some((k) => k in schema);

/** The first tool the run may call with a free-text x-mcp-header parameter; or why there is none. */
function paramTarget(ctx: CheckContext): ParamTarget | string {
  const mirrored = paramHeadersOf(ctx.profile.tools);
  if (mirrored.size === 0) return 'no listed tool designates a parameter with x-mcp-header';
  for (const tool of callableTools(ctx.profile.tools, ctx.toolCalls).callable) {
    const headers = mirrored.get(String(tool.name)) ?? {};
    const properties = isObject(tool.inputSchema) ? tool.inputSchema.properties : undefined;
    const arg = Object.keys(headers).find((a) => isObject(properties) && freeText(properties[a]));
    const valid = schemaArbitraries(tool.inputSchema).valid;
    if (arg === undefined || !valid.ok) continue;
    const sample = fc.sample(valid.arbitrary, { numRuns: 1, seed: ctx.seed })[0];
    return { tool: String(tool.name), arg, header: headers[arg]!, args: isObject(sample) ? sample : {} };
  }
  return `no tool the run may call has a free-text string parameter with x-mcp-header (${[...mirrored.keys()].join(', ')})`;
}

/** Every client capability the suite answers input requests for: a tool that needs input answers with a result. */
const ANSWERABLE = Object.fromEntries(Object.values(INPUT_CAPABILITY).map((c) => [c, {}]));

/** Calls the target tool with `value` for its parameter and `header` (undefined: none) in its Mcp-Param header. */
function callWith(session: Session, t: ParamTarget, value: string, header?: string) {
  const meta = { ...session.requestMeta, [CLIENT_CAPABILITIES]: ANSWERABLE };
  const text = JSON.stringify({
    jsonrpc: '2.0',
    id: `mcp-conformance-param-${header === undefined ? 'missing' : 'header'}`,
    method: 'tools/call',
    params: { name: t.tool, arguments: { ...t.args, [t.arg]: value }, _meta: meta },
  });
  const what = `${t.tool} with ${t.arg} ${JSON.stringify(value)} and ${header === undefined ? 'no ' : ''}Mcp-Param-${t.header}${header === undefined ? '' : `: ${header}`}`;
  return httpOf(session)
    .probe('POST', what, { [`Mcp-Param-${t.header}`]: header }, text)
    .then((o) => ({ what, o }));
}

/** A fresh session and the target, with the answer to a call whose header matches the body; or why there is none. */
async function matchedCall(ctx: CheckContext) {
  const t = paramTarget(ctx);
  if (typeof t === 'string') return t;
  const session = await ctx.fresh();
  return { t, session, plain: await callWith(session, t, PLAIN, PLAIN) };
}

export const STATELESS_HEADER_CHECKS: CheckDef[] = [
  {
    id: 'stateless/http/param-header-mismatch',
    title: 'A tools/call whose Mcp-Param header is missing or disagrees with the argument gets 400 and HeaderMismatch',
    requirement: requirement(
      '07.http.param-mismatch',
      'MUST',
      `${PAGE}#server-behavior-for-custom-headers`,
      'A tools/call whose Mcp-Param-{Name} header disagrees with the x-mcp-header argument in the body, or is missing while the body has the value, is rejected with 400 Bad Request and HeaderMismatch -32020',
      STATELESS_REVISION,
    ),
    transport: 'http',
    revisions: only07,
    async run(ctx) {
      const m = await matchedCall(ctx);
      if (typeof m === 'string') return skip(m);
      const { t, session, plain } = m;
      // Only a call the server serves with matching headers shows that a refusal is about the header.
      if (!served(plain.o))
        return skip(`${plain.what} → ${answered(plain.o)}: not served, so a refusal would say nothing of the header`);
      const probes = [await callWith(session, t, PLAIN, OTHER), await callWith(session, t, PLAIN)];
      const wrong = probes.filter((p) => !refusedAsMismatch(p.o));
      if (wrong.length === 0) return pass(`${probes.map((p) => p.what).join('; ')} → 400, -32020`);
      return fail(wrong.map((p) => `${p.what} → ${answered(p.o)}`).join('; '), {
        expected: MISMATCH,
        actual: wrong.map((p) => ({ sent: p.what, ...actualOf(p.o) })),
      });
    },
  },
  {
    id: 'stateless/http/param-header-decoded',
    title: 'A tools/call whose Mcp-Param header matches the argument, plain or Base64-encoded, is served',
    requirement: requirement(
      '07.http.param-decode',
      'MUST',
      `${PAGE}#value-encoding`,
      'A server decodes a Base64 sentinel Mcp-Param-{Name} value (=?base64?…?=) before comparing it to the body: a tools/call whose headers match its body, plain or encoded, is served',
      STATELESS_REVISION,
    ),
    transport: 'http',
    revisions: only07,
    async run(ctx) {
      const m = await matchedCall(ctx);
      if (typeof m === 'string') return skip(m);
      const { t, session, plain } = m;
      const refusal = (p: typeof plain) =>
        fail(`${p.what} → ${answered(p.o)}`, {
          expected: 'served: the header matches the body',
          actual: actualOf(p.o),
        });
      if (refusedAsMismatch(plain.o)) return refusal(plain);
      if (!served(plain.o))
        return skip(`${plain.what} → ${answered(plain.o)}: the tool does not serve these arguments`);
      const encoded = await callWith(session, t, UNSAFE, base64(UNSAFE));
      if (served(encoded.o)) return pass(`${plain.what} → served; ${encoded.what} → served`);
      if (refusedAsMismatch(encoded.o)) return refusal(encoded);
      return skip(`${encoded.what} → ${answered(encoded.o)}: the tool does not serve that value`);
    },
  },
  {
    id: 'stateless/http/header-case',
    title: 'Request metadata header names are matched whatever their case',
    requirement: requirement(
      '07.http.header-case',
      'MUST',
      `${PAGE}#case-sensitivity`,
      'A server compares header names case-insensitively: mcp-method and MCP-METHOD are Mcp-Method',
      STATELESS_REVISION,
    ),
    transport: 'http',
    revisions: only07,
    async run(ctx) {
      const session = await ctx.fresh();
      const http = httpOf(session);
      const text = JSON.stringify({
        jsonrpc: '2.0',
        id: 'mcp-conformance-header-case',
        method: 'server/discover',
        params: { _meta: session.requestMeta },
      });
      /** The request metadata headers under these names (the transport's own removed). */
      const named = (version: string, method: string) => ({
        'MCP-Protocol-Version': undefined,
        'Mcp-Method': undefined,
        [version]: STATELESS_REVISION,
        [method]: 'server/discover',
      });
      const accepted = [
        {
          what: 'server/discover with mcp-protocol-version and mcp-method',
          overrides: named('mcp-protocol-version', 'mcp-method'),
        },
        {
          what: 'server/discover with MCP-PROTOCOL-VERSION and MCP-METHOD',
          overrides: named('MCP-PROTOCOL-VERSION', 'MCP-METHOD'),
        },
      ];
      const results = [];
      for (const p of accepted) results.push({ ...p, o: await http.probe('POST', p.what, p.overrides, text) });
      const wrong = results.filter((r) => !served(r.o));
      if (wrong.length === 0) return pass(`${results.map((r) => r.what).join('; ')} → served`);
      return fail(wrong.map((w) => `${w.what} → ${answered(w.o)}`).join('; '), {
        expected: 'served: header names are case-insensitive',
        actual: wrong.map((w) => ({ sent: w.what, ...actualOf(w.o) })),
      });
    },
  },
];
