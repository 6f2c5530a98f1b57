// Streamable HTTP on the stateless wire (2026-07-28, requirements §1.21 07.http.*): the request metadata headers,
// the HTTP statuses of protocol errors, and what became of sessions and the GET stream.
import { REVISIONS, STATELESS_REVISION, validate } from '../../schema/validators.js';
import type { Reply, Session } from '../../session/session.js';
import type { HttpOutcome } from '../../transport/http-base.js';
import type { StreamableHttpTransport } from '../../transport/http.js';
import { SseParser } from '../../transport/sse-parser.js';
import { type CheckContext, type CheckDef, describeReply, errorOf, fail, pass, skip, warn } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import { FABRICATED_SESSION, actualOf, httpOf, said } from '../kit/http.js';
import { isObject } from '../../json.js';
import { TASKS_EXTENSION, tasksAdvertised } from '../tasks-ext/checks.js';
import { CLIENT_CAPABILITIES, PROTOCOL_VERSION, capabilitiesMeta, inputProbe } from './mrtr.js';

const only07 = [STATELESS_REVISION];
const PAGE = 'basic/transports/streamable-http';
/** A session id and an event id no server issued. */
const FABRICATED_EVENT = 'mcp-conformance-no-such-event';

/** A fresh stateless session over Streamable HTTP, and its transport for probes. */
async function openStateless(ctx: CheckContext): Promise<{ session: Session; http: StreamableHttpTransport }> {
  const session = await ctx.fresh();
  return { session, http: httpOf(session) };
}

/** A request body as the session would send it: the protocol fields in `_meta` unless `meta` is false. */
function body(session: Session, id: string, method: string, params: Record<string, unknown> = {}, meta = true): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: meta ? { ...params, _meta: session.requestMeta } : params,
  });
}

/** The JSON-RPC response a probe got: the JSON body, or the last response on an SSE stream. */
export function messageOf(o: HttpOutcome): Record<string, unknown> | undefined {
  const texts: string[] = [];
  if (o.contentType === 'text/event-stream') {
    const parser = new SseParser((event) => texts.push(event.data));
    parser.push(Buffer.from(o.body));
    parser.end();
  } else {
    texts.push(o.body);
  }
  const messages = texts.flatMap((t) => {
    try {
      const m: unknown = JSON.parse(t);
      return isObject(m) && ('result' in m || 'error' in m) ? [m] : [];
    } catch {
      return [];
    }
  });
  return messages.at(-1);
}

const codeOf = (m: Record<string, unknown> | undefined) => (isObject(m?.error) ? m.error.code : undefined);
/** Whether a probe was refused as header validation failures must be: 400 with a HeaderMismatchError (-32020). */
export const refusedAsMismatch = (o: HttpOutcome) =>
  o.status === 400 && validate(STATELESS_REVISION, 'HeaderMismatchError', messageOf(o)).ok;
/** `HTTP 400 application/json, error -32020`: the status and what the body said. */
export const answered = (o: HttpOutcome) => {
  const m = messageOf(o);
  return `${said(o)}${m === undefined ? '' : isObject(m.error) ? `, error ${JSON.stringify(m.error.code)}` : ', a result'}`;
};

/** The HTTP answer to a request the session sent (its POST's outcome). */
function outcomeOf(http: StreamableHttpTransport, reply: Reply): Promise<HttpOutcome> {
  return http.posts.find((p) => p.sent === reply.sent)!.outcome;
}

/** The request and target that carry Mcp-Name on a server with this capability. */
function namedRequest(ctx: CheckContext): { method: string; params: Record<string, unknown> } | undefined {
  const caps = ctx.profile.capabilities;
  if (caps.tools !== undefined)
    return { method: 'tools/call', params: { name: 'mcp-conformance-no-such-tool', arguments: {} } };
  if (caps.prompts !== undefined) return { method: 'prompts/get', params: { name: 'mcp-conformance-no-such-prompt' } };
  if (caps.resources !== undefined)
    return { method: 'resources/read', params: { uri: 'mcp-conformance:///no-such-resource' } };
  return undefined;
}

