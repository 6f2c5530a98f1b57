// client-side/http: the client's side of Streamable HTTP, read from every HTTP exchange it made.
import { isObject } from '../../json.js';
import { STATELESS } from '../../transport/test-server/conversation.js';
import { SSE_RETRY_MS } from '../../transport/test-server/endpoint.js';
import {
  decodeHeader,
  headerAnnotationFault,
  headerParams,
  headerValue,
  needsBase64,
  valueAt,
} from '../../transport/test-server/headers.js';
import type { HttpExchange } from '../../transport/test-server/http.js';
import { MCP_PATH } from '../../transport/test-server/http.js';
import { fail, pass, skip, warn } from '../kit/check.js';
import { type ClientCheckDef, type ScenarioRecord, where } from '../kit/client-check.js';
import { requirement } from '../kit/requirement.js';

const INIT = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
const mcpExchanges = (r: ScenarioRecord) => (r.http?.exchanges ?? []).filter((x) => x.url.split('?')[0] === MCP_PATH);
const posts = (r: ScenarioRecord) => mcpExchanges(r).filter((x) => x.method === 'POST');
const show = (x: HttpExchange) => ({
  method: x.method,
  url: x.url,
  headers: x.requestHeaders,
  body: x.body.slice(0, 300),
});
const parsed = (x: HttpExchange): Record<string, unknown> | undefined => {
  try {
    const m = JSON.parse(x.body);
    return isObject(m) ? m : undefined;
  } catch {
    return undefined;
  }
};
/**
 * The exchanges after the one that carried initialize (all of them on 2026-07-28). A later initialize (a new session
 * after a 404) negotiates afresh, so it is not one of them.
 */
const afterInitialize = (r: ScenarioRecord) => {
  const all = mcpExchanges(r);
  // The initialize the server answered (one refused before, e.g. with 401 until the client authorized, opens nothing).
  const init = all.findIndex((x) => parsed(x)?.method === 'initialize' && (x.status ?? 0) < 400);
  return r.revision === STATELESS
    ? all
    : init < 0
      ? []
      : all.slice(init + 1).filter((x) => parsed(x)?.method !== 'initialize');
};
const none = (r: ScenarioRecord) => skip(`${where(r)}: the client made no HTTP request to the MCP endpoint`);

