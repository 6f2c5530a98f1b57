// client-side/http: the client's side of Streamable HTTP, read from every HTTP exchange it made.
import { isObject } from '../../json.js';
import { STATELESS } from '../../transport/test-server/conversation.js';
import { SSE_RETRY_MS } from '../../transport/test-server/endpoint.js';
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
/** The exchanges after the one that carried initialize (all of them on 2026-07-28). */
const afterInitialize = (r: ScenarioRecord) => {
  const all = mcpExchanges(r);
  // The initialize the server answered (one refused before, e.g. with 401 until the client authorized, opens nothing).
  const init = all.findIndex((x) => parsed(x)?.method === 'initialize' && (x.status ?? 0) < 400);
  return r.revision === STATELESS ? all : init < 0 ? [] : all.slice(init + 1);
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
      const sid = r.http?.state.sessionId;
      if (sid === undefined) return none(r);
      const after = afterInitialize(r);
      const bad = after.find((x) => x.requestHeaders['mcp-session-id'] !== sid);
      return bad
        ? fail(
            `${where(r)}: ${bad.method} with Mcp-Session-Id ${JSON.stringify(bad.requestHeaders['mcp-session-id'] ?? null)}`,
            { expected: sid, actual: show(bad) },
          )
        : after.length === 0
          ? skip(`${where(r)}: no request after initialize`)
          : pass(`${where(r)}: ${after.length} requests with the session id`);
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
    title: 'A dropped SSE stream is resumed with GET and Last-Event-ID, after its retry',
    requirement: requirement(
      'client-side.http.sse-resume',
      'SHOULD',
      'basic/transports#resumability-and-redelivery',
      'After a stream closes before its response, the client resumes with GET and Last-Event-ID of the last event, waiting the retry the server set',
    ),
    transport: 'http',
    scenarios: ['sse-retry'],
    judge: (r) => {
      const d = r.http?.state.dropped;
      if (!d) return skip(`${where(r)}: the client did not ${r.scenario.asks}`);
      if (d.resumedAt === undefined)
        return warn(
          `${where(r)}: the stream was dropped after a primed event and the client did not resume it with GET and Last-Event-ID`,
        );
      if (d.lastEventId !== 'drop-1')
        return warn(`${where(r)}: Last-Event-ID ${JSON.stringify(d.lastEventId)}, the last event was drop-1`);
      const waited = Math.round(d.resumedAt - d.closedAt);
      // Timers fire a little early or late; 50 ms under the retry is still the retry.
      return waited + 50 >= SSE_RETRY_MS
        ? pass(`${where(r)}: resumed after ${waited} ms (retry ${SSE_RETRY_MS})`)
        : warn(`${where(r)}: resumed after ${waited} ms, before the retry of ${SSE_RETRY_MS} ms`);
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
];