export const STATELESS_HTTP_CHECKS: CheckDef[] = [
  {
    id: 'stateless/http/header-mismatch',
    title: 'Request metadata headers that are missing or disagree with the body get 400 and HeaderMismatch',
    requirement: requirement(
      '07.http.headers',
      'MUST',
      `${PAGE}#server-validation`,
      'A request whose MCP-Protocol-Version, Mcp-Method or Mcp-Name header is missing or does not match the body is rejected with 400 Bad Request and HeaderMismatch -32020',
      STATELESS_REVISION,
    ),
    covers: ['tasksext.http.mcp-name.mismatch'],
    transport: 'http',
    revisions: only07,
    async run(ctx) {
      const { session, http } = await openStateless(ctx);
      const probes: { what: string; overrides: Record<string, string | undefined>; text: string }[] = [
        {
          what: 'tools/list with Mcp-Method: prompts/list',
          overrides: { 'Mcp-Method': 'prompts/list' },
          text: body(session, 'mcp-conformance-method-mismatch', 'tools/list'),
        },
        // Header values are case-sensitive (streamable-http#case-sensitivity).
        {
          what: 'tools/list with Mcp-Method: TOOLS/LIST',
          overrides: { 'Mcp-Method': 'TOOLS/LIST' },
          text: body(session, 'mcp-conformance-method-case', 'tools/list'),
        },
        {
          what: 'tools/list without Mcp-Method',
          overrides: { 'Mcp-Method': undefined },
          text: body(session, 'mcp-conformance-method-missing', 'tools/list'),
        },
        // A version the server speaks, but not the one the body's _meta names.
        {
          what: `tools/list with MCP-Protocol-Version: ${REVISIONS[0]} (its _meta names ${STATELESS_REVISION})`,
          overrides: { 'MCP-Protocol-Version': REVISIONS[0] },
          text: body(session, 'mcp-conformance-version-mismatch', 'tools/list'),
        },
      ];
      const named = namedRequest(ctx);
      if (named) {
        const other = `${String(named.params.name ?? named.params.uri)}-other`;
        probes.push({
          what: `${named.method} with Mcp-Name: ${other}`,
          overrides: { 'Mcp-Name': other },
          text: body(session, 'mcp-conformance-name-mismatch', named.method, named.params),
        });
        // "A required standard header (MCP-Protocol-Version, Mcp-Method, Mcp-Name) is missing" fails validation too.
        probes.push({
          what: `${named.method} without Mcp-Name`,
          overrides: { 'Mcp-Name': undefined },
          text: body(session, 'mcp-conformance-name-missing', named.method, named.params),
        });
      }
      // The Tasks extension mirrors a task request's taskId in Mcp-Name: a server that serves it checks that too.
      if (tasksAdvertised(ctx)) {
        const taskId = 'mcp-conformance-no-such-task';
        const meta = { ...session.requestMeta, [CLIENT_CAPABILITIES]: { extensions: { [TASKS_EXTENSION]: {} } } };
        probes.push({
          what: `tasks/get with Mcp-Name: ${taskId}-other`,
          overrides: { 'Mcp-Name': `${taskId}-other` },
          text: body(session, 'mcp-conformance-task-name-mismatch', 'tasks/get', { taskId, _meta: meta }, false),
        });
      }
      const results = [];
      for (const p of probes) results.push({ ...p, o: await http.probe('POST', p.what, p.overrides, p.text) });
      const wrong = results.filter(({ o }) => !refusedAsMismatch(o));
      if (wrong.length === 0)
        return pass(
          `${results.map((r) => r.what).join('; ')} → 400, -32020${named ? '' : ' (no tools, prompts or resources: Mcp-Name not probed)'}`,
        );
      return fail(wrong.map((r) => `${r.what} → ${answered(r.o)}`).join('; '), {
        expected: 'HTTP 400 with a HeaderMismatchError (-32020)',
        actual: wrong.map((r) => ({ sent: r.what, ...actualOf(r.o) })),
      });
    },
  },
  {
    id: 'stateless/http/unknown-method-404',
    title: 'A method the server does not implement gets 404 and -32601',
    requirement: requirement(
      '07.http.404-method',
      'MUST',
      `${PAGE}#protocol-version-header`,
      'A request for an RPC method the server does not implement gets 404 Not Found and a JSON-RPC error -32601',
      STATELESS_REVISION,
    ),
    transport: 'http',
    revisions: only07,
    async run(ctx) {
      const { session, http } = await openStateless(ctx);
      const reply = await session.request('mcp-conformance/no-such-method', {});
      const o = await outcomeOf(http, reply);
      const code = errorOf(reply)?.code;
      const what = `mcp-conformance/no-such-method → ${said(o)}, ${code === undefined ? 'a result' : `error ${JSON.stringify(code)}`}`;
      if (o.status === 404 && code === -32601) return pass(what);
      return fail(what, {
        expected: 'HTTP 404 with error -32601',
        actual: { ...actualOf(o), reply: describeReply(reply) },
      });
    },
  },
  {
    id: 'stateless/http/get-delete-405',
    title: 'GET and DELETE on the endpoint get 405',
    requirement: requirement(
      '07.http.legacy',
      'SHOULD',
      `${PAGE}#earlier-streamable-http-revisions`,
      'The GET stream and DELETE of sessions are gone: a server answers HTTP GET or DELETE to the MCP endpoint with 405 Method Not Allowed',
      STATELESS_REVISION,
    ),
    transport: 'http',
    revisions: only07,
    async run(ctx) {
      const { http } = await openStateless(ctx);
      const version = { 'MCP-Protocol-Version': STATELESS_REVISION };
      const answers = [];
      for (const method of ['GET', 'DELETE'] as const)
        answers.push({ method, o: await http.probe(method, `${method} on the stateless wire`, version) });
      const wrong = answers.filter((a) => a.o.status !== 405);
      if (wrong.length === 0) return pass('GET → 405, DELETE → 405');
      return warn(wrong.map((a) => `${a.method} → ${said(a.o)}`).join('; '), {
        expected: 'HTTP 405',
        actual: wrong.map((a) => ({ method: a.method, ...actualOf(a.o) })),
      });
    },
  },
  {
    id: 'stateless/http/no-session',
    title: 'Mcp-Session-Id and Last-Event-ID are ignored, and no session id is minted',
    requirement: requirement(
      '07.http.legacy',
      'SHOULD',
      `${PAGE}#earlier-streamable-http-revisions`,
      'A server ignores an Mcp-Session-Id header (and never mints or echoes session ids) and a Last-Event-ID header',
      STATELESS_REVISION,
    ),
    transport: 'http',
    revisions: only07,
    async run(ctx) {
      const { session, http } = await openStateless(ctx);
      const plain = await outcomeOf(http, await session.request('server/discover', {}));
      const o = await http.probe(
        'POST',
        'server/discover with Mcp-Session-Id and Last-Event-ID',
        { 'Mcp-Session-Id': FABRICATED_SESSION, 'Last-Event-ID': FABRICATED_EVENT },
        body(session, 'mcp-conformance-session-ignored', 'server/discover'),
      );
      const served = o.status !== undefined && o.status >= 200 && o.status < 300 && isObject(messageOf(o)?.result);
      if (!served)
        return warn(`server/discover with an Mcp-Session-Id and a Last-Event-ID it never issued → ${answered(o)}`, {
          expected: 'served as without them',
          actual: actualOf(o),
        });
      const minted = [plain, o].map((x) => x.headers['mcp-session-id']).find((sid) => sid !== undefined);
      if (minted !== undefined)
        return warn(`the server sent Mcp-Session-Id ${JSON.stringify(minted)}`, {
          expected: 'no Mcp-Session-Id header',
          actual: minted,
        });
      return pass('a request with a foreign Mcp-Session-Id and Last-Event-ID was served; no session id minted');
    },
  },
  {
    id: 'stateless/http/meta-missing-400',
    title: 'A request without _meta, or without one of its required fields, gets 400',
    requirement: requirement(
      '07.meta.required',
      'MUST',
      'basic#per-request-protocol-fields',
      'A request missing io.modelcontextprotocol/protocolVersion or …/clientCapabilities in _meta is rejected with -32602, over HTTP with 400 Bad Request',
      STATELESS_REVISION,
    ),
    transport: 'http',
    revisions: only07,
    async run(ctx) {
      const { session, http } = await openStateless(ctx);
      const meta = session.requestMeta ?? {};
      // Undefined drops a key from the body. The headers mirror the body and the session's version, so
      // MCP-Protocol-Version names a version even where the body lacks one: HeaderMismatch (-32020) fits that too.
      const probes = [
        { what: 'server/discover without _meta', params: {} },
        {
          what: 'server/discover without protocolVersion',
          params: { _meta: { ...meta, [PROTOCOL_VERSION]: undefined } },
        },
        {
          what: 'server/discover without clientCapabilities',
          params: { _meta: { ...meta, [CLIENT_CAPABILITIES]: undefined } },
        },
      ];
      const results = [];
      for (const [i, p] of probes.entries())
        results.push({
          ...p,
          o: await http.probe(
            'POST',
            p.what,
            {},
            body(session, `mcp-conformance-meta-${i}`, 'server/discover', p.params, false),
          ),
        });
      const [whole, ...fields] = results;
      // A request without one field that was served, or refused with another code, is stateless/meta/required's or
      // stateless/meta/protocol-version-required's to judge: here only the status of a refusal. Only this check sends
      // no _meta at all, so it judges that answer's code too.
      const refused = fields.filter((r) => !isObject(messageOf(r.o)?.result));
      const wrong = [
        ...(whole.o.status === 400 && [-32602, -32020].includes(codeOf(messageOf(whole.o)) as number) ? [] : [whole]),
        ...refused.filter((r) => r.o.status !== 400),
      ];
      if (wrong.length > 0)
        return fail(wrong.map((r) => `${r.what} → ${answered(r.o)}`).join('; '), {
          expected: 'HTTP 400, with error -32602 (or -32020, the header naming a version the body lacks)',
          actual: wrong.map((r) => ({ sent: r.what, ...actualOf(r.o) })),
        });
      const served = fields
        .filter((r) => !refused.includes(r))
        .map((r) => `${r.what} was served (the stateless/meta checks judge that)`);
      return pass(
        [whole, ...refused]
          .map((r) => `${r.what} → ${answered(r.o)}`)
          .concat(served)
          .join('; '),
      );
    },
  },
  {
    id: 'stateless/http/version-unsupported-400',
    title: 'An unsupported protocol version gets 400 and -32022',
    requirement: requirement(
      '07.version.unsupported',
      'MUST',
      `${PAGE}#protocol-version-header`,
      'A request for a protocol version the server does not implement gets 400 Bad Request and an UnsupportedProtocolVersionError (-32022)',
      STATELESS_REVISION,
    ),
    transport: 'http',
    revisions: only07,
    async run(ctx) {
      const { session, http } = await openStateless(ctx);
      // The header mirrors the body's version, so both ask for it.
      const reply = await session.request('tools/list', {
        _meta: { 'io.modelcontextprotocol/protocolVersion': '1900-01-01' },
      });
      const o = await outcomeOf(http, reply);
      const code = errorOf(reply)?.code;
      const what = `tools/list for version 1900-01-01 → ${said(o)}, ${code === undefined ? 'a result' : `error ${JSON.stringify(code)}`}`;
      if (o.status === 400 && code === -32022) return pass(what);
      return fail(what, {
        expected: 'HTTP 400 with error -32022',
        actual: { ...actualOf(o), reply: describeReply(reply) },
      });
    },
  },
  {
    id: 'stateless/http/x-accel-buffering',
    title: 'SSE responses carry X-Accel-Buffering: no',
    requirement: requirement(
      '07.http.x-accel',
      'SHOULD',
      `${PAGE}#receiving-messages`,
      'A server that answers with an SSE stream includes the X-Accel-Buffering: no header, so proxies do not buffer the events',
      STATELESS_REVISION,
    ),
    transport: 'http',
    revisions: only07,
    async run(ctx) {
      const { session, http } = await openStateless(ctx);
      await session.request('server/discover', {});
      if (ctx.profile.capabilities.tools !== undefined) await session.request('tools/list', {});
      const streams = (await Promise.all(http.posts.map((p) => p.outcome))).filter(
        (o) => o.contentType === 'text/event-stream',
      );
      if (streams.length === 0) return skip('the server answered with JSON, not SSE streams');
      const bare = streams.filter((o) => String(o.headers['x-accel-buffering']).toLowerCase() !== 'no');
      if (bare.length === 0) return pass(`${streams.length} SSE responses, each with X-Accel-Buffering: no`);
      return warn(`${bare.length} of ${streams.length} SSE responses without X-Accel-Buffering: no`, {
        expected: 'X-Accel-Buffering: no',
        actual: bare.map((o) => o.headers['x-accel-buffering'] ?? null),
      });
    },
  },
  {
    id: 'stateless/http/missing-cap-400',
    title: 'A request refused for an undeclared client capability (-32021) gets HTTP 400',
    requirement: requirement(
      '07.missing-cap',
      'MUST',
      'basic#per-request-protocol-fields',
      'MissingRequiredClientCapabilityError (-32021) comes with HTTP 400 Bad Request over Streamable HTTP',
      STATELESS_REVISION,
    ),
    transport: 'http',
    revisions: only07,
    async run(ctx) {
      const probe = await inputProbe(ctx);
      if (typeof probe === 'string') return skip(probe);
      if (errorOf(probe.bare)?.code !== -32021)
        return skip(
          `${probe.tool} asks for input instead of refusing with -32021 (stateless/capabilities/missing judges that)`,
        );
      const { session, http } = await openStateless(ctx);
      const reply = await session.request('tools/call', {
        name: probe.tool,
        arguments: probe.arguments,
        ...capabilitiesMeta({}),
      });
      const o = await outcomeOf(http, reply);
      const code = errorOf(reply)?.code;
      const what = `${probe.tool} without client capabilities → ${said(o)}, ${code === undefined ? 'a result' : `error ${JSON.stringify(code)}`}`;
      if (code !== -32021)
        return skip(`${what}: not -32021 this time (stateless/capabilities/missing judges the code)`);
      return o.status === 400
        ? pass(what)
        : fail(what, {
            expected: 'HTTP 400 with error -32021',
            actual: { ...actualOf(o), reply: describeReply(reply) },
          });
    },
  },
];