export const CLIENT_HTTP_CHECKS: ClientCheckDef[] = [
  {
    id: 'client-side/http/accept',
    title: 'Every POST accepts both application/json and text/event-stream',
    requirement: requirement(
      'client-side.http.accept',
      'MUST',
      'basic/transports#sending-messages-to-the-server',
      "The client's POST has an Accept header listing both application/json and text/event-stream",
    ),
    transport: 'http',
    judge: (r) => {
      const all = posts(r);
      if (all.length === 0) return none(r);
      const bad = all.find((x) => {
        const accept = (x.requestHeaders.accept ?? '').toLowerCase();
        return !accept.includes('application/json') || !accept.includes('text/event-stream');
      });
      return bad
        ? fail(`${where(r)}: POST with Accept ${JSON.stringify(bad.requestHeaders.accept ?? null)}`, {
            actual: show(bad),
          })
        : pass(`${where(r)}: ${all.length} POSTs accept both`);
    },
  },
  {
    id: 'client-side/http/session-id',
    title: 'The session id is sent on every request once issued',
    requirement: requirement(
      'client-side.http.session-id',
      'MUST',
      'basic/transports#session-management',
      'Once the server issued Mcp-Session-Id at initialization, the client sends it on every later HTTP request',
    ),
    transport: 'http',
    revisions: INIT,
    judge: (r) => {
      // The session is the one the last initialize before each request opened (a new one after a 404).
      let sid: string | undefined;
      let after = 0;
      for (const x of mcpExchanges(r)) {
        if (parsed(x)?.method === 'initialize') {
          sid = r.http?.state.issued.find((i) => i.exchange === x.seq)?.id ?? sid;
          continue;
        }
        if (sid === undefined) continue;
        after++;
        if (x.requestHeaders['mcp-session-id'] !== sid)
          return fail(
            `${where(r)}: ${x.method} with Mcp-Session-Id ${JSON.stringify(x.requestHeaders['mcp-session-id'] ?? null)}`,
            { expected: sid, actual: show(x) },
          );
      }
      if (sid === undefined) return none(r);
      return after === 0
        ? skip(`${where(r)}: no request after initialize`)
        : pass(`${where(r)}: ${after} requests with the session id`);
    },
  },
  {
    id: 'client-side/http/protocol-version-header',
    title: 'MCP-Protocol-Version is sent on every request after initialize, with the negotiated version',
    requirement: requirement(
      'client-side.http.protocol-version-header',
      'MUST',
      'basic/transports#protocol-version-header',
      'After initialization the client sends MCP-Protocol-Version: <negotiated version> on every HTTP request',
      '2025-06-18',
    ),
    transport: 'http',
    revisions: ['2025-11-25', '2025-06-18', STATELESS],
    judge: (r) => {
      const version = r.conv.negotiated ?? (r.revision === STATELESS ? STATELESS : undefined);
      if (version === undefined || version === '2025-03-26')
        return skip(`${where(r)}: no version from 2025-06-18 on was negotiated`);
      const after = afterInitialize(r);
      if (after.length === 0) return none(r);
      // On 2026-07-28 a request refused for its version may name another.
      const counted = after.filter((x) => x.status !== 400);
      const missing = counted.find((x) => x.requestHeaders['mcp-protocol-version'] === undefined);
      if (missing)
        return fail(`${where(r)}: ${missing.method} without MCP-Protocol-Version after initialization`, {
          actual: show(missing),
        });
      const other = counted.find((x) => x.requestHeaders['mcp-protocol-version'] !== version);
      return other
        ? warn(
            `${where(r)}: ${other.method} with MCP-Protocol-Version ${JSON.stringify(other.requestHeaders['mcp-protocol-version'])}, negotiated ${version}`,
            { actual: show(other) },
          )
        : pass(`${where(r)}: ${after.length} requests name ${version}`);
    },
  },
  {
    id: 'client-side/http/standard-headers',
    title: 'Mcp-Method and Mcp-Name match the body (2026-07-28)',
    requirement: requirement(
      'client-side.http.standard-headers',
      'MUST',
      'basic/transports/streamable-http#standard-headers',
      "On 2026-07-28 every POST carries Mcp-Method equal to the body's method, and Mcp-Name equal to params.name (or uri) for tools/call, prompts/get and resources/read",
      STATELESS,
    ),
    transport: 'http',
    revisions: [STATELESS],
    judge: (r) => {
      const all = posts(r).filter((x) => typeof parsed(x)?.method === 'string');
      if (all.length === 0) return none(r);
      for (const x of all) {
        const m = parsed(x)!;
        if (x.requestHeaders['mcp-method'] !== m.method)
          return fail(
            `${where(r)}: ${String(m.method)} with Mcp-Method ${JSON.stringify(x.requestHeaders['mcp-method'] ?? null)}`,
            { actual: show(x) },
          );
        const p = isObject(m.params) ? m.params : {};
        const name = m.method === 'resources/read' ? p.uri : p.name;
        if (
          ['tools/call', 'prompts/get', 'resources/read'].includes(m.method as string) &&
          x.requestHeaders['mcp-name'] !== name
        )
          return fail(
            `${where(r)}: ${String(m.method)} with Mcp-Name ${JSON.stringify(x.requestHeaders['mcp-name'] ?? null)}, body names ${JSON.stringify(name)}`,
            { actual: show(x) },
          );
      }
      return pass(`${where(r)}: ${all.length} POSTs with matching headers`);
    },
  },
  {
    id: 'client-side/http/sse-resume',
    title: 'A stream the server closed before its response is resumed with GET and Last-Event-ID',
    requirement: requirement(
      'client-side.http.sse-resume',
      'SHOULD',
      'basic/transports#resumability-and-redelivery',
      'When the server closes an SSE stream before its response, the client reconnects with GET carrying the last event id in Last-Event-ID',
      '2025-11-25',
    ),
    transport: 'http',
    revisions: ['2025-11-25'],
    scenarios: ['sse-retry'],
    judge: (r) => {
      const d = r.http?.state.dropped;
      if (!d) return skip(`${where(r)}: the client did not ${r.scenario.asks}`);
      if (d.resumedAt === undefined)
        return warn(
          `${where(r)}: the stream was closed after a primed event (id drop-1) and the client did not reconnect with GET and Last-Event-ID`,
        );
      return d.lastEventId === 'drop-1'
        ? pass(`${where(r)}: resumed with GET and Last-Event-ID drop-1`)
        : warn(`${where(r)}: resumed with Last-Event-ID ${JSON.stringify(d.lastEventId)}, the last event was drop-1`);
    },
  },
  {
    id: 'client-side/http/sse-retry-wait',
    title: "A client reconnecting to a closed SSE stream waits the stream's retry first",
    requirement: requirement(
      'client-side.http.sse-retry-wait',
      'MUST',
      'basic/transports#sending-messages-to-the-server',
      'A client that reconnects after the server closed an SSE stream waits the milliseconds of the retry field first',
      '2025-11-25',
    ),
    transport: 'http',
    revisions: ['2025-11-25'],
    scenarios: ['sse-retry'],
    judge: (r) => {
      const d = r.http?.state.dropped;
      if (d?.resumedAt === undefined)
        return skip(`${where(r)}: the client did not reconnect to a stream the server closed`);
      const waited = Math.round(d.resumedAt - d.closedAt);
      // Timers fire a little early or late; 50 ms under the retry is still the retry.
      return waited + 50 >= SSE_RETRY_MS
        ? pass(`${where(r)}: reconnected after ${waited} ms (retry ${SSE_RETRY_MS})`)
        : fail(`${where(r)}: reconnected after ${waited} ms, before the retry of ${SSE_RETRY_MS} ms`);
    },
  },
  {
    id: 'client-side/http/delete-session',
    title: 'The client ends its session with DELETE',
    requirement: requirement(
      'client-side.http.delete-session',
      'SHOULD',
      'basic/transports#session-management',
      'A client that no longer needs its session sends HTTP DELETE with the Mcp-Session-Id',
    ),
    transport: 'http',
    revisions: INIT,
    judge: (r) => {
      if (r.http?.state.sessionId === undefined) return none(r);
      if (r.exit.stopped) return skip(`${where(r)}: the client was stopped at the end of its budget before it ended`);
      return (r.http.state.deletes ?? 0) > 0
        ? pass(`${where(r)}: DELETE sent`)
        : warn(`${where(r)}: the client exited without DELETE for its session`);
    },
  },
  {
    id: 'client-side/http/session-reinitialize',
    title: 'A 404 for the session is followed by a new initialize without a session id',
    requirement: requirement(
      'client-side.http.session-reinitialize',
      'MUST',
      'basic/transports#session-management',
      'When a request carrying Mcp-Session-Id gets HTTP 404, the client starts a new session: a new initialize without a session id',
    ),
    transport: 'http',
    revisions: INIT,
    scenarios: ['session-expired'],
    judge: (r) => {
      const all = mcpExchanges(r);
      const gone = all.findIndex((x) => x.status === 404 && x.requestHeaders['mcp-session-id'] !== undefined);
      if (gone < 0) return skip(`${where(r)}: the client did not ${r.scenario.asks}`);
      const init = all.slice(gone + 1).find((x) => parsed(x)?.method === 'initialize');
      if (!init)
        return fail(`${where(r)}: ${all[gone]!.method} got 404 for its session and no new initialize followed`, {
          actual: show(all[gone]!),
        });
      return init.requestHeaders['mcp-session-id'] === undefined
        ? pass(`${where(r)}: a new initialize followed the 404`)
        : fail(
            `${where(r)}: the new initialize carries Mcp-Session-Id ${JSON.stringify(init.requestHeaders['mcp-session-id'])}`,
            { actual: show(init) },
          );
    },
  },
  {
    id: 'client-side/http/custom-headers',
    title: 'A tools/call carries the Mcp-Param-* headers its tool declares, with the argument values (2026-07-28)',
    requirement: requirement(
      'client-side.http.custom-headers',
      'MUST',
      'basic/transports/streamable-http#custom-headers-from-tool-parameters',
      'On 2026-07-28 a tools/call carries Mcp-Param-{name} for each x-mcp-header parameter with a value, Base64 sentinel where the value is not plain ASCII',
      STATELESS,
    ),
    transport: 'http',
    revisions: [STATELESS],
    judge: (r) =>
      judgeParamHeaders(
        r,
        (value, raw, name) =>
          value === undefined || value === null
            ? undefined
            : raw === undefined
              ? `no Mcp-Param-${name} for ${JSON.stringify(value)}`
              : decodeHeader(raw) !== headerValue(value)
                ? `Mcp-Param-${name}: ${JSON.stringify(raw)} for ${JSON.stringify(value)}`
                : needsBase64(headerValue(value)) && decodeHeader(raw) === raw
                  ? `Mcp-Param-${name}: ${JSON.stringify(raw)} sent plain, not in the Base64 sentinel`
                  : undefined,
        { singleTypes: true },
      ),
  },
  {
    id: 'client-side/http/param-header-omitted',
    title: 'No Mcp-Param-* header for an argument that is absent or null (2026-07-28)',
    requirement: requirement(
      'client-side.http.param-header-omitted',
      'MUST',
      'basic/transports/streamable-http#custom-headers-from-tool-parameters',
      'On 2026-07-28 a tools/call carries no Mcp-Param-{name} for an x-mcp-header parameter that is absent from the arguments or given as null',
      STATELESS,
    ),
    transport: 'http',
    revisions: [STATELESS],
    judge: (r) =>
      judgeParamHeaders(r, (value, raw, name, path) =>
        (value === undefined || value === null) && raw !== undefined
          ? `Mcp-Param-${name}: ${JSON.stringify(raw)} sent for ${path.join('.')} = ${value === null ? 'null' : 'absent'}`
          : undefined,
      ),
  },
  {
    id: 'client-side/http/invalid-header-tool-excluded',
    title: 'A tool whose x-mcp-header annotations are invalid is never called (2026-07-28)',
    requirement: requirement(
      'client-side.http.invalid-header-tool-excluded',
      'MUST',
      'server/tools#x-mcp-header',
      'A client over Streamable HTTP rejects a tool whose x-mcp-header values break the constraints (empty, not a token, repeated case-insensitively, on a non-primitive parameter): it never calls it',
      STATELESS,
    ),
    transport: 'http',
    revisions: [STATELESS],
    scenarios: ['http-invalid-tool-headers'],
    judge: (r) => {
      if (!listed(r)) return skip(`${where(r)}: the client did not list the tools`);
      const call = toolCalls(r).find((c) => invalidTool(r, c.params.name));
      if (!call) return pass(`${where(r)}: no tool with invalid x-mcp-header annotations was called`);
      return fail(
        `${where(r)}: the client called ${String(call.params.name)}, whose ${invalidTool(r, call.params.name)}`,
        { actual: call.params },
      );
    },
  },
  {
    id: 'client-side/http/valid-header-tool-kept',
    title: 'Excluding invalid tools keeps the valid ones: the valid tool is called (2026-07-28)',
    requirement: requirement(
      'client-side.http.valid-header-tool-kept',
      'MUST',
      'server/tools#x-mcp-header',
      'Rejecting a tool for invalid x-mcp-header annotations excludes that tool alone: a valid tool of the same list stays usable',
      STATELESS,
    ),
    transport: 'http',
    revisions: [STATELESS],
    scenarios: ['http-invalid-tool-headers'],
    judge: (r) => {
      if (!listed(r)) return skip(`${where(r)}: the client did not list the tools`);
      const valid = r.scenario.tools
        .filter((t) => headerAnnotationFault(t.inputSchema) === undefined)
        .map((t) => t.name);
      return toolCalls(r).some((c) => valid.includes(c.params.name as string))
        ? pass(`${where(r)}: ${valid.join(', ')} called`)
        : fail(`${where(r)}: the client listed the tools and never called ${valid.join(', ')}, the valid one`);
    },
  },
];

/** The tools/call requests of the record, with their params. */
const toolCalls = (r: ScenarioRecord) =>
  posts(r)
    .map(parsed)
    .filter((m) => m?.method === 'tools/call' && isObject(m.params))
    .map((m) => m as { params: Record<string, unknown> });
const listed = (r: ScenarioRecord) => posts(r).some((x) => parsed(x)?.method === 'tools/list');
/** What is invalid in the annotations of the scenario's tool `name`, if it is. */
const invalidTool = (r: ScenarioRecord, name: unknown) => {
  const tool = r.scenario.tools.find((t) => t.name === name);
  return tool && headerAnnotationFault(tool.inputSchema);
};

/**
 * Judges the Mcp-Param-* headers of every call of a tool with valid x-mcp-header annotations (a call of an invalid one
 * is client-side/http/invalid-header-tool-excluded's): `fault` says what is wrong with one parameter's header.
 */
/** The `type` a parameter at `path` of an inputSchema declares. */
function typeAt(schema: unknown, path: string[]): unknown {
  let at: unknown = schema;
  for (const key of path) at = isObject(at) && isObject(at.properties) ? at.properties[key] : undefined;
  return isObject(at) ? at.type : undefined;
}

function judgeParamHeaders(
  r: ScenarioRecord,
  fault: (value: unknown, raw: string | undefined, name: string, path: string[]) => string | undefined,
  { singleTypes = false } = {},
) {
  let judged = 0;
  for (const x of posts(r)) {
    const m = parsed(x);
    const p = isObject(m?.params) ? m.params : {};
    const tool = m?.method === 'tools/call' ? r.scenario.tools.find((t) => t.name === p.name) : undefined;
    const params = tool && !headerAnnotationFault(tool.inputSchema) ? headerParams(tool.inputSchema) : [];
    if (params.length === 0) continue;
    // "x-mcp-header MUST only be applied to parameters with primitive types": a client may read a nullable type
    // (["string", "null"]) as none and send no header of that tool; only the null rule is judged there.
    if (singleTypes && tool && params.some(({ path }) => typeof typeAt(tool.inputSchema, path) !== 'string')) continue;
    judged++;
    for (const { path, name } of params) {
      const found = fault(valueAt(p.arguments, path), x.requestHeaders[`mcp-param-${name.toLowerCase()}`], name, path);
      if (found) return fail(`${where(r)}: ${String(p.name)}: ${found}`, { actual: show(x) });
    }
  }
  return judged === 0
    ? skip(`${where(r)}: the client called no tool that declares x-mcp-header parameters`)
    : pass(`${where(r)}: ${judged} calls with their Mcp-Param-* headers`);
}
